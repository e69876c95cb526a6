import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { runMigrations } from '../src/database/migrate.js';
import { MIGRATIONS } from '../src/database/schema.js';
import { CollectionCallsRepossessed1765152000000 } from '../src/database/migrations/1765152000000-CollectionCallsRepossessed.js';
import { RELEASE_2_0_0_LAST_MIGRATION } from './support/old-release.js';
import { adminQuery, assertTestDatabase, withDatabase } from './support/test-database.js';

/**
 * A database written by the previous release: calls left open on a repossessed and on a paid-off
 * deal (that release never closed them). The new migration closes them and loses nothing else.
 */
describe('Upgrade: calls an older release left open', () => {
  let url: string;
  const open = async (migrations: unknown[]) => new DataSource({ ...dataSourceOptions(url, 2), migrations: migrations as never }).initialize();

  beforeAll(async () => {
    const serverUrl = process.env.PAYG_TEST_SERVER_URL!;
    url = withDatabase(serverUrl, `payg_test_upgrade_${randomBytes(4).toString('hex')}`);
    assertTestDatabase(url);
    await adminQuery(serverUrl, `CREATE DATABASE ${new URL(url).pathname.slice(1)}`);
  });
  afterAll(async () => {
    await adminQuery(url, `DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  });

  it('closes open calls of repossessed (REPOSSESSED, at the repossession) and paid-off deals (PAYMENT), and keeps the rest', async () => {
    // the book as release 2.0.0 wrote it; every migration since then runs over it
    const old = await open(MIGRATIONS.slice(0, MIGRATIONS.findIndex((m) => m.name === RELEASE_2_0_0_LAST_MIGRATION) + 1));
    try {
      await runMigrations(old);
      await old.query(`INSERT INTO users (id, username, role) VALUES (101, 'collector-old', 'COLLECTOR'),
                         (201, '+256772555001', 'CUSTOMER'), (202, '+256772555002', 'CUSTOMER'), (203, '+256772555003', 'CUSTOMER')`);
      await old.query(`INSERT INTO deals (id, dealname, totalamount, deposit, monthly, months) VALUES (1, 'Phone', 600000, 60000, 45000, 12)`);
      await old.query(`INSERT INTO accounts (id, accountnumber) VALUES (1, 'ACC-1'), (2, 'ACC-2'), (3, 'ACC-3')`);
      await old.query(`INSERT INTO customers (id, user_id, account_id, fullname, telephone, guarantorname, guarantorcontact, imei, payg, status) VALUES
                         (1, 201, 1, 'Repossessed One', '+256772555001', 'G', '+256701987654', '356938035643809', 'PAYG-OLD-1', 'REPOSSESSED'),
                         (2, 202, 2, 'Paid Off Two', '+256772555002', 'G', '+256701987654', '353918057592855', 'PAYG-OLD-2', 'APPROVED'),
                         (3, 203, 3, 'Locked Three', '+256772555003', 'G', '+256701987654', '353322110000016', 'PAYG-OLD-3', 'APPROVED')`);
      await old.query(`INSERT INTO customer_deals (id, customer_id, deal_id, dealname, status, totalamount, monthly, depositpaid, amountpaid, balance, startdate, nextpaymentdate, repossessed_at, repossession_reason) VALUES
                         (1, 1, 1, 'Phone', 'REPOSSESSED', 600000, 45000, 60000, 60000, 540000, '2026-01-01', '2026-01-01', '2026-03-01T10:00:00Z', 'gone'),
                         (2, 2, 1, 'Phone', 'PAID_OFF', 600000, 45000, 60000, 600000, 0, '2026-01-01', '2026-12-27', NULL, NULL),
                         (3, 3, 1, 'Phone', 'LOCKED', 600000, 45000, 60000, 60000, 540000, '2026-01-01', '2026-01-01', NULL, NULL)`);
      await old.query(`INSERT INTO collection_calls (id, customer_id, customer_deal_id, status, amountinarrears, daysoverdue, nextpaymentdate, assigned_to, notes, resolution, resolved_at) VALUES
                         (1, 1, 1, 'CALLED', 90000, 59, '2026-01-01', 101, 'No answer', NULL, NULL),
                         (2, 2, 2, 'PENDING', 45000, 3, '2026-01-01', NULL, NULL, NULL, NULL),
                         (3, 3, 3, 'PENDING', 90000, 59, '2026-01-01', NULL, NULL, NULL, NULL),
                         (4, 3, 3, 'RESOLVED', 45000, 10, '2026-01-01', 101, 'Promised', 'COLLECTOR', '2026-01-20T08:00:00Z')`);
    } finally {
      await old.destroy();
    }

    const now = await open(MIGRATIONS);
    try {
      await runMigrations(now);
      const calls = await now.query(`SELECT id, status, resolution, notes, assigned_to, amountinarrears, resolved_at FROM collection_calls ORDER BY id`);
      expect(calls).toEqual([
        { id: 1, status: 'RESOLVED', resolution: 'REPOSSESSED', notes: 'No answer', assigned_to: 101, amountinarrears: '90000.00', resolved_at: new Date('2026-03-01T10:00:00Z') },
        { id: 2, status: 'RESOLVED', resolution: 'PAYMENT', notes: null, assigned_to: null, amountinarrears: '45000.00', resolved_at: expect.any(Date) },
        { id: 3, status: 'PENDING', resolution: null, notes: null, assigned_to: null, amountinarrears: '90000.00', resolved_at: null },
        { id: 4, status: 'RESOLVED', resolution: 'COLLECTOR', notes: 'Promised', assigned_to: 101, amountinarrears: '45000.00', resolved_at: new Date('2026-01-20T08:00:00Z') },
      ]);
      const [{ n }] = await now.query(`SELECT (SELECT count(*) FROM customers) + (SELECT count(*) FROM customer_deals) AS n`);
      expect(Number(n)).toBe(6);

      // down: the previous release knows no REPOSSESSED resolution; the call stays resolved.
      const runner = now.createQueryRunner();
      try {
        await new CollectionCallsRepossessed1765152000000().down(runner);
        expect(await now.query(`SELECT id, status, resolution FROM collection_calls WHERE id = 1`)).toEqual([{ id: 1, status: 'RESOLVED', resolution: 'COLLECTOR' }]);
        await expect(now.query(`UPDATE collection_calls SET resolution = 'REPOSSESSED' WHERE id = 1`)).rejects.toThrow(/collection_calls_resolution_check/);
        await new CollectionCallsRepossessed1765152000000().up(runner);
      } finally {
        await runner.release();
      }
    } finally {
      await now.destroy();
    }
  });
});
