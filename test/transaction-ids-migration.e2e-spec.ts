import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { runMigrations } from '../src/database/migrate.js';
import { MIGRATIONS } from '../src/database/schema.js';
import { adminQuery, assertTestDatabase, withDatabase } from './support/test-database.js';

const MINE = 1766275200000;
const stampOf = (migration: { name: string }) => Number(/(\d{13})$/.exec(migration.name)![1]);

describe('Migration 1766275200000: mobile-money transaction ids stored with spaces around them', () => {
  let url: string;
  let client: pg.Client;

  beforeAll(async () => {
    const serverUrl = process.env.PAYG_TEST_SERVER_URL!;
    url = withDatabase(serverUrl, `payg_test_txids_${randomBytes(5).toString('hex')}`);
    assertTestDatabase(url);
    await adminQuery(serverUrl, `CREATE DATABASE ${new URL(url).pathname.slice(1)}`);
    const old = await new DataSource({ ...dataSourceOptions(url, 2), migrations: MIGRATIONS.filter((m) => stampOf(m) < MINE) }).initialize();
    try {
      await runMigrations(old);
    } finally {
      await old.destroy();
    }
    client = new pg.Client({ connectionString: url });
    await client.connect();
    // as look-ups of the previous release stored them: the provider's ids as listed
    for (const id of [' MP-A ', 'MP-B\u00a0', '\tMP-C', 'MP-C', ' MP-D', 'MP-D ', 'MP-E']) {
      await client.query(`INSERT INTO mobile_money_transactions (id, amount, tag, status, source) VALUES ($1, 100, 'NOBODY', 'UNMATCHED', 'LOOKUP')`, [id]);
    }
    const all = await new DataSource(dataSourceOptions(url, 2)).initialize();
    try {
      await runMigrations(all);
    } finally {
      await all.destroy();
    }
  });

  afterAll(async () => {
    await client?.end();
    if (url) await adminQuery(url, `DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
  });

  it('trims each id as every path now does, unless the trimmed id is stored already', async () => {
    const { rows } = await client.query(`SELECT id FROM mobile_money_transactions ORDER BY id`);
    // MP-C was stored trimmed too: the two were two notifications and stay two; of " MP-D" and "MP-D " one takes the trimmed id
    expect(rows.map((r) => r.id).sort()).toEqual(['\tMP-C', 'MP-A', 'MP-B', 'MP-C', 'MP-D', 'MP-D ', 'MP-E'].sort());
  });
});
