import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A device financed again belongs to its newest deal: registration asks whether an older deal was on
 * the IMEI (then the device hears the new deal's state), and a closed contract asks whether a newer
 * one is before it commands the device. The unique index covers only deals still being paid for.
 */
export class DealsByDevice1766707200000 implements MigrationInterface {
  name = 'DealsByDevice1766707200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX customer_deals_imei_idx ON customer_deals (imei, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX customer_deals_imei_idx`);
  }
}
