import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { NotificationStatus } from '../domain/mobile-money.js';

export interface NotificationRow {
  id: string;
  amount: string;
  tag: string;
  status: NotificationStatus;
  customer_id: number | null;
  source: string;
  received_at: Date;
  applied_at: Date | null;
  reason: string | null;
}

const COLUMNS = 'id, amount, tag, status, customer_id, source, received_at, applied_at, reason';

export interface NewNotification {
  id: string;
  amount: string;
  tag: string;
  source: string;
  /** the body as it arrived (unknown fields included), kept with the notification */
  raw: unknown;
}

/**
 * The customer whose PAYG code is a tag: codes are unique regardless of letter case (DESIGN part 10),
 * except pairs an older release let in (kept, flagged payg_legacy_duplicate): then the exact spelling,
 * else the oldest.
 */
const MATCHING_CUSTOMER = (tag: string) => `SELECT c.id FROM customers c WHERE lower(c.payg) = lower(${tag}) ORDER BY c.payg = ${tag} DESC, c.id LIMIT 1`;

/**
 * Stores a notification once, matching its tag to a customer's PAYG code in the same statement: a
 * data-modifying CTE named `src` returning the matched `customer_id` (no row when the id was already
 * stored: the unique key decides, so concurrent copies wait for the first and then find it).
 */
const INSERT_ONCE = `match AS (${MATCHING_CUSTOMER('$3')}),
  src AS (
    INSERT INTO mobile_money_transactions (id, amount, tag, status, customer_id, source, applied_at, raw)
    SELECT $1, $2, $3,
           CASE WHEN (SELECT id FROM match) IS NULL THEN 'UNMATCHED' ELSE 'APPLIED' END,
           (SELECT id FROM match), $4,
           CASE WHEN (SELECT id FROM match) IS NULL THEN NULL ELSE now() END,
           $5::jsonb
    ON CONFLICT (id) DO NOTHING
    RETURNING customer_id)`;

const insertValues = (n: NewNotification) => [n.id, n.amount, n.tag, n.source, JSON.stringify(n.raw ?? null)];

@Injectable()
export class MobileMoneyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The statement that stores a notification once (INSERT_ONCE), for the customers module to run
   * together with the lock of the matched customer's deal.
   */
  insertOnceStatement(n: NewNotification): { name: string; insert: string; values: unknown[] } {
    return { name: 'mobile_money_insert_lock_deal', insert: INSERT_ONCE, values: insertValues(n) };
  }

  async find(id: string, em?: EntityManager): Promise<NotificationRow | null> {
    const rows = (await (em ?? this.dataSource.manager).query(`SELECT ${COLUMNS} FROM mobile_money_transactions WHERE id = $1`, [id])) as NotificationRow[];
    return rows[0] ?? null;
  }

  async lock(id: string, em: EntityManager): Promise<NotificationRow | null> {
    const rows = (await em.query(`SELECT ${COLUMNS} FROM mobile_money_transactions WHERE id = $1 FOR UPDATE`, [id])) as NotificationRow[];
    return rows[0] ?? null;
  }

  /**
   * Stores a notification that could not be credited as HELD, waiting for an operator with the
   * reason, in a transaction of its own (the one that failed rolled back). false when the id is
   * stored already (a concurrent copy got in first).
   */
  async insertHeld(n: NewNotification, reason: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `INSERT INTO mobile_money_transactions (id, amount, tag, status, customer_id, source, reason, raw)
       VALUES ($1, $2, $3, 'HELD', NULL, $4, $5, $6::jsonb)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [n.id, n.amount, n.tag, n.source, reason.slice(0, 500), JSON.stringify(n.raw ?? null)],
    )) as unknown[];
    return rows.length > 0;
  }

  /** A stored unmatched notification whose crediting failed: HELD for an operator, with the reason. */
  async markHeld(em: EntityManager, id: string, reason: string): Promise<void> {
    await em.query(`UPDATE mobile_money_transactions SET status = 'HELD', reason = $2 WHERE id = $1 AND status <> 'APPLIED'`, [id, reason.slice(0, 500)]);
  }

  async markApplied(em: EntityManager, id: string, customerId: number, assignedBy: number | null): Promise<void> {
    await em.query(
      `UPDATE mobile_money_transactions SET status = 'APPLIED', customer_id = $2, assigned_by = $3, applied_at = now() WHERE id = $1`,
      [id, customerId, assignedBy],
    );
  }

  /**
   * Unmatched notifications (all, or those with one tag) whose tag is now some customer's PAYG code
   * (letter case ignored), locked and skipping those another worker holds. HELD ones wait for an operator.
   */
  async lockMatchable(em: EntityManager, limit: number, tag?: string): Promise<Array<NotificationRow & { match_id: number }>> {
    return em.query(
      `SELECT t.id, t.amount, t.tag, t.status, t.customer_id, t.source, t.received_at, t.applied_at, t.reason, m.id AS match_id
       FROM mobile_money_transactions t CROSS JOIN LATERAL (${MATCHING_CUSTOMER('t.tag')}) m
       WHERE t.status = 'UNMATCHED' ${tag !== undefined ? 'AND lower(t.tag) = lower($2)' : ''}
       ORDER BY t.received_at
       LIMIT $1
       FOR UPDATE OF t SKIP LOCKED`,
      tag !== undefined ? [limit, tag] : [limit],
    );
  }

  /** Notifications waiting for an operator: UNMATCHED (no customer has the tag) and HELD (crediting failed), newest first. */
  async listUnmatched(page: number, limit: number): Promise<{ rows: NotificationRow[]; total: number }> {
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM mobile_money_transactions WHERE status IN ('UNMATCHED', 'HELD')
       ORDER BY received_at DESC, id LIMIT $1 OFFSET $2`,
      [limit, (page - 1) * limit],
    )) as Array<NotificationRow & { total: number }>;
    let total = rows[0]?.total;
    if (total === undefined) {
      const [{ n }] = (await this.dataSource.query(`SELECT count(*)::int AS n FROM mobile_money_transactions WHERE status IN ('UNMATCHED', 'HELD')`)) as Array<{ n: number }>;
      total = n;
    }
    return { rows, total };
  }
}
