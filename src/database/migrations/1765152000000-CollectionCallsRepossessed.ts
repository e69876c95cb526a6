import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A repossession closes the deal's open calls with the resolution REPOSSESSED (DESIGN part 8).
 * Calls that the previous release left open on deals that are repossessed or paid off are closed
 * here the same way (REPOSSESSED at the time of the repossession; PAYMENT for a paid-off deal), so
 * that no collector keeps chasing a deal nobody collects on.
 */
export class CollectionCallsRepossessed1765152000000 implements MigrationInterface {
  name = 'CollectionCallsRepossessed1765152000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE collection_calls DROP CONSTRAINT collection_calls_resolution_check`);
    await q.query(
      `ALTER TABLE collection_calls ADD CONSTRAINT collection_calls_resolution_check
         CHECK (resolution IN ('COLLECTOR', 'PAYMENT', 'BONUS_DAYS', 'REPOSSESSED'))`,
    );
    await q.query(
      `UPDATE collection_calls k
         SET status = 'RESOLVED', resolution = CASE WHEN cd.status = 'REPOSSESSED' THEN 'REPOSSESSED' ELSE 'PAYMENT' END,
             resolved_at = CASE WHEN cd.status = 'REPOSSESSED' THEN COALESCE(cd.repossessed_at, now()) ELSE now() END,
             updated_at = now()
       FROM customer_deals cd
       WHERE cd.id = k.customer_deal_id AND k.status <> 'RESOLVED' AND cd.status IN ('REPOSSESSED', 'PAID_OFF')`,
    );
  }

  /** The previous release knows no REPOSSESSED resolution: those calls stay resolved, as closed by a collector. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE collection_calls SET resolution = 'COLLECTOR' WHERE resolution = 'REPOSSESSED'`);
    await q.query(`ALTER TABLE collection_calls DROP CONSTRAINT collection_calls_resolution_check`);
    await q.query(
      `ALTER TABLE collection_calls ADD CONSTRAINT collection_calls_resolution_check
         CHECK (resolution IN ('COLLECTOR', 'PAYMENT', 'BONUS_DAYS'))`,
    );
  }
}
