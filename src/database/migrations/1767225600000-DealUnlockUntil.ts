import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The end of the temporary unlock running on a contract's device, on the contract's own row. A
 * payment reads it in the statement that locks the deal: when an operator's unlock held that lock,
 * PostgreSQL hands the statement the deal row as the unlock left it, but other tables only as they
 * were before, so the unlock's command row was not seen. Filled from the unlocks whose end has not
 * been pushed yet (at most one per customer: a newer unlock settles the older ones).
 */
export class DealUnlockUntil1767225600000 implements MigrationInterface {
  name = 'DealUnlockUntil1767225600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE customer_deals ADD COLUMN unlockuntil timestamptz`);
    await q.query(`
      UPDATE customer_deals cd SET unlockuntil = running.until
      FROM (SELECT customer_id, max(unlockuntil) AS until FROM device_commands
            WHERE action = 'TEMP_UNLOCK' AND restored_at IS NULL GROUP BY customer_id) running
      WHERE cd.customer_id = running.customer_id`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE customer_deals DROP COLUMN unlockuntil`);
  }
}
