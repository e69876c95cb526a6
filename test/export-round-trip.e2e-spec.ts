import { Role } from '../src/common/auth/role.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * README: "an export re-imports as itself". A book exported from one service and applied to a fresh
 * one keeps each customer's state: approval, sales stage, bonus days (so the device locks on the same
 * day), a repossession (the device stays locked for good), and the text of every cell.
 */
describe('A customers export applied to a fresh service', () => {
  // one app at a time: passport keeps one "jwt" strategy per process, the last app's
  let to: TestApp;
  let exported: string;
  let before: Array<Record<string, unknown>>;
  const telephones: Record<string, string> = {};

  const customers = async (t: TestApp) =>
    (await t.db.query(
      `SELECT c.telephone, c.fullname, c.guarantorname, c.status, c.salesstage, cd.status AS dealstatus, cd.bonusdays, cd.nextpaymentdate, cd.amountpaid, cd.balance
       FROM customers c JOIN customer_deals cd ON cd.customer_id = c.id ORDER BY c.telephone`,
    )) as Array<Record<string, unknown>>;

  beforeAll(async () => {
    const from = await startTestApp();
    try {
      const { dealid } = await createDeal(from, { dealname: 'Phone' });
      const operator = await from.token(Role.OPERATOR);
      const post = (path: string, body: object, status = 200) => from.http.post(path).set('x-access-token', operator).send(body).expect(status);
      const approved = await registerCustomer(from, dealid, { fullname: "'-Jane Apostrophe", guarantorname: "'=guarantor" });
      await post('/finance/customers/approve', { customerid: approved.customerid });
      await post('/finance/customers/salesstage', { customerid: approved.customerid, salesstage: 'DELIVERY' });
      // a customer who asked for Swahili and for no reminders
      await post('/finance/customers/preferences', { customerid: approved.customerid, language: 'sw', smsoptout: true });
      const bonus = await registerCustomer(from, dealid);
      await post('/finance/payments/load', { customerid: bonus.customerid, amount: 45000, reference: `RT-${bonus.customerid}`, narration: 'cash' }, 201);
      await post('/finance/device/bonus-days', { customerid: bonus.customerid, days: 10 });
      const repossessed = await registerCustomer(from, dealid);
      await post('/finance/payments/load', { customerid: repossessed.customerid, amount: 90000, reference: `RT-${repossessed.customerid}`, narration: 'cash' }, 201);
      await post('/finance/contracts/repossess', { customerid: repossessed.customerid, reason: 'stolen device' });
      Object.assign(telephones, { approved: approved.telephone, bonus: bonus.telephone, repossessed: repossessed.telephone });
      exported = (await from.http.get('/finance/exports/customers.csv').set('x-access-token', await from.token(Role.ADMIN)).expect(200)).text;
      before = await customers(from);
    } finally {
      await from.close();
    }
    to = await startTestApp();
    // the same deal, with the same id
    await createDeal(to, { dealname: 'Phone' });
  });
  afterAll(async () => {
    try {
      await expectLedgerConsistent(to);
    } finally {
      await to.close();
    }
  });

  it('keeps approval, sales stage, bonus days, a repossession and every cell as they were', async () => {
    const admin = await to.token(Role.ADMIN);
    const applied = await to.http.post('/finance/imports').set('x-access-token', admin).field('kind', 'customers').field('mode', 'apply').attach('file', Buffer.from(exported), { filename: 'customers.csv', contentType: 'text/csv' });
    expect(applied.status).toBe(202);
    let record = applied.body;
    for (let i = 0; i < 300 && record.status !== 'DONE' && record.status !== 'FAILED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      record = (await to.http.get(`/finance/imports/${applied.body.importid}`).set('x-access-token', admin)).body;
    }
    expect(record).toMatchObject({ status: 'DONE', errorcount: 0 });
    const after = await customers(to);
    expect(after).toEqual(before);
    const of = (key: string) => after.find((c) => c.telephone === telephones[key]);
    expect(of('approved')).toMatchObject({ fullname: "'-Jane Apostrophe", guarantorname: "'=guarantor", status: 'APPROVED', salesstage: 'DELIVERY' });
    expect(of('bonus')).toMatchObject({ bonusdays: 10, dealstatus: 'UNLOCKED' });
    expect(of('repossessed')).toMatchObject({ status: 'REPOSSESSED', dealstatus: 'REPOSSESSED' });

    // the language asked for and the opt-out from reminders move with the customer; nobody else gets preferences
    const preferences = await to.db.query('SELECT c.telephone, p.language, p.sms_opt_out FROM customer_preferences p JOIN customers c ON c.id = p.customer_id');
    expect(preferences).toEqual([{ telephone: telephones.approved, language: 'sw', sms_opt_out: true }]);

    // the repossessed device is locked for good, never told to sync
    const actions = await to.db.query('SELECT d.action FROM device_commands d JOIN customers c ON c.id = d.customer_id WHERE c.telephone = $1', [telephones.repossessed]);
    expect(actions).toEqual([{ action: 'PERMANENT_LOCK' }]);
  });

  it('gives every row its own externalid: the import’s, else the account number, qualified where two would meet', async () => {
    const native = await registerCustomer(to, 1);
    // an imported customer whose externalid is the native one's account number (it was an account number where it came from)
    const [{ accountnumber: nativeAccount }] = await to.db.query('SELECT a.accountnumber FROM customers c JOIN accounts a ON a.id = c.account_id WHERE c.id = $1', [native.customerid]);
    await to.db.query(`UPDATE import_rows SET externalid = $1 WHERE id = (SELECT min(id) FROM import_rows WHERE kind = 'customers')`, [nativeAccount]);
    const again = (await to.http.get('/finance/exports/customers.csv').set('x-access-token', await to.token(Role.ADMIN)).expect(200)).text;
    const [{ accountnumber }] = await to.db.query('SELECT a.accountnumber FROM customers c JOIN accounts a ON a.id = c.account_id WHERE c.id = $1', [native.customerid]);
    expect(again.split('\r\n').find((line) => line.includes(native.payg))).toMatch(new RegExp(`^${accountnumber}@${accountnumber},`));
    const externalids = again.split('\r\n').slice(1, -1).map((line) => line.split(',')[0]);
    expect(externalids).toHaveLength(4);
    expect(new Set(externalids).size).toBe(4);
  });
});
