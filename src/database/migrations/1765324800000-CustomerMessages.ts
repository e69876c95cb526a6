import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Customer messages (DESIGN part 11): the SMS outbox, written in the transaction of the event it
 * tells about, and each customer's messaging preferences. `event_key` makes a message at most once
 * per event (a payment, a due date and offset, a lock); an operator's own message has none.
 */
export class CustomerMessages1765324800000 implements MigrationInterface {
  name = 'CustomerMessages1765324800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sms_messages (
        id bigserial PRIMARY KEY,
        -- no foreign key: its check would lock the customer's row (FOR KEY SHARE, a WAL record) in
        -- every payment; rows are written only by events of existing customers (and operators, checked)
        customer_id integer NOT NULL,
        customer_deal_id integer,
        kind varchar(20) NOT NULL CHECK (kind IN ('REGISTERED', 'PAYMENT_RECEIVED', 'REMINDER', 'LOCKED', 'PAID_OFF', 'OPERATOR')),
        event_key varchar(120) UNIQUE,
        due_date date,
        language varchar(5) NOT NULL,
        text varchar(1000) NOT NULL,
        encoding varchar(5) NOT NULL CHECK (encoding IN ('GSM-7', 'UCS-2')),
        segments integer NOT NULL,
        status varchar(12) NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SENT', 'DELIVERED', 'FAILED', 'CANCELLED')),
        telephone varchar(32),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_attempt_at timestamptz,
        last_error varchar(500),
        failure_reason varchar(255),
        gateway_message_id varchar(100),
        cost varchar(40),
        sent_at timestamptz,
        delivered_at timestamptz,
        created_by integer REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sms_messages_due_idx ON sms_messages (next_attempt_at, id) WHERE status = 'PENDING'`);
    await q.query(`CREATE INDEX sms_messages_customer_idx ON sms_messages (customer_id, id)`);
    // Partial indexes: a new message (PENDING, never attempted, no gateway id) enters none of these three,
    // so the receipt a payment writes costs the heap row and three index entries (key, pending, customer).
    await q.query(`CREATE INDEX sms_messages_failed_idx ON sms_messages (id) WHERE status = 'FAILED'`);
    await q.query(`CREATE INDEX sms_messages_attempt_idx ON sms_messages (last_attempt_at) WHERE last_attempt_at IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX sms_messages_gateway_id_key ON sms_messages (gateway_message_id) WHERE gateway_message_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE customer_preferences (
        customer_id integer PRIMARY KEY REFERENCES customers(id),
        language varchar(5) NOT NULL,
        sms_opt_out boolean NOT NULL DEFAULT false,
        updated_by integer REFERENCES users(id),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE customer_preferences`);
    await q.query(`DROP TABLE sms_messages`);
  }
}
