import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Marks the deals an import brought in already repossessed (the old book had taken the device back,
 * on a day it does not say): the collection rate expects nothing of them in any range, where their
 * repossession time, the time of the import, would have counted their instalments as due up to it.
 * Such a deal was stamped repossessed in the transaction that recorded its deposit, so both carry
 * that transaction's now(); a deal registered here and repossessed later never does.
 */
export class DealsOpenedRepossessed1766880000000 implements MigrationInterface {
  name = 'DealsOpenedRepossessed1766880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE customer_deals ADD COLUMN opened_repossessed boolean NOT NULL DEFAULT false`);
    await q.query(`
      UPDATE customer_deals cd SET opened_repossessed = true
      WHERE cd.repossessed_at IS NOT NULL
        AND cd.repossessed_at = (SELECT min(p.created_at) FROM payments p WHERE p.customer_deal_id = cd.id AND p.type = 'DEPOSIT')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE customer_deals DROP COLUMN opened_repossessed`);
  }
}
