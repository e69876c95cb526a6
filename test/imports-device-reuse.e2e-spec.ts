import { Role } from '../src/common/auth/role.js';
import { createDeal, registerCustomer, uniqueImei } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * A device can be sold again once its deal is closed (DESIGN part 10: one IMEI on one deal that is not
 * PAID_OFF or REPOSSESSED). A book with such a device exports two rows with one IMEI, the closed deal's
 * first; that file applied to a fresh service brings both in, as the API had them, the device commanded
 * by its newest deal. Within one file the same rule holds as against the book: the IMEI may come again
 * only on a deal still being paid for, after rows whose deals were all closed.
 */
describe('A device sold again after its deal closed, exported and imported', () => {
  let to: TestApp;
  let exported: string;
  let imei: string;
  let before: Array<Record<string, unknown>>;

  const book = async (t: TestApp) =>
    (await t.db.query(
      `SELECT c.telephone, c.payg, cd.imei, c.status, cd.status AS dealstatus, cd.amountpaid, cd.nextpaymentdate
       FROM customers c JOIN customer_deals cd ON cd.customer_id = c.id ORDER BY c.telephone`,
    )) as Array<Record<string, unknown>>;

  const upload = (t: TestApp, token: string, file: string, mode: string) =>
    t.http.post('/finance/imports').set('x-access-token', token).field('kind', 'customers').field('mode', mode).attach('file', Buffer.from(file), { filename: 'customers.csv', contentType: 'text/csv' });

  beforeAll(async () => {
    const from = await startTestApp();
    try {
      const { dealid } = await createDeal(from, { dealname: 'Phone' });
      const operator = await from.token(Role.OPERATOR);
      const first = await registerCustomer(from, dealid);
      imei = first.imei;
      await from.http.post('/finance/contracts/repossess').set('x-access-token', operator).send({ customerid: first.customerid, reason: 'never paid' }).expect(200);
      // the repossessed phone, sold to someone else
      await registerCustomer(from, dealid, { imei });
      exported = (await from.http.get('/finance/exports/customers.csv').set('x-access-token', await from.token(Role.ADMIN)).expect(200)).text;
      before = await book(from);
    } finally {
      await from.close();
    }
    to = await startTestApp();
    await createDeal(to, { dealname: 'Phone' });
  });
  afterAll(async () => {
    try {
      await expectLedgerConsistent(to);
    } finally {
      await to.close();
    }
  });

  it('brings both deals in, the device commanded by the newer one', async () => {
    const admin = await to.token(Role.ADMIN);
    const checked = await upload(to, admin, exported, 'validate');
    expect(checked.body).toMatchObject({ rows: 2, valid: 2, errors: [] });
    const applied = await upload(to, admin, exported, 'apply');
    expect(applied.status).toBe(202);
    let record = applied.body;
    for (let i = 0; i < 300 && record.status !== 'DONE' && record.status !== 'FAILED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      record = (await to.http.get(`/finance/imports/${applied.body.importid}`).set('x-access-token', admin)).body;
    }
    expect(record).toMatchObject({ status: 'DONE', applied: 2, errorcount: 0 });
    expect(await book(to)).toEqual(before);
    const actions = await to.db.query('SELECT action FROM device_commands WHERE imei = $1 ORDER BY id', [imei]);
    expect(actions.map((a: { action: string }) => a.action)).toEqual(['PERMANENT_LOCK', 'SYNC']);
  });

  it('refuses, within one file, a second open deal on a device or a closed deal after another deal on it', async () => {
    const admin = await to.token(Role.ADMIN);
    const [{ dealid }] = await to.db.query('SELECT id AS dealid FROM deals ORDER BY id LIMIT 1');
    const device = uniqueImei();
    let n = 0;
    const row = (dealstatus: string) => {
      n++;
      const telephone = `+2567724${String(10_000 + n).padStart(5, '0')}`;
      return `REUSE-${n},Reuse ${n},${telephone},G,+256701987654,${device},REUSE-${n},${dealid},60000,60000,2025-12-01,${dealstatus}`;
    };
    const header = 'externalid,fullname,telephone,guarantorname,guarantorcontact,imei,payg,dealid,depositpaid,amountpaid,startdate,dealstatus';
    const file = (...rows: string[]) => `${[header, ...rows].join('\r\n')}\r\n`;

    const twoOpen = await upload(to, admin, file(row(''), row('')), 'validate');
    expect(twoOpen.body.errors).toEqual([{ row: 3, field: 'imei', message: `IMEI ${device} is also in row 2 of this file.` }]);
    const closedAfterOpen = await upload(to, admin, file(row(''), row('REPOSSESSED')), 'validate');
    expect(closedAfterOpen.body.errors).toEqual([{ row: 3, field: 'imei', message: `IMEI ${device} is also in row 2 of this file.` }]);
    const closedAfterClosed = await upload(to, admin, file(row('REPOSSESSED'), row('REPOSSESSED')), 'validate');
    expect(closedAfterClosed.body.errors).toEqual([{ row: 3, field: 'imei', message: `IMEI ${device} is on a deal in row 2 of this file: a repossessed or paid-off deal cannot be imported onto it.` }]);
    const openAfterClosed = await upload(to, admin, file(row('REPOSSESSED'), row('REPOSSESSED'), row('')), 'validate');
    expect(openAfterClosed.body.errors).toEqual([{ row: 3, field: 'imei', message: `IMEI ${device} is on a deal in row 2 of this file: a repossessed or paid-off deal cannot be imported onto it.` }]);
    const resold = await upload(to, admin, file(row('REPOSSESSED'), row('')), 'validate');
    expect(resold.body).toMatchObject({ rows: 2, valid: 2, errors: [] });
  });
});
