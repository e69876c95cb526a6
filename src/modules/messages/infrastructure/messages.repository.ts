import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { preparedQuery, preparedStatement } from '../../../common/database/prepared-query.js';
import type { PaymentRowWriter } from '../../contracts/application/deal-events.js';
import { MessageStatus } from '../domain/message.js';
import type { Language, MessageKind, RenderedMessage } from '../domain/templates.js';
import { cutText } from '../../../common/identifiers/characters.js';

export interface MessageRow {
  id: string;
  customer_id: number;
  customer_deal_id: number | null;
  kind: MessageKind;
  due_date: string | null;
  /** language, text, encoding, segments: null on a receipt not worded yet (see RECEIPT_ROW) */
  language: Language | null;
  text: string | null;
  encoding: string | null;
  segments: number | null;
  /** a receipt's figures: the payment, the balance and paid-up date it left */
  payment_id: string | null;
  amount: string | null;
  balance: string | null;
  paid_up_to: string | null;
  /** the customer's chosen language, read with a receipt not worded yet (null otherwise, or when they chose none) */
  preferred_language: Language | null;
  status: MessageStatus;
  telephone: string | null;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  failure_reason: string | null;
  gateway_message_id: string | null;
  cost: string | null;
  sent_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
}

export interface NewEventMessage {
  customerId: number;
  customerDealId: number | null;
  kind: MessageKind;
  eventKey: string;
  dueDate: string | null;
  defaultLanguage: Language;
  /** the message in every language; the one of the customer's language is kept */
  renderings: RenderedMessage[];
  /** reminders: nothing for a customer who opted out */
  unlessOptedOut: boolean;
}

/**
 * A delivery round's hold on the messages its claim took: a token of its own, written on each of them,
 * and how long a claim or a renewal keeps the other instances off (SMS_LEASE_SECONDS).
 */
export interface Lease {
  token: string;
  seconds: number;
}

export interface PreferencesRow {
  customer_id: number;
  language: Language;
  sms_opt_out: boolean;
}

const COLUMNS = `id, customer_id, customer_deal_id, kind, due_date, language, text, encoding, segments, payment_id, amount, balance, paid_up_to, status, telephone,
  attempts, next_attempt_at, last_error, failure_reason, gateway_message_id, cost, sent_at, delivered_at, created_at,
  CASE WHEN text IS NULL THEN (SELECT language FROM customer_preferences cp WHERE cp.customer_id = sms_messages.customer_id) END AS preferred_language`;

/**
 * A payment's receipt, written inside the statement that records the payment (contracts composes it,
 * DealEvents.writeWithPayment): no round trip of its own, in the payment's transaction, one per
 * ledger row (the ledger's unique reference decides, so a repeated callback writes none). It holds
 * the figures only; the delivery worker words it in the customer's language before the first send
 * (MessageWording), and a list shows it worded meanwhile. Receipts ignore the opt-out, which concerns reminders.
 */
const RECEIPT_ROW: PaymentRowWriter = {
  name: 'sms_receipt',
  sql: `INSERT INTO sms_messages (customer_id, customer_deal_id, kind, payment_id, amount, balance, paid_up_to)
    SELECT customer_id, customer_deal_id, 'PAYMENT_RECEIVED', payment_id, amount, balance, nextpaymentdate FROM paid WHERE notify`,
};

/**
 * One statement for every event: the customer's language is read from their preferences (or the
 * default) and the rendering in it inserted; the event key makes a repeat of the event a no-op.
 */
const INSERT_EVENT = `
  INSERT INTO sms_messages (customer_id, customer_deal_id, kind, event_key, due_date, language, text, encoding, segments)
  SELECT $1, $2, $3, $4, $5, r.language, r.text, r.encoding, r.segments
  FROM unnest($7::text[], $8::text[], $9::text[], $10::int[]) AS r(language, text, encoding, segments)
  LEFT JOIN customer_preferences p ON p.customer_id = $1
  WHERE r.language = coalesce(p.language, $6) AND NOT ($11 AND coalesce(p.sms_opt_out, false))
  ON CONFLICT (event_key) WHERE event_key IS NOT NULL DO NOTHING
  RETURNING id`;

