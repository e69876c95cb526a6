import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two indexes no query reads, each written on every mobile-money callback:
 * - `mobile_money_received_idx` (received_at): the waiting list reads `mobile_money_waiting_idx`
 *   (received_at DESC, id over UNMATCHED and HELD), matching reads `mobile_money_unmatched_tag_idx`;
 * - `audit_log_at_idx` (at): `audit_log_at_id_idx` (at DESC, id DESC) serves the history's order
 *   and its date ranges in either direction.
 */
export class DropUnreadIndexes1766016000000 implements MigrationInterface {
  name = 'DropUnreadIndexes1766016000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS mobile_money_received_idx`);
    await q.query(`DROP INDEX IF EXISTS audit_log_at_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS audit_log_at_idx ON audit_log (at)`);
    await q.query(`CREATE INDEX IF NOT EXISTS mobile_money_received_idx ON mobile_money_transactions (received_at)`);
  }
}
