import pg from 'pg';
import { DataSource } from 'typeorm';
import { Role } from '../src/common/auth/role.js';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { NormalisedIdentifiers1764979200000 } from '../src/database/migrations/1764979200000-NormalisedIdentifiers.js';
import { createDeal, registrationBody } from './support/fixtures.js';
import { startTestApp } from './support/test-app.js';
import { databaseBefore } from './support/migration-under-test.js';

const MINE = 1764979200000;

interface OldCustomer {
  telephone: string;
  guarantorcontact: string;
  imei: string;
  payg: string;
  status: 'LOCKED' | 'UNLOCKED' | 'PAID_OFF' | 'REPOSSESSED';
}

/** A customer as the previous release wrote it: User named after the telephone, account, customer, deal and deposit. */
async function oldCustomer(c: pg.Client, dealId: number, n: number, o: OldCustomer): Promise<number> {
  const { rows: [user] } = await c.query(`INSERT INTO users (username, role) VALUES ($1, 'CUSTOMER') RETURNING id`, [o.telephone]);
  const { rows: [account] } = await c.query(`INSERT INTO accounts (accountnumber) VALUES ($1) RETURNING id`, [`AC${String(n).padStart(9, '0')}`]);
  const { rows: [customer] } = await c.query(
    `INSERT INTO customers (user_id, account_id, fullname, telephone, guarantorname, guarantorcontact, imei, payg, status)
     VALUES ($1, $2, $3, $4, 'G', $5, $6, $7, $8) RETURNING id`,
    [user.id, account.id, `Old customer ${n}`, o.telephone, o.guarantorcontact, o.imei, o.payg, o.status === 'REPOSSESSED' ? 'REPOSSESSED' : 'PENDING'],
  );
  const paid = o.status === 'PAID_OFF' ? 600000 : 60000;
  const { rows: [deal] } = await c.query(
    `INSERT INTO customer_deals (customer_id, deal_id, dealname, status, totalamount, monthly, depositpaid, amountpaid, balance, overpaid, bonusdays, startdate, nextpaymentdate)
     VALUES ($1, $2, 'Old phone', $3, 600000, 45000, 60000, $4, $5, 0, 0, '2026-01-01', '2026-01-01') RETURNING id`,
    [customer.id, dealId, o.status, paid, 600000 - paid],
  );
  await c.query(`INSERT INTO payments (customer_id, customer_deal_id, amount, reference, type) VALUES ($1, $2, $3, $4, 'DEPOSIT')`, [customer.id, deal.id, paid, `DEPOSIT-${customer.id}`]);
  return customer.id;
}

