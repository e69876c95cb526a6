import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the web client's listings (issue 15).
 *
 * A customer's calls (GET /finance/collections/calls?customerid=, the customer page): by customer.
 *
 * The Devices page lists the whole command outbox newest first (GET /finance/device/commands without
 * a customer), filtered by state or action. Newest first with no filter walks the primary key
 * backwards; these two keep the filtered pages from reading the whole table:
 * - by action (PERMANENT_LOCK or RELEASE are a sliver of the rows): (action, id);
 * - waiting commands (a lock-platform outage can leave many): id, of PENDING rows only.
 */
export class ListingIndexes1765670400000 implements MigrationInterface {
  name = 'ListingIndexes1765670400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX device_commands_action_idx ON device_commands (action, id)`);
    await q.query(`CREATE INDEX device_commands_pending_list_idx ON device_commands (id) WHERE status = 'PENDING'`);
    await q.query(`CREATE INDEX collection_calls_customer_idx ON collection_calls (customer_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX collection_calls_customer_idx`);
    await q.query(`DROP INDEX device_commands_pending_list_idx`);
    await q.query(`DROP INDEX device_commands_action_idx`);
  }
}
