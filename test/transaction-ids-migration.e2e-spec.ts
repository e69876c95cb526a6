import pg from 'pg';
import { databaseBefore } from './support/migration-under-test.js';

describe('Migration 1766275200000: mobile-money transaction ids stored with spaces around them', () => {
  let old: Awaited<ReturnType<typeof databaseBefore>>;
  let client: pg.Client;

  beforeAll(async () => {
    old = await databaseBefore(1766275200000, 'txids');
    client = new pg.Client({ connectionString: old.url });
    await client.connect();
    // as look-ups of the previous release stored them: the provider's ids as listed
    for (const id of [' MP-A ', 'MP-B\u00a0', '\tMP-C', 'MP-C', ' MP-D', 'MP-D ', 'MP-E']) {
      await client.query(`INSERT INTO mobile_money_transactions (id, amount, tag, status, source) VALUES ($1, 100, 'NOBODY', 'UNMATCHED', 'LOOKUP')`, [id]);
    }
    await old.migrateRest();
  });

  afterAll(async () => {
    await client?.end();
    await old?.drop();
  });

  it('trims each id as every path now does, unless the trimmed id is stored already', async () => {
    const { rows } = await client.query(`SELECT id FROM mobile_money_transactions ORDER BY id`);
    // MP-C was stored trimmed too: the two were two notifications and stay two; of " MP-D" and "MP-D " one takes the trimmed id
    expect(rows.map((r) => r.id).sort()).toEqual(['\tMP-C', 'MP-A', 'MP-B', 'MP-C', 'MP-D', 'MP-D ', 'MP-E'].sort());
  });
});