describe('Migration 1764979200000: identifiers of a book written by the previous release', () => {
  let url: string;
  let old: Awaited<ReturnType<typeof databaseBefore>> | undefined;
  let client: pg.Client;
  const ids: Record<string, number> = {};
  const warnings: string[] = [];

  beforeAll(async () => {
    old = await databaseBefore(MINE, 'old');
    url = old.url;
    client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows: [deal] } = await client.query(`INSERT INTO deals (dealname, totalamount, deposit, monthly, months) VALUES ('Old phone', 600000, 60000, 45000, 12) RETURNING id`);
    const book: Array<[string, OldCustomer]> = [
      ['a', { telephone: '+256772555001', guarantorcontact: '256701987654', imei: '490154203237518', payg: 'PAYG-0001', status: 'LOCKED' }],
      ['b', { telephone: '256772555001', guarantorcontact: 'Mother', imei: '49-015420-323751-8', payg: 'payg-0001', status: 'UNLOCKED' }],
      ['c', { telephone: '0772555002', guarantorcontact: '0701 987 654', imei: '35-209900-176148-1', payg: ' PAYG-0003 ', status: 'PAID_OFF' }],
      ['d', { telephone: '0772555003', guarantorcontact: '+256701987654', imei: '352099001761481', payg: 'PAYG-0004', status: 'LOCKED' }],
      ['e', { telephone: 'garbage1', guarantorcontact: '0701987654', imei: 'ABC-123456', payg: 'Payg-0001', status: 'REPOSSESSED' }],
      ['f', { telephone: '0772555004', guarantorcontact: '0701987654', imei: '35 209900 176148 1', payg: 'PAYG-0006', status: 'REPOSSESSED' }],
      ['g', { telephone: '0772555005', guarantorcontact: '0701987654', imei: '490154203237519', payg: 'PAYG-0007', status: 'LOCKED' }],
    ];
    let n = 0;
    for (const [key, row] of book) ids[key] = await oldCustomer(client, deal.id, ++n, row);
    // A staff user already named like one customer's number in E.164.
    await client.query(`INSERT INTO users (username, password_hash, role) VALUES ('+256772555005', 'x', 'OPERATOR')`);

    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      if (String(chunk).includes('NormalisedIdentifiers')) warnings.push(String(chunk));
      return (write as (...args: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
    }) as typeof process.stderr.write;
    try {
      await old.migrateRest();
    } finally {
      process.stderr.write = write;
    }
  });

  afterAll(async () => {
    await client?.end();
    await old?.drop();
  });

  const customer = async (key: string) =>
    (
      await client.query(
        `SELECT c.telephone, c.guarantorcontact, c.imei, c.payg, c.payg_legacy_duplicate, u.username, cd.imei AS dealimei
         FROM customers c JOIN users u ON u.id = c.user_id JOIN customer_deals cd ON cd.customer_id = c.id WHERE c.id = $1`,
        [ids[key]],
      )
    ).rows[0];

  it('normalises what can be normalised without a collision, the customer’s User too', async () => {
    expect(await customer('a')).toEqual({ telephone: '+256772555001', guarantorcontact: '+256701987654', imei: '490154203237518', payg: 'PAYG-0001', payg_legacy_duplicate: 0, username: '+256772555001', dealimei: '490154203237518' });
    expect(await customer('c')).toEqual({ telephone: '+256772555002', guarantorcontact: '+256701987654', imei: '352099001761481', payg: 'PAYG-0003', payg_legacy_duplicate: 0, username: '+256772555002', dealimei: '352099001761481' });
    // the same device as c, whose deal is paid off, and as f, whose deal was repossessed: all three keep it
    expect(await customer('d')).toMatchObject({ telephone: '+256772555003', imei: '352099001761481', username: '+256772555003', dealimei: '352099001761481' });
    expect(await customer('f')).toMatchObject({ telephone: '+256772555004', imei: '352099001761481', username: '+256772555004' });
  });

  it('leaves colliding and unreadable values as they were and lists them in identifier_conflicts', async () => {
    expect(await customer('b')).toEqual({ telephone: '256772555001', guarantorcontact: 'Mother', imei: '49-015420-323751-8', payg: 'payg-0001', payg_legacy_duplicate: 1, username: '256772555001', dealimei: '49-015420-323751-8' });
    expect(await customer('e')).toMatchObject({ telephone: 'garbage1', imei: 'ABC-123456', payg: 'Payg-0001', payg_legacy_duplicate: 2, username: 'garbage1' });
    expect(await customer('g')).toMatchObject({ telephone: '0772555005', username: '0772555005' });
    const { rows } = await client.query(`SELECT table_name, row_id, field, value, reason, migration FROM identifier_conflicts ORDER BY row_id, field`);
    expect(rows.map((r) => [r.row_id, r.field, r.value])).toEqual([
      [ids.b, 'guarantorcontact', 'Mother'],
      [ids.b, 'imei', '49-015420-323751-8'],
      [ids.b, 'payg', 'payg-0001'],
      [ids.b, 'telephone', '256772555001'],
      [ids.e, 'imei', 'ABC-123456'],
      [ids.e, 'payg', 'Payg-0001'],
      [ids.e, 'telephone', 'garbage1'],
      [ids.g, 'imei', '490154203237519'],
      [ids.g, 'telephone', '0772555005'],
    ]);
    expect(rows.every((r) => r.table_name === 'customers' && r.migration === 'NormalisedIdentifiers1764979200000')).toBe(true);
    const reasons = Object.fromEntries(rows.map((r) => [`${r.row_id} ${r.field}`, r.reason]));
    expect(reasons[`${ids.b} telephone`]).toBe(`+256772555001 is the telephone of customer ${ids.a}`);
    expect(reasons[`${ids.b} imei`]).toBe(`490154203237518 is the IMEI of customer ${ids.a}, whose deal is still being paid`);
    expect(reasons[`${ids.b} payg`]).toBe(`the same code as customer ${ids.a}'s in another letter case`);
    expect(reasons[`${ids.g} telephone`]).toMatch(/^\+256772555005 is the username of user \d+$/);
    expect(reasons[`${ids.g} imei`]).toBe('not 15 digits with a valid check digit');
    expect(reasons[`${ids.e} telephone`]).toBe('not a valid telephone number in UG or with a country code');
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0])).toMatchObject({ level: 'warn', migration: 'NormalisedIdentifiers1764979200000' });
    expect(warnings[0]).toContain('9 identifiers left as they were');
    expect(warnings[0]).not.toContain('256772555001');
  });

  it('loses nothing: every customer, user, deal and payment is still there', async () => {
    const { rows: [n] } = await client.query(`SELECT (SELECT count(*) FROM customers)::int AS customers, (SELECT count(*) FROM customer_deals)::int AS deals,
      (SELECT count(*) FROM payments)::int AS payments, (SELECT count(*) FROM users)::int AS users`);
    expect(n).toEqual({ customers: 7, deals: 7, payments: 7, users: 8 });
  });

  it('serves the migrated book: normalised identifiers are taken, in any form', async () => {
    // The service makes its first administrator only on a book without staff: the staff user above goes first.
    await client.query(`DELETE FROM users WHERE username = '+256772555005'`);
    const t = await startTestApp({ databaseUrl: url });
    try {
      const dealid = (await createDeal(t)).dealid;
      const operator = await t.token(Role.OPERATOR);
      const post = (over: Record<string, unknown>) => t.http.post('/finance/customers/register').set('x-access-token', operator).send(registrationBody(dealid, over));
      expect((await post({ telephone: '0772555001' }).expect(409)).body).toEqual({ message: 'Telephone +256772555001 is already registered.' });
      expect((await post({ telephone: '0772 555 002' }).expect(409)).body).toEqual({ message: 'Telephone +256772555002 is already registered.' });
      expect((await post({ imei: '35-209900-176148-1' }).expect(409)).body).toEqual({ message: 'IMEI 352099001761481 is already registered to another customer.' });
      expect((await post({ payg: 'payg-0004' }).expect(409)).body).toEqual({ message: 'PAYG code payg-0004 is already assigned to another customer.' });
      expect((await post({ payg: 'PAYG-0001' }).expect(409)).body).toEqual({ message: 'PAYG code PAYG-0001 is already assigned to another customer.' });
      await post({ imei: '490154203237519' }).expect(400);
    } finally {
      await t.close();
    }
  });

  it('reverts, refusing to when an IMEI moved to a new deal (the previous release allows one customer per IMEI)', async () => {
    const migration = new NormalisedIdentifiers1764979200000();
    const source = await new DataSource(dataSourceOptions(url, 1)).initialize();
    const runner = source.createQueryRunner();
    try {
      await expect(migration.down(runner)).rejects.toThrow(/^Cannot revert NormalisedIdentifiers1764979200000: .*352099001761481 \(customers \d+, \d+, \d+\)/);
      await runner.startTransaction();
      await runner.query(`UPDATE customers SET imei = imei || id WHERE imei = '352099001761481' AND id <> $1`, [ids.d]);
      await migration.down(runner);
      const indexes = ((await runner.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'customers'`)) as Array<{ indexname: string }>).map((r) => r.indexname);
      expect(indexes).toEqual(expect.arrayContaining(['customers_imei_key', 'customers_payg_key']));
      expect(indexes).not.toContain('customers_payg_lower_key');
      await migration.up(runner);
      await runner.rollbackTransaction();
    } finally {
      await runner.release();
      await source.destroy();
    }
  });
});
