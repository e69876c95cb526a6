import { compact, fieldErrors, requiredErrors } from '../src/forms';

describe('web client forms', () => {
  describe('fieldErrors: the API’s 400 message, part by part, next to its field', () => {
    const fields = ['fullname', 'telephone', 'guarantorname', 'guarantorcontact', 'imei', 'payg'];

    it('puts each part under the field it names, and keeps what names no field', () => {
      const message = 'imei must be 15 digits; telephone must be a valid telephone number; deal 9 is not active';
      expect(fieldErrors(message, fields)).toEqual({
        byField: { imei: 'imei must be 15 digits', telephone: 'telephone must be a valid telephone number' },
        rest: ['deal 9 is not active'],
      });
    });

    it('matches whole field names only: guarantorname is not guarantor, imei is not imeis', () => {
      expect(fieldErrors('guarantorcontact must be a valid telephone number', ['guarantor', 'guarantorcontact']).byField).toEqual({
        guarantorcontact: 'guarantorcontact must be a valid telephone number',
      });
      expect(fieldErrors('imeis must be an array', ['imei'])).toEqual({ byField: {}, rest: ['imeis must be an array'] });
    });

    it('joins two messages about one field', () => {
      expect(fieldErrors('payg must be shorter than or equal to 64 characters; payg must contain only letters, digits, dashes or underscores', fields).byField).toEqual({
        payg: 'payg must be shorter than or equal to 64 characters; payg must contain only letters, digits, dashes or underscores',
      });
    });

    it('leaves a message about no field (a 409 or a sentence) for the toast', () => {
      expect(fieldErrors('Reference CASH-1 was already used.', ['reference', 'amount'])).toEqual({ byField: {}, rest: ['Reference CASH-1 was already used.'] });
    });
  });

  describe('requiredErrors: a required field left empty, said before anything is sent', () => {
    it('names empty, blank and missing required fields, and nothing else', () => {
      expect(requiredErrors({ reason: '', notes: '  ', amount: 0, other: '' }, ['reason', 'notes', 'amount', 'missing'], 'Required.')).toEqual({ reason: 'Required.', notes: 'Required.', missing: 'Required.' });
      expect(requiredErrors({ reason: 'Device recovered' }, ['reason'], 'Required.')).toEqual({});
    });
  });

  describe('compact: form values to a request body', () => {
    it('leaves out empty optional inputs and keeps zero and false', () => {
      expect(compact({ amount: 0, reference: 'R-1', narration: '', promisedate: null, notes: undefined, smsoptout: false })).toEqual({ amount: 0, reference: 'R-1', smsoptout: false });
    });
  });
});
