import { columnsOf, parseMapping, readCustomerRow, RowError, RowErrors, unescapeCell } from './import-file.js';

const errorsOf = (row: number, ...fields: string[]): RowError[] => fields.map((field) => ({ row, field, message: `${field} is wrong` }));

describe('RowErrors', () => {
  it('counts every error and every bad row but keeps only the first ones by row, whatever order they come in', () => {
    const errors = new RowErrors(5);
    // rows 5–9 bad in their cells first, then earlier rows found bad against the book when their chunk is checked
    for (let row = 5; row <= 9; row++) errors.addRow(errorsOf(row, 'amount', 'date'));
    errors.addRow(errorsOf(2, 'payg'));
    errors.addRow([]);
    errors.addRow(errorsOf(4, 'reference'));
    errors.addRow(errorsOf(3, 'payg', 'reference'));
    expect({ count: errors.count, rows: errors.rows }).toEqual({ count: 14, rows: 8 });
    expect(errors.list().map((e) => [e.row, e.field])).toEqual([[2, 'payg'], [3, 'payg'], [3, 'reference'], [4, 'reference'], [5, 'amount']]);
  });

  it('holds at most twice its limit however many errors it is given', () => {
    const errors = new RowErrors(10);
    for (let row = 200_000; row > 1; row--) {
      errors.addRow(errorsOf(row, 'payg', 'amount', 'reference', 'date'));
      expect((errors as unknown as { kept: RowError[] }).kept.length).toBeLessThan(20);
    }
    expect(errors.count).toBe(4 * 199_999);
    expect(errors.list().map((e) => e.row)).toEqual([2, 2, 2, 2, 3, 3, 3, 3, 4, 4]);
  });
});

describe('columnsOf', () => {
  const header = ['externalid', 'payg', 'amount', 'reference', 'date'];

  it('reads each field from its one column, mapped or named so in any letter case', () => {
    expect(columnsOf([' ExternalID', 'PAYG', 'Paid', 'Reference', 'date', 'region'], 'payments', { Paid: 'amount' })).toEqual(['externalid', 'payg', 'amount', 'reference', 'date', null]);
  });

  it('finds a mapped header as it finds a field name: spaces around it and letter case aside', () => {
    // the keys copied from the file as written, a trailing space included; or typed in another letter case
    const mapping = parseMapping(JSON.stringify({ 'Client Ref ': 'externalid', 'token account': 'payg', ' Paid': 'amount', Receipt: 'reference', 'Sent On': 'date' }), 'payments');
    expect(columnsOf(['Client Ref ', 'Token Account', 'Paid', 'RECEIPT', 'sent on'], 'payments', mapping)).toEqual(['externalid', 'payg', 'amount', 'reference', 'date']);
  });

  it('refuses a mapping that names one header twice, spaces around it and letter case aside', () => {
    expect(() => parseMapping(JSON.stringify({ Phone: 'telephone', 'phone ': 'guarantorcontact' }), 'customers')).toThrow('mapping names the header "phone " twice (as "Phone")');
  });

  it('refuses every field two or more columns hold, naming the columns as written', () => {
    expect(() => columnsOf([...header, 'AMOUNT', ' Amount ', 'Date'], 'payments', null)).toThrow(
      'The file has more than one column for amount: "amount" (column 3), "AMOUNT" (column 6) and "Amount" (column 7); date: "date" (column 5) and "Date" (column 8). Keep one of them.',
    );
    expect(() => columnsOf([...header, 'Sent on'], 'payments', { 'Sent on': 'date' })).toThrow('The file has more than one column for date: "date" (column 5) and "Sent on" (column 6). Keep one of them.');
  });
});

describe('readCustomerRow: the state a book had, beyond what the credit policy works out', () => {
  const header = ['externalid', 'fullname', 'telephone', 'guarantorname', 'guarantorcontact', 'imei', 'payg', 'dealid', 'depositpaid', 'amountpaid', 'startdate', 'status', 'salesstage', 'dealstatus', 'bonusdays'];
  const columns = columnsOf(header, 'customers', null);
  const context = { today: '2026-01-15', defaultCountry: 'UG', bonusDaysMax: 90 };
  const read = (over: Record<string, string>) => {
    const values: Record<string, string> = {
      externalid: 'E1', fullname: 'Amina', telephone: '+256772555001', guarantorname: 'G', guarantorcontact: '+256701987654', imei: '490154203237518', payg: 'PAYG-1',
      dealid: '1', depositpaid: '60000', amountpaid: '60000', startdate: '2026-01-01', status: '', salesstage: '', dealstatus: '', bonusdays: '', ...over,
    };
    const errors: RowError[] = [];
    return { row: readCustomerRow(2, header.map((h) => values[h]), columns, context, errors), errors };
  };

  it('reads a row without them as a new customer: PENDING, no bonus days, not repossessed', () => {
    expect(read({}).row).toMatchObject({ status: 'PENDING', salesstage: null, repossessed: false, bonusdays: 0 });
  });

  it('keeps APPROVED, a sales stage and bonus days; ignores a deal state the credit policy decides', () => {
    expect(read({ status: 'APPROVED', salesstage: 'DELIVERY', bonusdays: '10', dealstatus: 'UNLOCKED' }).row).toMatchObject({ status: 'APPROVED', salesstage: 'DELIVERY', repossessed: false, bonusdays: 10 });
  });

  it('takes a repossession from either column, and refuses the two disagreeing', () => {
    expect(read({ dealstatus: 'REPOSSESSED' }).row).toMatchObject({ status: 'REPOSSESSED', repossessed: true });
    expect(read({ status: 'REPOSSESSED' }).row).toMatchObject({ status: 'REPOSSESSED', repossessed: true });
    expect(read({ status: 'APPROVED', dealstatus: 'REPOSSESSED' }).errors).toEqual([
      { row: 2, field: 'status', message: "status APPROVED and dealstatus REPOSSESSED disagree: a repossessed deal's customer is REPOSSESSED" },
    ]);
  });

  it('refuses values outside their sets and bonus days beyond BONUS_DAYS_MAX', () => {
    expect(read({ status: 'approved', salesstage: 'SOLD', dealstatus: 'GONE', bonusdays: '91' }).errors.map((e) => e.message)).toEqual([
      'salesstage must be one of ENROLLMENT, VERIFICATION, DELIVERY, ACTIVE, CLOSED',
      'bonusdays must be a whole number from 0 to 90',
      'status must be one of PENDING, APPROVED, REPOSSESSED',
      'dealstatus must be one of LOCKED, UNLOCKED, PAID_OFF, REPOSSESSED',
    ]);
    expect(read({ bonusdays: '-1' }).errors.map((e) => e.field)).toEqual(['bonusdays']);
  });
});

describe('unescapeCell', () => {
  it('drops the one quote an export put before a formula character or a quote', () => {
    expect(['\'=1', "'+256", "'-Jane", "''-Jane", "''x", "'x", 'plain'].map(unescapeCell)).toEqual(['=1', '+256', '-Jane', "'-Jane", "'x", "'x", 'plain']);
  });
});
