import bcrypt from 'bcryptjs';
import { DataSource } from 'typeorm';
import { addDays } from '../src/common/time/business-date.js';
import { accountNumberFor } from '../src/modules/accounts/domain/account-number.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { databaseAtRelease } from './support/old-release.js';
import { startTestApp, TestApp } from './support/test-app.js';
import { dropTestDatabase } from './support/test-app.js';

/**
 * Upgrades lose nothing (issue 14): a book written by release 2.0.0's schema, with the defects that
 * release let in, is opened by this one. Every customer, payment, notification and user is still
 * there, old passwords still sign in, and what the old release got wrong is repaired or reported.
 */
describe('Upgrading a book written by release 2.0.0', () => {
  let t: TestApp;
  let url: string;
  const oldPassword = 'old-admin-password';

  /** The old book, written with SQL as release 2.0.0 wrote it. */
  async function writeOldBook(db: DataSource) {
    const hash = bcrypt.hashSync(oldPassword, 4);
    await db.query(`INSERT INTO users (id, username, password_hash, role) VALUES (1, 'admin', $1, 'ADMIN'), (2, 'cashier', $1, 'OPERATOR')`, [hash]);
    await db.query(`INSERT INTO users (id, username, role) VALUES (10, '256772555001', 'CUSTOMER'), (11, '256772555002', 'CUSTOMER'), (12, '256772555003', 'CUSTOMER')`);
    await db.query(`SELECT setval('users_id_seq', 20)`);
    await db.query(`INSERT INTO deals (id, dealname, totalamount, deposit, monthly, months) VALUES (1, 'Phone', 600000, 60000, 45000, 12)`);
    for (const id of [1, 2, 3]) await db.query(`INSERT INTO accounts (id, accountnumber) VALUES ($1, $2)`, [id, accountNumberFor(id)]);
    await db.query(`
      INSERT INTO customers (id, user_id, account_id, fullname, telephone, guarantorname, guarantorcontact, imei, payg) VALUES
        (1, 10, 1, 'Amina', '256772555001', 'G', '256701987654', '356938035643809', 'PAYG-A'),
        (2, 11, 2, 'Brian', '256772555002', 'G', '256701987654', '490154203237518', 'PAYG-B'),
        (3, 12, 3, 'Cissy', '256772555003', 'G', '256701987654', '353918057829633', 'PAYG-C')`);
    // A: deposit + one cash receipt "MP-COLLIDE-1"; B: deposit only, and a callback MP-COLLIDE-1 for B that the
    // old single namespace swallowed (stored APPLIED, never credited); C: overpaid, its date pushed past the term
    await db.query(`
      INSERT INTO customer_deals (id, customer_id, deal_id, dealname, status, totalamount, monthly, depositpaid, amountpaid, balance, overpaid, bonusdays, startdate, nextpaymentdate) VALUES
        (1, 1, 1, 'Phone', 'LOCKED', 600000, 45000, 60000, 63000, 537000, 0, 0, '2026-03-01', '2026-03-03'),
        (2, 2, 1, 'Phone', 'LOCKED', 600000, 45000, 60000, 60000, 540000, 0, 0, '2026-03-01', '2026-03-01'),
        (3, 3, 1, 'Phone', 'PAID_OFF', 600000, 45000, 60000, 1000000, 0, 400000, 0, '2026-03-01', '${addDays('2026-03-01', 626)}')`);
    await db.query(`
      INSERT INTO payments (customer_id, customer_deal_id, amount, reference, narration, type, created_by) VALUES
        (1, 1, 60000, 'DEPOSIT-1', 'Deposit at registration', 'DEPOSIT', 2),
        (1, 1, 3000, 'MP-COLLIDE-1', 'cash', 'MANUAL', 2),
        (2, 2, 60000, 'DEPOSIT-2', 'Deposit at registration', 'DEPOSIT', 2),
        (3, 3, 60000, 'DEPOSIT-3', 'Deposit at registration', 'DEPOSIT', 2),
        (3, 3, 940000, 'MP-C-1', 'Mobile money', 'MOBILE_MONEY', NULL)`);
    await db.query(`
      INSERT INTO mobile_money_transactions (id, amount, tag, status, customer_id, source, applied_at) VALUES
        ('MP-COLLIDE-1', 45000, 'PAYG-B', 'APPLIED', 2, 'CALLBACK', now()),
        ('MP-C-1', 940000, 'PAYG-C', 'APPLIED', 3, 'CALLBACK', now()),
        ('MP-WAIT-1', 500, 'NOBODY', 'UNMATCHED', NULL, 'CALLBACK', NULL)`);
    await db.query(`
      INSERT INTO device_commands (customer_id, imei, payg, action, nextpaymentdate, unlockuntil, reason, created_at) VALUES
        (1, '356938035643809', 'PAYG-A', 'TEMP_UNLOCK', '2026-03-03', now() + interval '5 hours', 'temporary unlock for investigation', now() - interval '1 hour')`);
    for (const table of ['customers', 'customer_deals', 'accounts', 'deals']) await db.query(`SELECT setval('${table}_id_seq', 10)`);
  }

  beforeAll(async () => {
    const old = await databaseAtRelease();
    url = old.url;
    await writeOldBook(old.db);
    await old.db.destroy();
    t = await startTestApp({ databaseUrl: url, now: new Date('2026-03-10T08:00:00Z') });
  });
  afterAll(async () => {
    await t?.close();
    await dropTestDatabase(url);
  });

  const count = async (table: string) => (await t.db.query(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number;

  it('keeps every customer, payment, notification and user', async () => {
    expect(await count('customers')).toBe(3);
    expect(await count('payments')).toBe(5);
    expect(await count('mobile_money_transactions')).toBe(3);
    expect(await count('users')).toBe(5);
  });

  it('lets the old administrator sign in with the old password', async () => {
    const res = await t.http.post('/api/auth/signin').send({ username: 'admin', password: oldPassword });
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toEqual(expect.any(String));
  });

  it('puts the notification the old namespace swallowed back in the operators’ queue, and it can be assigned', async () => {
    const [row] = await t.db.query(`SELECT status, customer_id, reason FROM mobile_money_transactions WHERE id = 'MP-COLLIDE-1'`);
    expect(row).toMatchObject({ status: 'HELD', customer_id: null, reason: expect.stringContaining('customer 2') });
    const admin = (await t.http.post('/api/auth/signin').send({ username: 'admin', password: oldPassword }).expect(200)).body.accessToken as string;
    const queue = await t.http.get('/finance/amlogs/unmatched').set('x-access-token', admin).expect(200);
    expect(queue.body.items.map((i: { transactionid: string }) => i.transactionid).sort()).toEqual(['MP-COLLIDE-1', 'MP-WAIT-1']);
    const res = await t.http.post('/finance/amlogs/assign').set('x-access-token', admin).send({ transactionid: 'MP-COLLIDE-1', customerid: 2 }).expect(200);
    expect(res.body.deal).toMatchObject({ amountpaid: 105000, status: 'UNLOCKED' });
    // the cash receipt of customer A with the same text is still A's
    expect(await t.db.query(`SELECT customer_id, type FROM payments WHERE reference = 'MP-COLLIDE-1' ORDER BY id`)).toEqual([
      { customer_id: 1, type: 'MANUAL' },
      { customer_id: 2, type: 'MOBILE_MONEY' },
    ]);
  });

  it('stores the old identifiers normalised (telephones and customer usernames in E.164) and reports what it cannot', async () => {
    expect(await t.db.query(`SELECT telephone FROM customers ORDER BY id`)).toEqual([{ telephone: '+256772555001' }, { telephone: '+256772555002' }, { telephone: '+256772555003' }]);
    expect(await t.db.query(`SELECT username FROM users WHERE role = 'CUSTOMER' ORDER BY id`)).toEqual([{ username: '+256772555001' }, { username: '+256772555002' }, { username: '+256772555003' }]);
    // an IMEI the old release let in with a wrong check digit is kept as it was and reported, not dropped
    expect(await t.db.query(`SELECT table_name, row_id, field, value FROM identifier_conflicts`)).toEqual([
      { table_name: 'customers', row_id: 3, field: 'imei', value: '353918057829633' },
    ]);
    expect((await t.db.query(`SELECT imei FROM customers WHERE id = 3`))[0].imei).toBe('353918057829633');
  });

  it('brings an overpaid deal’s date back to the end of its term', async () => {
    const [deal] = await t.db.query(`SELECT nextpaymentdate, overpaid FROM customer_deals WHERE id = 3`);
    expect(deal).toEqual({ nextpaymentdate: addDays('2026-03-01', 360), overpaid: '400000.00' });
  });

  it('counts the hours of an old temporary unlock against the 30-day allowance', async () => {
    const [command] = await t.db.query(`SELECT unlock_hours FROM device_commands WHERE action = 'TEMP_UNLOCK'`);
    expect(command.unlock_hours).toBe(6);
  });

  it('keeps the running temporary unlock’s end on its contract, and no other contract has one', async () => {
    const deals = (await t.db.query(`
      SELECT cd.customer_id, cd.unlockuntil = c.unlockuntil AS same FROM customer_deals cd
      LEFT JOIN device_commands c ON c.customer_id = cd.customer_id AND c.action = 'TEMP_UNLOCK'
      WHERE cd.unlockuntil IS NOT NULL`)) as Array<{ customer_id: number; same: boolean }>;
    expect(deals).toEqual([{ customer_id: 1, same: true }]);
  });

  it('leaves every deal equal to what its ledger implies', async () => {
    await expectLedgerConsistent(t);
  });
});
