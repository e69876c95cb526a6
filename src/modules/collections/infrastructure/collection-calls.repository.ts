import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { param } from '../../../common/database/sql.js';
import { ACTIVE_DEAL_SQL, ARREARS_SQL, DAYS_OVERDUE_SQL } from '../../contracts/contract.sql.js';
import { CUSTOMER_CONTACT_COLUMNS, JOIN_CUSTOMER } from '../../customers/customer.sql.js';
import { CALL_FIGURES } from '../collection-call.sql.js';
import { CallStatus, Resolution } from '../domain/collection-call.js';

/** A call as the collectors' list shows it: with the customer's name and numbers (one query, no N+1). */
export interface CallRow {
  callid: number;
  customerid: number;
  customerdealid: number;
  fullname: string;
  telephone: string;
  payg: string | null;
  status: CallStatus;
  amountinarrears: string;
  daysoverdue: number;
  nextpaymentdate: string;
  assignedto: number | null;
  notes: string | null;
  promisedate: string | null;
  resolution: Resolution | null;
  createdat: Date;
  calledat: Date | null;
  resolvedat: Date | null;
  updatedat: Date;
}

/** A call with its figures as of `today` (an SQL date expression; see CALL_FIGURES). */
const SELECT_CALL = (today: string) => `
  SELECT k.id AS callid, k.customer_id AS customerid, k.customer_deal_id AS customerdealid, ${CUSTOMER_CONTACT_COLUMNS}, k.status,
         ${CALL_FIGURES('k', 'cd', today)},
         k.assigned_to AS assignedto, k.notes, k.promisedate,
         k.resolution, k.created_at AS createdat, k.called_at AS calledat, k.resolved_at AS resolvedat, k.updated_at AS updatedat
  FROM collection_calls k ${JOIN_CUSTOMER('k.customer_id')} JOIN customer_deals cd ON cd.id = k.customer_deal_id`;

/**
 * Collections read the deals they collect on straight from customer_deals, in the same statement
 * that opens the calls: that is what makes generation atomic and idempotent under concurrency
 * (the partial unique index on open calls decides), which a read through another service could not.
 */
