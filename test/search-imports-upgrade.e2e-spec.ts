import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { runMigrations } from '../src/database/migrate.js';
import { MIGRATIONS } from '../src/database/schema.js';
import { ImportsRepository } from '../src/modules/imports/infrastructure/imports.repository.js';
import { databaseAtRelease } from './support/old-release.js';
import { adminQuery } from './support/test-database.js';

/**
 * A database written by the release before NameSearchWithoutPendingList and ImportFilesUncompressed:
 * names still waiting in the trigram index's pending list, and a file stored compressed for an
 * import not yet applied. After the upgrade both are found and read whole.
 */
describe('Upgrade: the name index and stored import files of the previous release', () => {
  it('finds every name through the index and reads a file stored compressed, slice by slice, byte for byte', async () => {
    const { url, db: old } = await databaseAtRelease('TelephoneSuffixSearch1765756800000');
    const content = Buffer.from(Array.from({ length: 40_000 }, (_, i) => `E${i},Nakato Aisha ${i},+2567000${String(i).padStart(5, '0')}\r\n`).join(''));
    try {
      await old.query(`INSERT INTO users (id, username, role) SELECT 300 + g, 'old-' || g, 'CUSTOMER' FROM generate_series(1, 50) g`);
      await old.query(`INSERT INTO accounts (id, accountnumber) SELECT 300 + g, 'OLD-' || g FROM generate_series(1, 50) g`);
      await old.query(`INSERT INTO customers (user_id, account_id, fullname, telephone, guarantorname, guarantorcontact, imei, payg)
                       SELECT 300 + g, 300 + g, 'Zawadi Upgrade ' || g, '+25677255' || lpad(g::text, 4, '0'), 'G', '+256701987654', 'IMEI-OLD-' || g, 'PAYG-OLD-' || g FROM generate_series(1, 50) g`);
      const [{ id }] = await old.query(`INSERT INTO imports (kind, mode, source, status, filehash) VALUES ('customers', 'apply', 'old', 'VALIDATING', repeat('o', 64)) RETURNING id`);
      await old.query('INSERT INTO import_jobs (import_id, content) VALUES ($1, $2)', [id, content]);
      const [stored] = await old.query(`SELECT octet_length(content) AS length, pg_column_size(content) AS size FROM import_jobs`);
      expect(stored.size).toBeLessThan(stored.length); // compressed, as that release stored it
    } finally {
      await old.destroy();
    }

    const now = await new DataSource({ ...dataSourceOptions(url, 2), migrations: MIGRATIONS }).initialize();
    try {
      await runMigrations(now);
      // the migration merged what waited in the pending list: nothing is left to clean
      expect(await now.query(`SELECT gin_clean_pending_list('customers_fullname_trgm_idx'::regclass) AS pages`)).toEqual([{ pages: '0' }]);
      const found = await now.transaction(async (em) => {
        await em.query('SET LOCAL enable_seqscan = off');
        return em.query(`SELECT count(*)::int AS n FROM customers WHERE fullname ILIKE '%zawadi upgrade%'`);
      });
      expect(found).toEqual([{ n: 50 }]);
      // and the index keeps its small pending list from then on (migration NameIndexSmallPendingList)
      expect(await now.query(`SELECT reloptions FROM pg_class WHERE relname = 'customers_fullname_trgm_idx'`)).toEqual([{ reloptions: ['fastupdate=on', 'gin_pending_list_limit=64'] }]);
      const [{ import_id }] = await now.query('SELECT import_id FROM import_jobs');
      const slices: Buffer[] = [];
      for await (const slice of new ImportsRepository(now).storedFile(import_id, now.manager)) slices.push(slice);
      expect(slices.length).toBeGreaterThan(1);
      expect(Buffer.concat(slices).equals(content)).toBe(true);
    } finally {
      await now.destroy();
      await adminQuery(url, `DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
    }
  });
});
