import { Role } from '../src/common/auth/role.js';
import { createDeal, registerCustomer, registrationBody, uniqueImei, uniqueTelephone } from './support/fixtures.js';
import { startTestApp, TestApp } from './support/test-app.js';

/** Issue 14 item 4 and the line-break half of item 7: identifiers normalised at the edge and unique as normalised (DESIGN part 10). */
describe('Identifiers', () => {
  let t: TestApp;
  let operator: string;
  let dealid: number;
  beforeAll(async () => {
    t = await startTestApp({ now: new Date('2026-03-10T08:00:00Z') });
    operator = await t.token(Role.OPERATOR);
    dealid = (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
  });
  afterAll(() => t.close());

  const register = (over: Record<string, unknown>) => t.http.post('/finance/customers/register').set('x-access-token', operator).send(registrationBody(dealid, over));
  const post = (path: string, body: object, token = operator) => t.http.post(path).set('x-access-token', token).send(body);
  const view = async (customerid: number) => (await t.http.get(`/finance/customers/${customerid}`).set('x-access-token', operator).expect(200)).body;
  const customersCount = async () => (await t.db.query('SELECT count(*)::int AS n FROM customers'))[0].n as number;

  describe('telephone numbers', () => {
    it('reads +256772555001, 256772555001, 0772555001 and 0772 555 001 as one number: one customer, then 409s', async () => {
      const first = await register({ telephone: '+256772555001' }).expect(201);
      const before = await customersCount();
      for (const typed of ['256772555001', '0772555001', '0772 555 001', '772555001', '+256 772-555-001']) {
        expect((await register({ telephone: typed }).expect(409)).body).toEqual({ message: 'Telephone +256772555001 is already registered.' });
      }
      expect(await customersCount()).toBe(before);
      expect((await view(first.body.customerid)).telephone).toBe('+256772555001');
      const [user] = await t.db.query('SELECT username FROM users WHERE id = (SELECT user_id FROM customers WHERE id = $1)', [first.body.customerid]);
      expect(user.username).toBe('+256772555001');
    });

    it('stores a national number and the guarantor’s contact in E.164', async () => {
      const res = await register({ telephone: '0772 555 101', guarantorcontact: '(0701) 987-654' }).expect(201);
      expect(await view(res.body.customerid)).toMatchObject({ telephone: '+256772555101', guarantorcontact: '+256701987654' });
      expect((await register({ telephone: '256772555101' }).expect(409)).body).toEqual({ message: 'Telephone +256772555101 is already registered.' });
    });

    it('reads digits starting with another country’s code as that country’s number', async () => {
      const res = await register({ telephone: '254712345678' }).expect(201);
      expect((await view(res.body.customerid)).telephone).toBe('+254712345678');
      await register({ telephone: '+254 712 345 678' }).expect(409);
    });

    it('answers 400 naming each field whose number is not valid in UG or with a country code', async () => {
      const before = await customersCount();
      expect((await register({ telephone: '0772555' }).expect(400)).body).toEqual({
        message: 'telephone must be a valid telephone number: with its country code (+256772555001) or as dialled in UG',
      });
      expect((await register({ telephone: '2567725550011', guarantorcontact: '0000000' }).expect(400)).body).toEqual({
        message:
          'telephone must be a valid telephone number: with its country code (+256772555001) or as dialled in UG; guarantorcontact must be a valid telephone number: with its country code (+256772555001) or as dialled in UG',
      });
      expect((await register({ telephone: 'abc' }).expect(400)).body).toEqual({ message: 'telephone must be a telephone number: 7–15 digits, optionally starting with +' });
      for (const telephone of ['0772555001\n', '0772555001 ext 5', '+256772555001x', '']) {
        expect((await register({ telephone }).expect(400)).body).toEqual({ message: 'telephone must be a telephone number: 7–15 digits, optionally starting with +' });
      }
      expect(await customersCount()).toBe(before);
    });

    it('finds a customer by the number as typed nationally', async () => {
      const c = await registerCustomer(t, dealid);
      const national = `0${c.telephone.slice(4)}`;
      const page = (await t.http.get(`/finance/customers?search=${encodeURIComponent(national)}`).set('x-access-token', operator).expect(200)).body;
      expect(page.items.map((x: { customerid: number }) => x.customerid)).toEqual([c.customerid]);
    });

    it('lets one of two concurrent registrations of one number in two forms succeed', async () => {
      const e164 = uniqueTelephone();
      const results = await Promise.all([register({ telephone: e164 }), register({ telephone: `0${e164.slice(4)}` })]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    });
  });

  describe('IMEIs', () => {
    it('accepts an IMEI written with dashes or spaces and stores the 15 digits', async () => {
      const res = await register({ imei: '49-015420-323751-8' }).expect(201);
      expect((await view(res.body.customerid)).imei).toBe('490154203237518');
      const [deal] = await t.db.query('SELECT imei FROM customer_deals WHERE customer_id = $1', [res.body.customerid]);
      expect(deal.imei).toBe('490154203237518');
      // DESIGN part 10: spaces and dashes removed, wherever they are, then 15 digits
      for (const typed of ['490154203237518', '49 015420 323751 8', ' 49-015420-323751-8 ', '49--015420 - 323751-8']) {
        expect((await register({ imei: typed }).expect(409)).body).toEqual({ message: 'IMEI 490154203237518 is already registered to another customer.' });
      }
      const found = (await t.http.get('/finance/customers?search=49-015420-323751-8').set('x-access-token', operator).expect(200)).body;
      expect(found.items.map((x: { customerid: number }) => x.customerid)).toEqual([res.body.customerid]);
    });

    it.each([
      ['a wrong check digit', '490154203237517'],
      ['letters', 'A90154203237518'],
      ['14 digits', '49015420323751'],
      ['16 digits', '4901542032375180'],
      ['a line break', '49015420323751\n8'],
      ['an underscore', '49_015420-323751-8'],
    ])('answers 400 for an IMEI with %s', async (_what, imei) => {
      expect((await register({ imei }).expect(400)).body).toEqual({ message: 'imei must be 15 digits with a valid check digit' });
    });

    it('lets an IMEI move on once its deal is paid off or repossessed, not before', async () => {
      const cashSale = uniqueImei();
      await register({ imei: cashSale, deposit: 600000 }).expect(201); // paid in full at registration: PAID_OFF
      await register({ imei: cashSale }).expect(201);
      await register({ imei: cashSale }).expect(409);

      const repossessed = await registerCustomer(t, dealid);
      await register({ imei: repossessed.imei }).expect(409);
      await post('/finance/contracts/repossess', { customerid: repossessed.customerid, reason: 'Phone returned.' }).expect(200);
      await register({ imei: repossessed.imei }).expect(201);
    });

    it('refuses a cash sale on a device still being paid for, and leaves that device alone', async () => {
      const financed = await registerCustomer(t, dealid);
      // deposit = the whole price: the new deal would be PAID_OFF at once and its RELEASE would free the financed phone
      expect((await register({ imei: financed.imei, deposit: 600000 }).expect(409)).body).toEqual({ message: `IMEI ${financed.imei} is already registered to another customer.` });
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM device_commands WHERE imei = $1 AND action = 'RELEASE'`, [financed.imei]);
      expect(n).toBe(0);
      // once that deal is closed, the device may be sold for cash
      await post('/finance/contracts/repossess', { customerid: financed.customerid, reason: 'Phone returned.' }).expect(200);
      await register({ imei: financed.imei, deposit: 600000 }).expect(201);
    });

    it('lets exactly one of two concurrent registrations with one IMEI succeed', async () => {
      for (let round = 0; round < 3; round++) {
        const imei = uniqueImei();
        const results = await Promise.all([register({ imei }), register({ imei: `${imei.slice(0, 2)}-${imei.slice(2)}` })]);
        expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
        expect(results.find((r) => r.status === 409)!.body).toEqual({ message: `IMEI ${imei} is already registered to another customer.` });
        const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM customers WHERE imei = $1', [imei]);
        expect(n).toBe(1);
      }
    });
  });

  describe('PAYG codes', () => {
    it('refuses PAYG-0001 and payg-0001 as two customers (409) and keeps the code as first written', async () => {
      const first = await register({ payg: 'PAYG-0001' }).expect(201);
      expect((await register({ payg: 'payg-0001' }).expect(409)).body).toEqual({ message: 'PAYG code payg-0001 is already assigned to another customer.' });
      expect((await register({ payg: ' Payg-0001 ' }).expect(409)).body).toEqual({ message: 'PAYG code Payg-0001 is already assigned to another customer.' });
      expect((await view(first.body.customerid)).payg).toBe('PAYG-0001');
      const found = (await t.http.get('/finance/customers?search=payg-0001').set('x-access-token', operator).expect(200)).body;
      expect(found.items.map((x: { customerid: number }) => x.customerid)).toEqual([first.body.customerid]);
    });

    it('trims spaces around a code', async () => {
      const res = await register({ payg: '  PAYG-TRIM-1 ' }).expect(201);
      expect((await view(res.body.customerid)).payg).toBe('PAYG-TRIM-1');
    });

    it('answers 400 for a code with a line break, inner space or other character', async () => {
      for (const payg of ['PAYG-0002\n', 'PAYG 0002', 'PA', 'PAYG/2', '\tPAYG-0002']) {
        expect((await register({ payg }).expect(400)).body).toEqual({ message: 'payg must be 3–64 letters, digits, dashes or underscores' });
      }
    });

    it('lock-update refuses another customer’s code in any letter case and lets a customer change the case of their own', async () => {
      const a = await registerCustomer(t, dealid);
      const b = await registerCustomer(t, dealid);
      const taken = await post('/finance/device/lock-update', { customerid: b.customerid, payg: a.payg.toLowerCase(), serialnumber: 'SN-B' }).expect(409);
      expect(taken.body).toEqual({ message: `PAYG code ${a.payg.toLowerCase()} is already assigned to another customer.` });
      const own = await post('/finance/device/lock-update', { customerid: a.customerid, payg: ` ${a.payg.toLowerCase()} `, serialnumber: 'SN-A' }).expect(200);
      expect(own.body).toMatchObject({ payg: a.payg.toLowerCase(), serialnumber: 'SN-A' });
      await post('/finance/device/lock-update', { customerid: a.customerid, payg: 'PAYG-NEW\n', serialnumber: 'SN-A' }).expect(400);
      const badSerial = await post('/finance/device/lock-update', { customerid: a.customerid, payg: 'PAYG-NEW-1', serialnumber: 'SN\tA' }).expect(400);
      expect(badSerial.body).toEqual({ message: 'serialnumber must not contain line breaks or control characters' });
    });
  });

  describe('line breaks and control characters', () => {
    let provider: string;
    beforeAll(async () => {
      provider = await t.token(Role.PROVIDER);
    });
    const callback = (transaction: object) => post('/finance/amlogs/callback', { transaction }, provider);

    it('refuses them in a payment reference, keeps line breaks in a narration', async () => {
      const c = await registerCustomer(t, dealid);
      for (const reference of ['CASH-1\n', 'CASH\r\n1', 'CASH\u00001', 'CASH\u2028', '\u202eCASH']) {
        const res = await post('/finance/payments/load', { customerid: c.customerid, amount: 1000, reference, narration: 'cash' }).expect(400);
        expect(res.body.message).toMatch(/^reference (must not contain line breaks or control characters|must not contain the NUL character)$/);
      }
      await post('/finance/payments/load', { customerid: c.customerid, amount: 1000, reference: `CASH-NL-${c.customerid}`, narration: 'paid at\nthe Mbale agent' }).expect(201);
      const bell = await post('/finance/payments/load', { customerid: c.customerid, amount: 1000, reference: `CASH-BEL-${c.customerid}`, narration: 'ding\u0007' }).expect(400);
      expect(bell.body).toEqual({ message: 'narration must not contain control characters other than tabs and line breaks' });
    });

    it('refuses them in a callback’s transaction id and tag, still taking an empty tag as unmatched', async () => {
      expect((await callback({ id: 'MP-NL\n1', amount: 1000, tag: 'X' }).expect(400)).body).toEqual({ message: 'transaction.id must not contain line breaks or control characters' });
      expect((await callback({ id: 'MP-NL-2', amount: 1000, tag: 'PAYG-0001\r\n' }).expect(400)).body).toEqual({ message: 'transaction.tag must not contain line breaks or control characters' });
      const empty = await callback({ id: 'MP-EMPTY-TAG-1', amount: 1000, tag: '' }).expect(200);
      expect(empty.body).toMatchObject({ status: 'UNMATCHED' });
    });

    it('refuses them in recon and assign transaction ids, and in a name', async () => {
      expect((await post('/finance/payments/recon', { reference: 'MP\n1' }).expect(400)).body).toEqual({ message: 'reference must not contain line breaks or control characters' });
      expect((await post('/finance/amlogs/assign', { transactionid: 'MP\t1', customerid: 1 }).expect(400)).body).toEqual({
        message: 'transactionid must not contain line breaks or control characters',
      });
      expect((await register({ fullname: 'Amina\nNakato' }).expect(400)).body).toEqual({ message: 'fullname must not contain line breaks or control characters' });
    });
  });
});
