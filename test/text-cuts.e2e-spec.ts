import { Role } from '../src/common/auth/role.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * DESIGN part 10: every string derived from input fits its column. Where the service cuts one to
 * fit (a device command's reason, an import's file name, the audit log's record id), it cuts between
 * characters: cutting between the two halves of an emoji left a lone surrogate, which the database
 * driver writes as U+FFFD, so the stored text said something the input never did.
 */
describe('A text cut to fit its column is cut between characters', () => {
  let t: TestApp;
  let admin: string;
  let dealid: number;
  const REPLACEMENT = '\uFFFD';

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token(Role.ADMIN);
    ({ dealid } = await createDeal(t));
  });
  afterAll(() => t.close());

  it('keeps a repossession reason whole up to the emoji that does not fit in the PERMANENT_LOCK command', async () => {
    const { customerid } = await registerCustomer(t, dealid);
    // "repossessed: " (13) + 241 letters: the emoji's two halves would be units 254 and 255
    const reason = `${'x'.repeat(241)}😀`;
    await t.http.post('/finance/contracts/repossess').set('x-access-token', admin).send({ customerid, reason }).expect(200);
    const [command] = await t.db.query(`SELECT reason FROM device_commands WHERE customer_id = $1 AND action = 'PERMANENT_LOCK'`, [customerid]);
    expect(command.reason).not.toContain(REPLACEMENT);
    expect(`repossessed: ${reason}`.startsWith(command.reason)).toBe(true);
  });

  it('keeps an import’s long file name free of half characters', async () => {
    const filename = `${'a'.repeat(254)}😀.csv`;
    const res = await t.http
      .post('/finance/imports')
      .set('x-access-token', admin)
      .field('kind', 'payments')
      .field('mode', 'validate')
      .attach('file', Buffer.from('externalid,customerid,amount,reference,date\r\n'), { filename, contentType: 'text/csv' });
    expect(res.status).toBe(200);
    expect(res.body.filename).not.toContain(REPLACEMENT);
    expect(filename.startsWith(res.body.filename)).toBe(true);
  });

  it('keeps the audit log’s record id of a long transaction id free of half characters', async () => {
    const id = `T${'😀'.repeat(150)}`;
    await t.http.post('/finance/amlogs/callback').set('x-access-token', admin).send({ transaction: { id, amount: 10, tag: 'NOBODY-1' } }).expect(200);
    let row: { record_id: string } | undefined;
    for (let i = 0; i < 50 && !row; i++) {
      [row] = await t.db.query(`SELECT record_id FROM audit_log WHERE route = '/finance/amlogs/callback' AND record_id LIKE 'T%'`);
      if (!row) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(row).toBeDefined();
    expect(row!.record_id).not.toContain(REPLACEMENT);
    expect(id.startsWith(row!.record_id)).toBe(true);
  });
});
