import { MigrationInterface, QueryRunner } from 'typeorm';

export class DeviceCommands1764720000000 implements MigrationInterface {
  name = 'DeviceCommands1764720000000';

  async up(q: QueryRunner): Promise<void> {
    // The transactional outbox: every change of what a device should do, written with the change itself.
    await q.query(`
      CREATE TABLE device_commands (
        id bigserial PRIMARY KEY,
        commandid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
        customer_id integer NOT NULL REFERENCES customers(id),
        imei varchar(32) NOT NULL,
        serialnumber varchar(255),
        payg varchar(64),
        action varchar(20) NOT NULL CHECK (action IN ('LOCK', 'UNLOCK', 'TEMP_UNLOCK', 'PERMANENT_LOCK', 'RELEASE', 'SYNC')),
        nextpaymentdate date,
        unlockuntil timestamptz,
        reason varchar(255) NOT NULL DEFAULT '',
        status varchar(20) NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DELIVERED')),
        attempts integer NOT NULL DEFAULT 0,
        last_error varchar(500),
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz,
        restored_at timestamptz,
        created_by integer REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((action = 'TEMP_UNLOCK') = (unlockuntil IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX device_commands_pending_idx ON device_commands (customer_id, id) WHERE status = 'PENDING'`);
    await q.query(`CREATE INDEX device_commands_due_idx ON device_commands (next_attempt_at, id) WHERE status = 'PENDING'`);
    await q.query(`CREATE INDEX device_commands_customer_idx ON device_commands (customer_id, id DESC)`);
    await q.query(`CREATE INDEX device_commands_temp_idx ON device_commands (unlockuntil) WHERE action = 'TEMP_UNLOCK' AND restored_at IS NULL`);

    // Bonus days as granted: who, when, how many, why. customer_deals.bonusdays is their sum.
    await q.query(`
      CREATE TABLE bonus_grants (
        id serial PRIMARY KEY,
        customer_deal_id integer NOT NULL REFERENCES customer_deals(id),
        days integer NOT NULL CHECK (days BETWEEN 1 AND 365),
        granted_by integer NOT NULL REFERENCES users(id),
        route varchar(40) NOT NULL,
        granted_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX bonus_grants_deal_idx ON bonus_grants (customer_deal_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE bonus_grants');
    await q.query('DROP TABLE device_commands');
  }
}
