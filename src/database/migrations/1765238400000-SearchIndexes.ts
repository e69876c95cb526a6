import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the web client's searches. Customers are searched by part of the name or telephone
 * (ILIKE '%…%': trigram GIN indexes, pg_trgm, a trusted extension since PostgreSQL 13) and by the
 * whole PAYG code, IMEI or account number, which already have b-tree indexes. The audit log is read
 * by user and newest first.
 */
export class SearchIndexes1765238400000 implements MigrationInterface {
  name = 'SearchIndexes1765238400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await q.query(`CREATE INDEX customers_fullname_trgm_idx ON customers USING gin (fullname gin_trgm_ops)`);
    await q.query(`CREATE INDEX customers_telephone_trgm_idx ON customers USING gin (telephone gin_trgm_ops)`);
    await q.query(`CREATE INDEX audit_log_user_idx ON audit_log (user_id, at DESC)`);
    await q.query(`CREATE INDEX audit_log_at_id_idx ON audit_log (at DESC, id DESC)`);
  }

  /** The extension stays: other objects may use it, and dropping it gains nothing. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX audit_log_at_id_idx`);
    await q.query(`DROP INDEX audit_log_user_idx`);
    await q.query(`DROP INDEX customers_telephone_trgm_idx`);
    await q.query(`DROP INDEX customers_fullname_trgm_idx`);
  }
}