@Injectable()
export class CollectionCallsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private q(em?: EntityManager) {
    return em ?? this.dataSource.manager;
  }

  /**
   * Opens a PENDING call for every overdue active deal (paid-up date today or earlier: locked, DESIGN
   * part 8) without an open call; answers how many were opened. Repossessed and paid-off deals are
   * never collected on.
   *
   * Each deal is read under a key-share lock, skipping those a change holds (a payment locks its deal
   * FOR UPDATE): read as overdue before a payment committed, a deal got a new call right after that
   * payment closed its old one, and nothing closed it again. One skipped gets its call at the next run
   * if it is still overdue. The weakest lock that does this: the overdue run (FOR NO KEY UPDATE, SKIP
   * LOCKED) does not take it for a change and still locks the deals generation is reading.
   */
  async openForOverdueDeals(today: string): Promise<number> {
    const [{ n }] = (await this.q().query(
      `WITH opened AS (
         INSERT INTO collection_calls (customer_id, customer_deal_id, amountinarrears, daysoverdue, nextpaymentdate)
         SELECT cd.customer_id, cd.id, ${ARREARS_SQL('cd', '$1::date')}, ${DAYS_OVERDUE_SQL('cd', '$1::date')}, cd.nextpaymentdate
         FROM customer_deals cd
         WHERE ${ACTIVE_DEAL_SQL('cd')} AND cd.nextpaymentdate <= $1::date
         FOR KEY SHARE OF cd SKIP LOCKED
         ON CONFLICT (customer_deal_id) WHERE status <> 'RESOLVED' DO NOTHING
         RETURNING 1)
       SELECT count(*)::int AS n FROM opened`,
      [today],
    )) as Array<{ n: number }>;
    return n;
  }

  /**
   * Brings the arrears and days overdue of open calls on active deals up to today; answers how many
   * changed. A call left open on a repossessed or paid-off deal keeps the figures it had.
   */
  async refreshOpenCalls(today: string): Promise<number> {
    const [, affected] = (await this.q().query(
      `UPDATE collection_calls k
         SET amountinarrears = f.arrears, daysoverdue = f.days, nextpaymentdate = f.due, updated_at = now()
       FROM (SELECT cd.id, ${ARREARS_SQL('cd', '$1::date')} AS arrears, ${DAYS_OVERDUE_SQL('cd', '$1::date')} AS days, cd.nextpaymentdate AS due
             FROM customer_deals cd WHERE ${ACTIVE_DEAL_SQL('cd')}) f
       WHERE f.id = k.customer_deal_id AND k.status <> 'RESOLVED'
         AND (k.amountinarrears, k.daysoverdue, k.nextpaymentdate) IS DISTINCT FROM (f.arrears, f.days, f.due)`,
      [today],
    )) as [unknown, number];
    return affected;
  }

  findById(id: number, today: string, em?: EntityManager): Promise<CallRow | null> {
    return this.q(em)
      .query(`${SELECT_CALL('$2::date')} WHERE k.id = $1`, [id, today])
      .then((rows: CallRow[]) => rows[0] ?? null);
  }

  /** The call's status and assignee under a row lock, so two updates of one call apply one after the other. */
  async lockCall(
    em: EntityManager,
    id: number,
  ): Promise<{ status: CallStatus; assignedto: number | null } | null> {
    const rows = (await em.query(
      'SELECT status, assigned_to AS assignedto FROM collection_calls WHERE id = $1 FOR UPDATE',
      [id],
    )) as Array<{ status: CallStatus; assignedto: number | null }>;
    return rows[0] ?? null;
  }

  async assign(em: EntityManager, id: number, userId: number, by: number): Promise<void> {
    await em.query('UPDATE collection_calls SET assigned_to = $2, updated_by = $3, updated_at = now() WHERE id = $1', [id, userId, by]);
  }

  async moveTo(
    em: EntityManager,
    id: number,
    change: { status: CallStatus; notes: string; promisedate?: string; by: number },
  ): Promise<void> {
    await em.query(
      `UPDATE collection_calls
         SET status = $2::varchar, notes = $3, promisedate = COALESCE($4::date, promisedate), updated_by = $5, updated_at = now(),
             called_at = CASE WHEN $2::varchar = 'CALLED' THEN now() ELSE called_at END,
             resolved_at = CASE WHEN $2::varchar = 'RESOLVED' THEN now() ELSE resolved_at END,
             resolution = CASE WHEN $2::varchar = 'RESOLVED' THEN 'COLLECTOR' ELSE resolution END
       WHERE id = $1`,
      [id, change.status, change.notes, change.promisedate ?? null, change.by],
    );
  }

  /** Closes the deal's open call, if any, in the caller's transaction; answers whether one was closed. */
  async resolveOpenCall(em: EntityManager, customerDealId: number, resolution: Resolution): Promise<boolean> {
    const [, affected] = (await em.query(
      `UPDATE collection_calls SET status = 'RESOLVED', resolution = $2, resolved_at = now(), updated_at = now()
       WHERE customer_deal_id = $1 AND status <> 'RESOLVED'`,
      [customerDealId, resolution],
    )) as [unknown, number];
    return affected > 0;
  }

  async list(
    filter: { status?: CallStatus; assignedto?: number; customerid?: number },
    today: string,
    page: number,
    limit: number,
  ): Promise<{ rows: CallRow[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.status) where.push(`k.status = ${param(params, filter.status)}`);
    if (filter.assignedto) where.push(`k.assigned_to = ${param(params, filter.assignedto)}`);
    if (filter.customerid) where.push(`k.customer_id = ${param(params, filter.customerid)}`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = (await this.q().query(
      `SELECT count(*)::int AS total FROM collection_calls k ${clause}`,
      params,
    )) as Array<{ total: number }>;
    const day = `${param(params, today)}::date`;
    const rows = (await this.q().query(
      `${SELECT_CALL(day)} ${clause} ORDER BY daysoverdue DESC, k.id ASC LIMIT ${param(params, limit)} OFFSET ${param(params, (page - 1) * limit)}`,
      params,
    )) as CallRow[];
    return { rows, total };
  }

  statusCounts(): Promise<Array<{ status: CallStatus; n: number }>> {
    return this.q().query('SELECT status, count(*)::int AS n FROM collection_calls GROUP BY status');
  }
}
