import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the web client's listings (issue 15).
 *
 * A customer's calls (GET /finance/collections/calls?customerid=, the customer page): by customer.
 *
 * The Devices page lists the whole command outbox newest first (GET /finance/device/commands without
 * a customer), filtered by state or action. Newest first with no filter walks the primary key
 * backwards, which also serves the common actions (SYNC, LOCK, UNLOCK: most rows). The rare ones,
 * PERMANENT_LOCK and RELEASE, would have it read the whole table: a partial index holds only those,
 * so the SYNC every payment queues writes no entry in it (TEMP_UNLOCK has its own partial indexes
 * already). Waiting commands are found by the delivery worker's own partial
 * index (PENDING rows only) and sorted: a second index on them would cost every command on the
 * payment path another index write for a listing.
 */
export class ListingIndexes1765670400000 implements MigrationInterface {
  name = 'ListingIndexes1765670400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX device_commands_rare_action_idx ON device_commands (action, id) WHERE action IN ('PERMANENT_LOCK', 'RELEASE')`);
    await q.query(`CREATE INDEX collection_calls_customer_idx ON collection_calls (customer_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX collection_calls_customer_idx`);
    await q.query(`DROP INDEX device_commands_rare_action_idx`);
  }
}
