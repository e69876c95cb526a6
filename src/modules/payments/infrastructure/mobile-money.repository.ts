import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { storableJson } from '../../../common/database/jsonb.js';
import { preparedQuery, preparedStatement } from '../../../common/database/prepared-query.js';
import { ContractRow, LOCK_CONTRACT_OF } from '../../contracts/contract.sql.js';
import { CUSTOMER_BY_TAG } from '../../customers/customer.sql.js';
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

/** What storing a notification found: nothing stored (the id was there already), or the customer its tag names, with that deal locked. */
export type StoredNotification = undefined | { customerId: null; deal: null } | { customerId: number; deal: ContractRow | null };

/** The first key of the per-tag advisory locks (lockTags): any fixed number no other lock uses. */
const TAG_LOCK = 1_765_900_001;

const insertValues = (n: NewNotification) => [n.id, n.amount, n.tag, n.source, JSON.stringify(storableJson(n.raw ?? null))];

@Injectable()
export class MobileMoneyRepository {
  /**
   * Stores a notification once, matching its tag to a customer's PAYG code (customers' CUSTOMER_BY_TAG)
   * and locking that customer's deal (contracts' LOCK_CONTRACT_OF) in the same statement: one round
   * trip instead of three on the callback path (docs/performance.md). The unique key decides between
   * copies: a copy of a stored id inserts nothing, so concurrent copies wait for the first and then
   * find it. The deal is only locked here; contracts changes it (ContractsService.credit).
   */
  private static readonly STORE_AND_LOCK = preparedStatement(
    MobileMoneyRepository,
    'storeNotificationAndLockDeal',
    `WITH match AS (${CUSTOMER_BY_TAG('$3')}),
     src AS (
       INSERT INTO mobile_money_transactions (id, amount, tag, status, customer_id, source, applied_at, raw)
       SELECT $1, $2, $3,
              CASE WHEN (SELECT id FROM match) IS NULL THEN 'UNMATCHED' ELSE 'APPLIED' END,
              (SELECT id FROM match), $4,
              CASE WHEN (SELECT id FROM match) IS NULL THEN NULL ELSE now() END,
              $5::jsonb
       ON CONFLICT (id) DO NOTHING
       RETURNING customer_id),
     deal AS (${LOCK_CONTRACT_OF('(SELECT customer_id FROM src)')})
     SELECT src.customer_id AS src_customer_id, deal.* FROM src LEFT JOIN deal ON true`,
  );

  private static readonly UNMATCHED_TAGS = preparedStatement(
    MobileMoneyRepository,
    'unmatchedTags',
    `SELECT t.tag FROM unnest($1::text[]) AS t(tag)
     WHERE EXISTS (SELECT 1 FROM mobile_money_transactions m WHERE m.status = 'UNMATCHED' AND lower(m.tag) = lower(t.tag))`,
  );

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * STORE_AND_LOCK: undefined when the id was stored already (nothing written), `customerId` null when
   * no customer has the tag (stored UNMATCHED), otherwise the customer and their deal, locked until the
   * transaction ends (stored APPLIED: the caller credits it in the same transaction or rolls back).
   */
  async storeNotificationAndLockDeal(em: EntityManager, n: NewNotification): Promise<StoredNotification> {
    const rows = await preparedQuery<ContractRow & { src_customer_id: number | null }>(em, MobileMoneyRepository.STORE_AND_LOCK, insertValues(n));
    if (rows.length === 0) return undefined;
    const { src_customer_id, ...deal } = rows[0];
    if (src_customer_id === null) return { customerId: null, deal: null };
    return { customerId: src_customer_id, deal: deal.id === null ? null : (deal as ContractRow) };
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
      [n.id, n.amount, n.tag, n.source, reason.slice(0, 500), JSON.stringify(storableJson(n.raw ?? null))],
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
       FROM mobile_money_transactions t CROSS JOIN LATERAL (${CUSTOMER_BY_TAG('t.tag')}) m
       WHERE t.status = 'UNMATCHED' ${tag !== undefined ? 'AND lower(t.tag) = lower($2)' : ''}
       ORDER BY t.received_at
       LIMIT $1
       FOR UPDATE OF t SKIP LOCKED`,
      tag !== undefined ? [limit, tag] : [limit],
    );
  }

  /**
   * Serialises, per tag (letter case ignored), whoever matches waiting notifications to a customer:
   * a callback that stored one UNMATCHED, and a registration or lock-update giving a customer that
   * code. Neither sees the other's uncommitted rows, so without this a payment stored while its
   * customer was being registered stayed unmatched. Held until the transaction ends; taken in one
   * order, so two holders of several tags never deadlock. The statement after it sees what the
   * previous holder committed.
   */
  async lockTags(em: EntityManager, tags: string[]): Promise<void> {
    await em.query(
      `SELECT pg_advisory_xact_lock(${TAG_LOCK}, k) FROM (SELECT DISTINCT hashtext(lower(t)) AS k FROM unnest($1::text[]) AS t ORDER BY 1) AS keys`,
      [tags],
    );
  }

  /** Of these tags, the ones (as given) under which an UNMATCHED notification waits, any letter case: read in the caller's transaction. */
  async unmatchedTags(em: EntityManager, tags: string[]): Promise<string[]> {
    const rows = await preparedQuery<{ tag: string }>(em, MobileMoneyRepository.UNMATCHED_TAGS, [tags]);
    return rows.map((r) => r.tag);
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
