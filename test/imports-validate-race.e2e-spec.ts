import { Role } from '../src/common/auth/role.js';
import { createDeal, uniqueImei, uniqueTelephone } from './support/fixtures.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * A validate reads the book in one REPEATABLE READ snapshot and reads each deal FOR SHARE, as a
 * registration does. A deal deactivated after that snapshot was taken but before its row was read
 * made PostgreSQL refuse the read (could not serialize access due to concurrent update), and the
 * validate answered 500. It is the database asking to try again: the validate does, and answers the
 * row's error from the book as it now stands.
 */
describe('A validate that meets a deal being deactivated', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 200 with the deal deactivated, not 500', async () => {
    const admin = await t.token(Role.ADMIN);
    const { dealid } = await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 });
    const file = `externalid,fullname,telephone,guarantorname,guarantorcontact,imei,payg,dealid,depositpaid,amountpaid,startdate\r\nRACE-1,Race One,${uniqueTelephone()},G,+256701987654,${uniqueImei()},RACE-1,${dealid},60000,60000,2025-12-01\r\n`;

    // a deactivation under way: the deal's row is locked by it, not yet changed
    const deactivation = t.db.createQueryRunner();
    await deactivation.connect();
    await deactivation.startTransaction();
    await deactivation.query('SELECT id FROM deals WHERE id = $1 FOR UPDATE', [dealid]);
    try {
      const validate = t.http.post('/finance/imports').set('x-access-token', admin).field('kind', 'customers').field('mode', 'validate').attach('file', Buffer.from(file), { filename: 'race.csv', contentType: 'text/csv' }).then((r) => r);
      // the validate has taken its snapshot and waits for the deal's row
      for (let i = 0; ; i++) {
        const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND pid <> pg_backend_pid()`);
        if (n > 0) break;
        if (i > 200) throw new Error('the validate never waited for the deal');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await deactivation.query('UPDATE deals SET active = false WHERE id = $1', [dealid]);
      await deactivation.commitTransaction();
      const res = await validate;
      expect({ status: res.status, errors: res.body.errors }).toEqual({ status: 200, errors: [{ row: 2, field: 'dealid', message: `Deal ${dealid} is deactivated.` }] });
    } finally {
      if (deactivation.isTransactionActive) await deactivation.rollbackTransaction();
      await deactivation.release();
    }
  });
});
