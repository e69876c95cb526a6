import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A payment's receipt is written as its figures, in the payment's own statement, and worded when it
 * is first sent or shown (docs/architecture.md, "How a payment flows"; docs/performance.md):
 * - `payment_id`, `amount`, `balance`, `paid_up_to`: what a PAYMENT_RECEIVED message says, as numbers
 *   and a date; `language`, `text`, `encoding` and `segments` stay empty until the delivery worker
 *   words it in the customer's language (a check keeps every other message worded at once).
 * - the event key's uniqueness only over messages that have one: a receipt needs none (it is written
 *   by the statement that appends its payment, once per ledger row), and a NULL in a plain unique
 *   index would still cost an index entry on every payment.
 * No row is rewritten going up; going down words what is still unworded in English without the currency.
 */
export class ReceiptFacts1765584000000 implements MigrationInterface {
  name = 'ReceiptFacts1765584000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sms_messages ADD COLUMN payment_id bigint, ADD COLUMN amount numeric(14,2), ADD COLUMN balance numeric(14,2), ADD COLUMN paid_up_to date`);
    await q.query(`ALTER TABLE sms_messages ALTER COLUMN language DROP NOT NULL, ALTER COLUMN text DROP NOT NULL, ALTER COLUMN encoding DROP NOT NULL, ALTER COLUMN segments DROP NOT NULL`);
    await q.query(`
      ALTER TABLE sms_messages ADD CONSTRAINT sms_messages_worded_check CHECK (
        (language IS NOT NULL AND text IS NOT NULL AND encoding IS NOT NULL AND segments IS NOT NULL)
        OR (kind = 'PAYMENT_RECEIVED' AND text IS NULL AND amount IS NOT NULL AND balance IS NOT NULL AND paid_up_to IS NOT NULL))`);
    await q.query(`ALTER TABLE sms_messages DROP CONSTRAINT sms_messages_event_key_key`);
    await q.query(`CREATE UNIQUE INDEX sms_messages_event_key_key ON sms_messages (event_key) WHERE event_key IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX sms_messages_event_key_key`);
    await q.query(`ALTER TABLE sms_messages ADD CONSTRAINT sms_messages_event_key_key UNIQUE (event_key)`);
    await q.query(`ALTER TABLE sms_messages DROP CONSTRAINT sms_messages_worded_check`);
    await q.query(`
      UPDATE sms_messages SET language = 'en', encoding = 'GSM-7', segments = 1, event_key = 'PAYMENT_RECEIVED:' || payment_id,
        text = format('We received your payment of %s, thank you. Balance: %s. Your device is paid up to %s.', amount, balance, to_char(paid_up_to, 'FMDD FMMonth YYYY'))
      WHERE text IS NULL`);
    await q.query(`ALTER TABLE sms_messages ALTER COLUMN language SET NOT NULL, ALTER COLUMN text SET NOT NULL, ALTER COLUMN encoding SET NOT NULL, ALTER COLUMN segments SET NOT NULL`);
    await q.query(`ALTER TABLE sms_messages DROP COLUMN payment_id, DROP COLUMN amount, DROP COLUMN balance, DROP COLUMN paid_up_to`);
  }
}