/** Claims by one worker at a time across instances, so the send-rate cap counts every instance's sends. */
const RATE_LOCK = 'hashtext(\'payg:sms-send-rate\')';
/** With the customer's id: one operator's message to a customer at a time is counted against the day's cap. */
const OPERATOR_MESSAGE_LOCK = 1_765_900_003;

@Injectable()
export class MessagesRepository {
  private static readonly INSERT_EVENT = preparedStatement(MessagesRepository, 'insertEvent', INSERT_EVENT);

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The receipt row for contracts' payment statement (RECEIPT_ROW). */
  readonly receiptRow: PaymentRowWriter = RECEIPT_ROW;

  /** A receipt worded at last (by the worker, before its first send); a receipt worded already keeps its text. */
  async word(id: string, m: RenderedMessage): Promise<void> {
    await this.dataSource.query(
      `UPDATE sms_messages SET language = $2, text = $3, encoding = $4, segments = $5, updated_at = now() WHERE id = $1 AND text IS NULL`,
      [id, m.language, m.text, m.encoding, m.segments],
    );
  }

  /** true when the message was written, false when the event had its message already (or the customer opted out). */
  async insertEvent(em: EntityManager, m: NewEventMessage): Promise<boolean> {
    const values = [
      m.customerId,
      m.customerDealId,
      m.kind,
      m.eventKey,
      m.dueDate,
      m.defaultLanguage,
      m.renderings.map((r) => r.language),
      m.renderings.map((r) => r.text),
      m.renderings.map((r) => r.encoding),
      m.renderings.map((r) => r.segments),
      m.unlessOptedOut,
    ];
    const rows = em.queryRunner?.isTransactionActive ? await preparedQuery(em, MessagesRepository.INSERT_EVENT, values) : ((await em.query(INSERT_EVENT, values)) as unknown[]);
    return rows.length > 0;
  }

