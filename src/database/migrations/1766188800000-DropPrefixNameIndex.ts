import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `customers_fullname_idx` (lower(fullname) varchar_pattern_ops) serves a prefix LIKE on
 * lower(fullname), a query the service has never made: the name search has always been
 * `fullname ILIKE '%term%'`, which a btree cannot serve, and reads `customers_fullname_trgm_idx`
 * since SearchIndexes. Every registration and imported customer still wrote it.
 */
export class DropPrefixNameIndex1766188800000 implements MigrationInterface {
  name = 'DropPrefixNameIndex1766188800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS customers_fullname_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS customers_fullname_idx ON customers (lower(fullname) varchar_pattern_ops)`);
  }
}
