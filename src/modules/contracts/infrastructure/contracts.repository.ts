import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { preparedQuery } from '../../../common/database/prepared-query.js';
import type { LedgerRow, NewLedgerEntry } from '../../accounts/infrastructure/ledger.repository.js';
import { DealStatus } from '../domain/credit-policy.js';

export interface CustomerDealRow {
  id: number;
  customer_id: number;
  deal_id: number;
  dealname: string;
  status: DealStatus;
  totalamount: string;
  monthly: string;
  depositpaid: string;
  amountpaid: string;
  balance: string;
  overpaid: string;
  bonusdays: number;
  startdate: string;
  nextpaymentdate: string;
  imei: string;
  serialnumber: string | null;
  payg: string;
}

export interface DealStateUpdate {
  status: DealStatus;
  amountpaid: string;
  balance: string;
  overpaid: string;
  bonusdays: number;
  nextpaymentdate: string;
}

const COLUMNS = `cd.id, cd.customer_id, cd.deal_id, cd.dealname, cd.status, cd.totalamount, cd.monthly, cd.depositpaid, cd.amountpaid,
  cd.balance, cd.overpaid, cd.bonusdays, cd.startdate, cd.nextpaymentdate, c.imei, c.serialnumber, c.payg`;

@Injectable()
export class CustomerDealsRepository {
  async insert(
    em: EntityManager,
    d: { customerId: number; imei: string; dealId: number; dealname: string; totalamount: string; monthly: string; depositpaid: string; startdate: string } & DealStateUpdate,
  ): Promise<number> {
    // The deal carries its device's IMEI so that one IMEI is on at most one deal still being paid
    // (customer_deals_imei_active_key, a unique index over LOCKED and UNLOCKED deals).
    const rows = (await em.query(
      `INSERT INTO customer_deals (customer_id, deal_id, dealname, status, totalamount, monthly, depositpaid, amountpaid, balance, overpaid, bonusdays, startdate, nextpaymentdate, imei)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
      [d.customerId, d.dealId, d.dealname, d.status, d.totalamount, d.monthly, d.depositpaid, d.amountpaid, d.balance, d.overpaid, d.bonusdays, d.startdate, d.nextpaymentdate, d.imei],
    )) as Array<{ id: number }>;
    return rows[0].id;
  }

  /** The customer's deal, locked until the transaction ends: every change of money or status goes through here. */
  async lockByCustomerId(customerId: number, em: EntityManager): Promise<CustomerDealRow | null> {
    const rows = await preparedQuery<CustomerDealRow>(
      em,
      'customer_deal_lock',
      `SELECT ${COLUMNS} FROM customer_deals cd JOIN customers c ON c.id = cd.customer_id WHERE cd.customer_id = $1 FOR UPDATE OF cd`,
      [customerId],
    );
    return rows[0] ?? null;
  }

  /**
   * Runs another module's single-row INSERT (`insert`: SQL of a data-modifying CTE named `src`,
   * returning `customer_id`) and, in the same statement, locks that customer's deal: one round trip
   * instead of two on the callback path (docs/performance.md). Answers undefined when the insert
   * wrote nothing, `{ customerId: null }` when it wrote a row for no customer, and the locked deal
   * (null when that customer has none) otherwise.
   */
  async insertThenLock(
    em: EntityManager,
    name: string,
    insert: string,
    values: unknown[],
  ): Promise<{ customerId: number | null; deal: CustomerDealRow | null } | undefined> {
    const rows = await preparedQuery<CustomerDealRow & { src_customer_id: number | null }>(
      em,
      name,
      `WITH ${insert},
       deal AS (SELECT ${COLUMNS} FROM customer_deals cd JOIN customers c ON c.id = cd.customer_id
                WHERE cd.customer_id = (SELECT customer_id FROM src) FOR UPDATE OF cd)
       SELECT src.customer_id AS src_customer_id, deal.* FROM src LEFT JOIN deal ON true`,
      values,
    );
    if (rows.length === 0) return undefined;
    const { src_customer_id, ...deal } = rows[0];
    return { customerId: src_customer_id, deal: deal.id === null ? null : (deal as CustomerDealRow) };
  }

  /**
   * Unlocked deals whose paid-up date has come, locked for this transaction; rows a payment holds
   * are skipped (the payment decides their state, the next run looks again).
   */
  async lockOverdue(em: EntityManager, today: string, limit: number): Promise<CustomerDealRow[]> {
    return em.query(
      `SELECT ${COLUMNS} FROM customer_deals cd JOIN customers c ON c.id = cd.customer_id
       WHERE cd.status = 'UNLOCKED' AND cd.nextpaymentdate <= $1
       ORDER BY cd.id LIMIT $2 FOR UPDATE OF cd SKIP LOCKED`,
      [today, limit],
    );
  }

  async insertBonusGrant(em: EntityManager, customerDealId: number, days: number, grantedBy: number, route: string): Promise<void> {
    await em.query('INSERT INTO bonus_grants (customer_deal_id, days, granted_by, route) VALUES ($1, $2, $3, $4)', [customerDealId, days, grantedBy, route]);
  }

  async markRepossessed(em: EntityManager, id: number, reason: string, by: number): Promise<Date> {
    // TypeORM answers an UPDATE with [rows, affected count].
    const [rows] = (await em.query(
      `UPDATE customer_deals SET status = 'REPOSSESSED', repossessed_at = now(), repossession_reason = $2, repossessed_by = $3, updated_at = now()
       WHERE id = $1 RETURNING repossessed_at`,
      [id, reason, by],
    )) as [Array<{ repossessed_at: Date }>, number];
    return rows[0].repossessed_at;
  }

  /**
   * The hottest write of the service in one round trip: the payment's ledger row and the deal's new
   * state, the deal changing only when the row went in (a reference already in the ledger changes
   * nothing and answers null; references are unique per source, the payment's type). The deal row must be locked by the caller. This is the one place the
   * customers module writes the ledger table of accounts: one statement instead of two on every
   * payment (docs/performance.md).
   */
  async recordPayment(em: EntityManager, entry: NewLedgerEntry, s: DealStateUpdate): Promise<LedgerRow | null> {
    const rows = await preparedQuery<LedgerRow>(
      em,
      'customer_deal_record_payment',
      `WITH p AS (
         INSERT INTO payments (customer_id, customer_deal_id, amount, reference, narration, type, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (type, reference) DO NOTHING
         RETURNING id, customer_id, amount, reference, narration, type, created_at),
       d AS (
         UPDATE customer_deals SET status = $8, amountpaid = $9, balance = $10, overpaid = $11, bonusdays = $12, nextpaymentdate = $13, updated_at = now()
         WHERE id = $2 AND EXISTS (SELECT 1 FROM p))
       SELECT * FROM p`,
      [entry.customerId, entry.customerDealId, entry.amount, entry.reference, entry.narration, entry.type, entry.createdBy, s.status, s.amountpaid, s.balance, s.overpaid, s.bonusdays, s.nextpaymentdate],
    );
    return rows[0] ?? null;
  }

  async update(em: EntityManager, id: number, s: DealStateUpdate): Promise<void> {
    await em.query(
      `UPDATE customer_deals SET status = $2, amountpaid = $3, balance = $4, overpaid = $5, bonusdays = $6, nextpaymentdate = $7, updated_at = now() WHERE id = $1`,
      [id, s.status, s.amountpaid, s.balance, s.overpaid, s.bonusdays, s.nextpaymentdate],
    );
  }
}