  /** An operator's message, unless the customer got `perDay` of them in the last 24 hours (null then). */
  async insertOperatorMessage(
    m: { customerId: number; language: Language; text: string; encoding: string; segments: number; createdBy: number },
    perDay: number,
  ): Promise<MessageRow | null> {
    return this.dataSource.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock(${OPERATOR_MESSAGE_LOCK}, $1)`, [m.customerId]);
      const [{ n }] = (await em.query(
        `SELECT count(*)::int AS n FROM sms_messages WHERE customer_id = $1 AND kind = 'OPERATOR' AND created_at > now() - interval '24 hours'`,
        [m.customerId],
      )) as Array<{ n: number }>;
      if (n >= perDay) return null;
      const rows = (await em.query(
        `INSERT INTO sms_messages (customer_id, kind, language, text, encoding, segments, created_by) VALUES ($1, 'OPERATOR', $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
        [m.customerId, m.language, m.text, m.encoding, m.segments, m.createdBy],
      )) as MessageRow[];
      return rows[0];
    });
  }

  /**
   * Due messages for this worker, at most what the send-rate cap leaves of the minute up to `now`
   * (the injected Clock: `last_attempt_at` is stamped with it, so tests move the cap's minute): the
   * claim takes a transaction-level advisory lock (claims are short and serialised, the sends are
   * not), marks each row attempted and leases it to this round (its token, for `lease.seconds`), so no
   * other instance claims it meanwhile; the round renews the lease before each send (renewLease).
   * A customer's messages go in the order they were written: one waits while an earlier one of the
   * same customer is backing off or held by another round (a reminder held by quiet hours excepted,
   * as receipts and lock notices do not wait for the morning), so a lock notice retried after a
   * gateway outage never reaches the customer after the receipt that unlocked the device.
   */
  async claimDue(limit: number, ratePerMinute: number, withReminders: boolean, now: Date, lease: Lease): Promise<MessageRow[]> {
    return this.dataSource.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock(${RATE_LOCK})`);
      const [{ n }] = (await em.query(
        `SELECT count(*)::int AS n FROM sms_messages WHERE last_attempt_at > $1::timestamptz - interval '1 minute' AND last_attempt_at <= $1::timestamptz`,
        [now],
      )) as Array<{ n: number }>;
      const room = Math.min(limit, ratePerMinute - n);
      if (room <= 0) return [];
      // TypeORM answers an UPDATE with [rows, affected count]
      const [rows] = (await em.query(
        `UPDATE sms_messages SET attempts = attempts + 1, last_attempt_at = $2, lease_token = $4, next_attempt_at = now() + ($3::int * interval '1 second'), updated_at = now()
         WHERE id IN (SELECT id FROM sms_messages m WHERE status = 'PENDING' AND next_attempt_at <= now() ${withReminders ? '' : `AND kind <> 'REMINDER'`}
                        AND NOT EXISTS (SELECT 1 FROM sms_messages e WHERE e.customer_id = m.customer_id AND e.status = 'PENDING' AND e.id < m.id
                                        AND e.next_attempt_at > now() ${withReminders ? '' : `AND e.kind <> 'REMINDER'`})
                      ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING ${COLUMNS}`,
        [room, now, lease.seconds, lease.token],
      )) as [MessageRow[], number];
      return rows.sort((a, b) => Number(a.id) - Number(b.id));
    });
  }

  /**
   * Renews `lease` on these messages where it still holds (their token is the lease's, they are still
   * PENDING), whether or not it had run out meanwhile: a claim by another instance writes its own
   * token, so a lease that was lost stays lost. Answers the ids held.
   */
  async renewLease(ids: string[], lease: Lease): Promise<string[]> {
    const [rows] = (await this.dataSource.query(
      `UPDATE sms_messages SET next_attempt_at = now() + ($3::int * interval '1 second'), updated_at = now()
       WHERE id = ANY($1::bigint[]) AND lease_token = $2 AND status = 'PENDING' RETURNING id`,
      [ids, lease.token, lease.seconds],
    )) as [Array<{ id: string }>, number];
    return rows.map((r) => r.id);
  }

  /**
   * The gateway took the message: recorded whoever holds the lease now, since the message went, and a
   * holder that has not sent it yet then finds it SENT instead of sending it again.
   */
  async markSent(id: string, telephone: string, gatewayMessageId: string, cost: string | null): Promise<void> {
    await this.dataSource.query(
      `UPDATE sms_messages SET status = 'SENT', telephone = $2, gateway_message_id = $3, cost = $4, sent_at = now(), last_error = NULL, lease_token = NULL, updated_at = now()
       WHERE id = $1 AND status = 'PENDING'`,
      [id, telephone, gatewayMessageId.slice(0, 100), cost?.slice(0, 40) ?? null],
    );
  }

  /**
   * Not sent this time: due again after `delayMs`, unless another instance holds the message now (its
   * lease is not cut short). The customer's later messages wait for it (claimDue holds them back): they
   * are made due no sooner, so no claim looks at them meanwhile, and those this round holds are let go,
   * their claim counted neither as an attempt nor against the send-rate cap.
   */
  async markRetry(id: string, leaseToken: string, telephone: string | null, error: string, delayMs: number): Promise<void> {
    await this.dataSource.query(
      `WITH head AS (
         UPDATE sms_messages SET telephone = coalesce($3, telephone), last_error = $4, next_attempt_at = now() + ($5::int * interval '1 millisecond'), lease_token = NULL, updated_at = now()
         WHERE id = $1 AND lease_token = $2 AND status = 'PENDING'
         RETURNING id, customer_id, next_attempt_at)
       UPDATE sms_messages later SET next_attempt_at = head.next_attempt_at, updated_at = now(),
         attempts = CASE WHEN later.lease_token = $2 THEN later.attempts - 1 ELSE later.attempts END,
         last_attempt_at = CASE WHEN later.lease_token = $2 THEN NULL ELSE later.last_attempt_at END,
         lease_token = CASE WHEN later.lease_token = $2 THEN NULL ELSE later.lease_token END
       FROM head
       WHERE later.customer_id = head.customer_id AND later.id > head.id AND later.status = 'PENDING'
         AND (later.lease_token = $2 OR (later.lease_token IS NULL AND later.next_attempt_at < head.next_attempt_at))`,
      [id, leaseToken, telephone, error.slice(0, 500), delayMs],
    );
  }

  /** A final status other than SENT: FAILED (with the reason) or CANCELLED, unless another instance holds the message now. */
  async markClosed(id: string, leaseToken: string, status: typeof MessageStatus.FAILED | typeof MessageStatus.CANCELLED, telephone: string | null, reason: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE sms_messages SET status = $3, telephone = coalesce($4, telephone), failure_reason = $5, lease_token = NULL, updated_at = now()
       WHERE id = $1 AND lease_token = $2 AND status = 'PENDING'`,
      [id, leaseToken, status, telephone, cutText(reason, 255)],
    );
  }

  /** A delivery report moves a SENT message to its final status; a report for anything else changes nothing. */
  async applyReport(gatewayMessageId: string, status: typeof MessageStatus.DELIVERED | typeof MessageStatus.FAILED, reason: string | null): Promise<'APPLIED' | 'UNCHANGED' | 'UNKNOWN'> {
    const rows = (await this.dataSource.query(
      `WITH target AS (SELECT id, status FROM sms_messages WHERE gateway_message_id = $1),
       moved AS (
         UPDATE sms_messages m SET status = $2::varchar, delivered_at = CASE WHEN $2::varchar = 'DELIVERED' THEN now() END, failure_reason = $3, updated_at = now()
         FROM target WHERE m.id = target.id AND target.status = 'SENT' RETURNING m.id)
       SELECT (SELECT count(*)::int FROM target) AS known, (SELECT count(*)::int FROM moved) AS moved`,
      [gatewayMessageId, status, reason === null ? null : cutText(reason, 255)],
    )) as Array<{ known: number; moved: number }>;
    return rows[0].moved ? 'APPLIED' : rows[0].known ? 'UNCHANGED' : 'UNKNOWN';
  }

  /** A send may be under way somewhere: a message held under a lease that has not run out, whose outcome is not recorded yet. */
  async sendInFlight(): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT 1 FROM sms_messages WHERE status = 'PENDING' AND next_attempt_at > now() AND lease_token IS NOT NULL LIMIT 1`,
    )) as unknown[];
    return rows.length > 0;
  }

  async list(filter: { customerId?: number; status?: MessageStatus }, page: number, limit: number): Promise<[MessageRow[], number]> {
    const where: string[] = [];
    const values: unknown[] = [];
    if (filter.customerId !== undefined) where.push(`customer_id = $${values.push(filter.customerId)}`);
    if (filter.status !== undefined) where.push(`status = $${values.push(filter.status)}`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query(`SELECT ${COLUMNS} FROM sms_messages ${clause} ORDER BY id DESC LIMIT $${values.length + 1} OFFSET $${values.length + 2}`, [...values, limit, (page - 1) * limit]),
      this.dataSource.query(`SELECT count(*)::int AS total FROM sms_messages ${clause}`, values),
    ]);
    return [rows as MessageRow[], total as number];
  }

  async preferences(customerId: number): Promise<PreferencesRow | null> {
    const rows = (await this.dataSource.query('SELECT customer_id, language, sms_opt_out FROM customer_preferences WHERE customer_id = $1', [customerId])) as PreferencesRow[];
    return rows[0] ?? null;
  }

  async savePreferences(customerId: number, language: Language, optOut: boolean, by: number): Promise<PreferencesRow> {
    const rows = (await this.dataSource.query(
      `INSERT INTO customer_preferences (customer_id, language, sms_opt_out, updated_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (customer_id) DO UPDATE SET language = excluded.language, sms_opt_out = excluded.sms_opt_out, updated_by = excluded.updated_by, updated_at = now()
       RETURNING customer_id, language, sms_opt_out`,
      [customerId, language, optOut, by],
    )) as PreferencesRow[];
    return rows[0];
  }

  /** Preferences of customers an import brought in (new customers: none set yet), in one statement. */
  async insertPreferences(em: EntityManager, rows: Array<{ customerId: number; language: Language; optOut: boolean }>, by: number): Promise<void> {
    if (rows.length === 0) return;
    await em.query(
      `INSERT INTO customer_preferences (customer_id, language, sms_opt_out, updated_by)
       SELECT customer_id, language, sms_opt_out, $4 FROM unnest($1::int[], $2::text[], $3::boolean[]) AS r(customer_id, language, sms_opt_out)`,
      [rows.map((r) => r.customerId), rows.map((r) => r.language), rows.map((r) => r.optOut), by],
    );
  }

  async pendingCount(): Promise<number> {
    const [{ n }] = (await this.dataSource.query(`SELECT count(*)::int AS n FROM sms_messages WHERE status = 'PENDING'`)) as Array<{ n: number }>;
    return n;
  }
}
