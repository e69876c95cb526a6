import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Commands reach a device in the order they were written, and a device is its IMEI: once a paid-off
 * deal's device is financed again, the old contract's pending commands and the new one's are one
 * queue. The delivery worker looks for an earlier pending command of the same IMEI, not of the same
 * customer, so the index it reads follows.
 */
export class CommandsInOrderPerDevice1766361600000 implements MigrationInterface {
  name = 'CommandsInOrderPerDevice1766361600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX device_commands_pending_device_idx ON device_commands (imei, id) WHERE status = 'PENDING'`);
    await q.query(`DROP INDEX device_commands_pending_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX device_commands_pending_idx ON device_commands (customer_id, id) WHERE status = 'PENDING'`);
    await q.query(`DROP INDEX device_commands_pending_device_idx`);
  }
}
