import { MigrationInterface, QueryRunner } from 'typeorm';

export class MobileMoney1764633600000 implements MigrationInterface {
  name = 'MobileMoney1764633600000';

  async up(q: QueryRunner): Promise<void> {
    // Every notification the provider sent (callback, look-up or reconciliation), stored once by its id.
    await q.query(`
      CREATE TABLE mobile_money_transactions (
        id varchar(255) PRIMARY KEY,
        amount numeric(14,2) NOT NULL CHECK (amount > 0),
        tag varchar(255) NOT NULL,
        status varchar(20) NOT NULL CHECK (status IN ('APPLIED', 'UNMATCHED')),
        customer_id integer REFERENCES customers(id),
        source varchar(20) NOT NULL CHECK (source IN ('CALLBACK', 'LOOKUP', 'RECON')),
        received_at timestamptz NOT NULL DEFAULT now(),
        applied_at timestamptz,
        assigned_by integer REFERENCES users(id),
        CHECK ((status = 'APPLIED') = (customer_id IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX mobile_money_unmatched_idx ON mobile_money_transactions (tag) WHERE status = 'UNMATCHED'`);
    await q.query(`CREATE INDEX mobile_money_received_idx ON mobile_money_transactions (received_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE mobile_money_transactions`);
  }
}
