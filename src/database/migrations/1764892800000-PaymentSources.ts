import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 14, money that was lost on paths nobody wrote down:
 * - payment references live in one namespace per source (the ledger row's type): a provider's
 *   transaction id equal to an operator's receipt or a deposit reference is another payment;
 * - notifications the old single namespace swallowed (stored as APPLIED, no MOBILE_MONEY ledger row)
 *   are put back as HELD, waiting for an operator, with the reason;
 * - a notification keeps the raw body it arrived with and, when crediting failed, why (HELD);
 * - days bought are capped at the end of the term, so an overpayment no longer moves the paid-up date;
 * - temporary unlocks record the hours granted (the 30-day allowance counts them);
 * - amountpaid and overpaid widened, so a deal can take every payment the validator accepts.
 */
export class PaymentSources1764892800000 implements MigrationInterface {
  name = 'PaymentSources1764892800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX payments_reference_key`);
    await q.query(`CREATE UNIQUE INDEX payments_type_reference_key ON payments (type, reference)`);

    await q.query(`ALTER TABLE mobile_money_transactions DROP CONSTRAINT mobile_money_transactions_status_check`);
    await q.query(`ALTER TABLE mobile_money_transactions ADD CONSTRAINT mobile_money_transactions_status_check CHECK (status IN ('APPLIED', 'UNMATCHED', 'HELD'))`);
    await q.query(`ALTER TABLE mobile_money_transactions ADD COLUMN reason varchar(500), ADD COLUMN raw jsonb`);
    await q.query(`CREATE INDEX mobile_money_waiting_idx ON mobile_money_transactions (received_at DESC, id) WHERE status IN ('UNMATCHED', 'HELD')`);
    await q.query(`DROP INDEX mobile_money_unmatched_idx`);
    await q.query(`CREATE INDEX mobile_money_unmatched_tag_idx ON mobile_money_transactions (lower(tag)) WHERE status = 'UNMATCHED'`);

    const lost = (await q.query(`
      UPDATE mobile_money_transactions t
      SET status = 'HELD', customer_id = NULL, applied_at = NULL,
          reason = 'Never credited: its id equalled another payment''s reference (repaired by the PaymentSources migration). Assign it to customer ' || t.customer_id || ' or the right one.'
      WHERE t.status = 'APPLIED'
        AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.type = 'MOBILE_MONEY' AND p.reference = t.id)
      RETURNING t.id`)) as [Array<{ id: string }>, number];
    const count = Array.isArray(lost[0]) ? lost[0].length : 0;
    if (count > 0) console.log(`PaymentSources migration: ${count} mobile-money payment(s) that were never credited are now waiting for an operator (status HELD).`);

    await q.query(`ALTER TABLE customer_deals ALTER COLUMN amountpaid TYPE numeric(18,2), ALTER COLUMN overpaid TYPE numeric(18,2)`);
    await q.query(`
      UPDATE customer_deals
      SET nextpaymentdate = startdate + floor(30 * (totalamount - depositpaid) / monthly)::int + bonusdays, updated_at = now()
      WHERE amountpaid > totalamount`);

    await q.query(`ALTER TABLE device_commands ADD COLUMN unlock_hours integer CHECK (unlock_hours > 0)`);
    await q.query(`
      UPDATE device_commands SET unlock_hours = greatest(1, ceil(extract(epoch FROM (unlockuntil - created_at)) / 3600))::int
      WHERE action = 'TEMP_UNLOCK'`);
    await q.query(`CREATE INDEX device_commands_temp_granted_idx ON device_commands (customer_id, unlockuntil) WHERE action = 'TEMP_UNLOCK'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX device_commands_temp_granted_idx`);
    await q.query(`ALTER TABLE device_commands DROP COLUMN unlock_hours`);
    await q.query(`ALTER TABLE customer_deals ALTER COLUMN amountpaid TYPE numeric(14,2), ALTER COLUMN overpaid TYPE numeric(14,2)`);
    await q.query(`DROP INDEX mobile_money_unmatched_tag_idx`);
    await q.query(`CREATE INDEX mobile_money_unmatched_idx ON mobile_money_transactions (tag) WHERE status = 'UNMATCHED'`);
    await q.query(`DROP INDEX mobile_money_waiting_idx`);
    await q.query(`UPDATE mobile_money_transactions SET status = 'UNMATCHED' WHERE status = 'HELD'`);
    await q.query(`ALTER TABLE mobile_money_transactions DROP COLUMN reason, DROP COLUMN raw`);
    await q.query(`ALTER TABLE mobile_money_transactions DROP CONSTRAINT mobile_money_transactions_status_check`);
    await q.query(`ALTER TABLE mobile_money_transactions ADD CONSTRAINT mobile_money_transactions_status_check CHECK (status IN ('APPLIED', 'UNMATCHED'))`);
    await q.query(`DROP INDEX payments_type_reference_key`);
    await q.query(`CREATE UNIQUE INDEX payments_reference_key ON payments (reference)`);
  }
}
