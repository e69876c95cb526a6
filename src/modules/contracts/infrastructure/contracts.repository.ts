import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PreparedStatement, preparedQuery, preparedStatement } from '../../../common/database/prepared-query.js';
import { APPEND_LEDGER_ROW, LEDGER_TOTALS_BY_DEAL, ledgerEntryValues, LedgerRow, NewLedgerEntry } from '../../accounts/ledger.sql.js';
import { ContractRow, LOCK_CONTRACT_OF, SELECT_CONTRACT } from '../contract.sql.js';
import type { PaymentRowWriter } from '../application/deal-events.js';
import { DealStatus } from '../domain/credit-policy.js';
import { JOIN_CUSTOMER } from '../../customers/customer.sql.js';

/** The state columns of a contract, as the credit policy leaves them. */
export interface DealStateUpdate {
  status: DealStatus;
  amountpaid: string;
  balance: string;
  overpaid: string;
  bonusdays: number;
  nextpaymentdate: string;
}

/** A contract as opened at registration. */
export interface NewContract extends DealStateUpdate {
  customerId: number;
  imei: string;
  dealId: number;
  dealname: string;
  totalamount: string;
  monthly: string;
  depositpaid: string;
  startdate: string;
}

/** A deal rebuilt from its ledger rows and bonus grants (ledger verification). */
export interface ContractWithLedger extends Omit<ContractRow, 'deal_id' | 'dealname' | 'imei' | 'serialnumber' | 'payg'> {
  ledger_sum: string;
  ledger_count: number;
  granted_days: number;
}

/** An unlocked deal due soon (reminders). */
export interface UnlockedDealDue {
  customerdealid: number;
  customerid: number;
  nextpaymentdate: string;
  monthly: string;
  balance: string;
  payg: string;
}

/**
 * The hottest write of the service in one round trip: the payment's ledger row (the ledger's own
 * append, published by accounts) and the deal's new state, the deal changing only when the row
 * went in (a reference its source already used changes nothing and answers null), plus the rows
 * other modules write per payment (DealEvents.writeWithPayment: an SMS receipt), which read the
 * payment and the deal's new state from `paid`. The deal row must be locked by the caller.
 * Data-modifying CTEs run once each whether or not the final SELECT reads them.
 */
function recordPaymentText(writers: readonly PaymentRowWriter[]): string {
  if (!writers.length) {
    return `WITH p AS (${APPEND_LEDGER_ROW}),
     d AS (
       UPDATE customer_deals SET status = $8, amountpaid = $9, balance = $10, overpaid = $11, bonusdays = $12, nextpaymentdate = $13, updated_at = now()
       WHERE id = $2 AND EXISTS (SELECT 1 FROM p))
     SELECT * FROM p`;
  }
  return `WITH p AS (${APPEND_LEDGER_ROW}),
     d AS (
       UPDATE customer_deals SET status = $8, amountpaid = $9, balance = $10, overpaid = $11, bonusdays = $12, nextpaymentdate = $13, updated_at = now()
       WHERE id = $2 AND EXISTS (SELECT 1 FROM p)
       RETURNING id, status, balance, nextpaymentdate),
     paid AS (
       SELECT p.id AS payment_id, p.customer_id, d.id AS customer_deal_id, p.amount, p.type, d.status, d.balance, d.nextpaymentdate, $14::boolean AS notify FROM p, d),
     ${writers.map((w) => `${w.name} AS (${w.sql})`).join(',\n     ')}
     SELECT * FROM p`;
}

/** One prepared statement per set of writers, shared by every application in the process (tests start several). */
const recordPaymentStatements = new Map<string, PreparedStatement>();
const statementOfWriters = new WeakMap<readonly PaymentRowWriter[], PreparedStatement>();

function recordPaymentStatement(writers: readonly PaymentRowWriter[]): PreparedStatement {
  let statement = statementOfWriters.get(writers);
  if (statement) return statement;
  const method = ['recordPayment', ...writers.map((w) => w.name)].join('+');
  const text = recordPaymentText(writers);
  statement = recordPaymentStatements.get(method);
  if (!statement) recordPaymentStatements.set(method, (statement = preparedStatement(ContractsRepository, method, text)));
  if (statement.text !== text) throw new Error(`payment row writers named ${method} differ within one process`);
  statementOfWriters.set(writers, statement);
  return statement;
}

/** The first key of the per-device advisory locks (lockDevice): any fixed number no other lock uses. */
const DEVICE_LOCK = 1_765_900_002;

/** The device's advisory lock (lockDevice), held until the transaction ends; `imei` is an SQL expression. */
const LOCK_DEVICE = (imei: string) => `pg_advisory_xact_lock(${DEVICE_LOCK}, hashtext(${imei}))`;

/** customer_deals and bonus_grants: written here only. */
@Injectable()
export class ContractsRepository {
  private static readonly LOCK = preparedStatement(ContractsRepository, 'lockByCustomerId', LOCK_CONTRACT_OF('$1'));

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * A deal opened at registration, under its device's lock (lockDevice), taken in the same statement:
   * whatever this transaction reads of the device's deals afterwards includes every deal committed
   * before, and a closed contract about to command the device waits for this one.
   */
  async insert(em: EntityManager, d: NewContract): Promise<number> {
    // The deal carries its device's IMEI so that one IMEI is on at most one deal still being paid
    // (customer_deals_imei_active_key, a unique index over LOCKED and UNLOCKED deals). A deal closed
    // from the start (a cash sale, PAID_OFF) goes in LOCKED and is closed right after, so that the
    // index decides for it too: a device still being paid for by someone else is not sold again.
    const closed = d.status !== DealStatus.LOCKED && d.status !== DealStatus.UNLOCKED;
    const rows = (await em.query(
      `WITH device_lock AS (SELECT ${LOCK_DEVICE('$14')})
       INSERT INTO customer_deals (customer_id, deal_id, dealname, status, totalamount, monthly, depositpaid, amountpaid, balance, overpaid, bonusdays, startdate, nextpaymentdate, imei)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14 FROM device_lock RETURNING id`,
      [d.customerId, d.dealId, d.dealname, closed ? DealStatus.LOCKED : d.status, d.totalamount, d.monthly, d.depositpaid, d.amountpaid, d.balance, d.overpaid, d.bonusdays, d.startdate, d.nextpaymentdate, d.imei],
    )) as Array<{ id: number }>;
    if (closed) await em.query('UPDATE customer_deals SET status = $2 WHERE id = $1', [rows[0].id, d.status]);
    return rows[0].id;
  }

  /**
   * Many contracts in one statement (an import): the id of each, in the order given. A repossessed one
   * is stamped now, with its reason, and marked opened repossessed (the day the old book took it back is
   * not known: the collection rate expects nothing of it).
   */
  async insertMany(em: EntityManager, deals: Array<NewContract & { repossessed: { reason: string; by: number } | null }>): Promise<number[]> {
    if (deals.length === 0) return [];
    // Devices financed before are under a closed contract that may be commanding them right now: their
    // locks (lockDevice), in one order so that two imports cannot deadlock, make it wait for this deal
    // or this deal wait for its command. New devices have no contract to meet, and take no lock: a
    // transaction may hold only so many.
    await em.query(
      `SELECT ${LOCK_DEVICE('imei')} FROM (SELECT DISTINCT imei FROM unnest($1::text[]) AS x(imei)
         WHERE EXISTS (SELECT 1 FROM customer_deals cd WHERE cd.imei = x.imei) ORDER BY imei) financed`,
      [deals.map((d) => d.imei)],
    );
    const column = <K extends keyof NewContract>(key: K) => deals.map((d) => d[key]);
    const rows = (await em.query(
      `INSERT INTO customer_deals (customer_id, deal_id, dealname, status, totalamount, monthly, depositpaid, amountpaid, balance, overpaid, bonusdays, startdate, nextpaymentdate, imei,
                                   repossessed_at, repossession_reason, repossessed_by, opened_repossessed)
       SELECT c, d, n, st, t, m, dp, ap, b, o, bd, sd, np, i, CASE WHEN rr IS NULL THEN NULL ELSE now() END, rr, rb, rr IS NOT NULL
       FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[], $9::numeric[], $10::numeric[], $11::int[], $12::date[], $13::date[], $14::text[],
                   $15::text[], $16::int[]) AS x(c, d, n, st, t, m, dp, ap, b, o, bd, sd, np, i, rr, rb)
       RETURNING id, customer_id`,
      [column('customerId'), column('dealId'), column('dealname'), column('status'), column('totalamount'), column('monthly'), column('depositpaid'), column('amountpaid'),
        column('balance'), column('overpaid'), column('bonusdays'), column('startdate'), column('nextpaymentdate'), column('imei'),
        deals.map((d) => d.repossessed?.reason ?? null), deals.map((d) => d.repossessed?.by ?? null)],
    )) as Array<{ id: number; customer_id: number }>;
    const ids = new Map(rows.map((r) => [r.customer_id, r.id]));
    return deals.map((d) => ids.get(d.customerId)!);
  }

  /** The customer's deal, locked until the transaction ends: every change of money or status goes through here. */
  async lockByCustomerId(customerId: number, em: EntityManager): Promise<ContractRow | null> {
    const rows = await preparedQuery<ContractRow>(em, ContractsRepository.LOCK, [customerId]);
    return rows[0] ?? null;
  }

  /**
   * Unlocked deals whose paid-up date has come, locked for this transaction; rows a payment holds
   * (FOR UPDATE) are skipped (the payment decides their state, the next run looks again), rows
   * collections generation is reading (FOR KEY SHARE) are not: NO KEY UPDATE is all an update of the
   * deal's state needs.
   */
  async lockOverdue(em: EntityManager, today: string, limit: number): Promise<ContractRow[]> {
    return em.query(
      `${SELECT_CONTRACT}
       WHERE cd.status = 'UNLOCKED' AND cd.nextpaymentdate <= $1
       ORDER BY cd.id LIMIT $2 FOR NO KEY UPDATE OF cd SKIP LOCKED`,
      [today, limit],
    );
  }

  /**
   * Serialises, per device (IMEI), whoever decides which deal commands it: a registration putting a
   * new deal on it (insert takes it) and a closed contract (paid off, repossessed) about to command
   * it. Without it the closed contract did not see a new deal still being committed and wrote its
   * command after the new deal's: the device's last word was the old contract's. Held until the
   * transaction ends; the statement after it sees what the previous holder committed.
   */
  async lockDevice(em: EntityManager, imei: string): Promise<void> {
    await em.query(`SELECT ${LOCK_DEVICE('$1')}`, [imei]);
  }

  /** Whether a deal older than `dealId` was on this IMEI: the device was financed before, and was told that deal's state. */
  async olderDealOnDevice(em: EntityManager, imei: string, dealId: number): Promise<boolean> {
    const rows = (await em.query(`SELECT 1 FROM customer_deals WHERE imei = $1 AND id < $2 LIMIT 1`, [imei, dealId])) as unknown[];
    return rows.length > 0;
  }

  /**
   * The customer of the newest deal opened on this IMEI after deal `dealId`, or null: a device
   * financed again belongs to its newest deal (an IMEI is free again once its deal is PAID_OFF or
   * REPOSSESSED, DESIGN part 10), whatever that deal's state now.
   */
  async newerDealOnDevice(em: EntityManager, imei: string, dealId: number): Promise<number | null> {
    const rows = (await em.query(`SELECT customer_id FROM customer_deals WHERE imei = $1 AND id > $2 ORDER BY id DESC LIMIT 1`, [imei, dealId])) as Array<{ customer_id: number }>;
    return rows[0]?.customer_id ?? null;
  }

  /** Unlocked deals whose paid-up date lies in (after, until]: what reminders are about. */
  unlockedDealsDue(after: string, until: string): Promise<UnlockedDealDue[]> {
    return this.dataSource.query(
      `SELECT cd.id AS customerdealid, cd.customer_id AS customerid, cd.nextpaymentdate, cd.monthly, cd.balance, c.payg
       FROM customer_deals cd ${JOIN_CUSTOMER('cd.customer_id')} WHERE cd.status = 'UNLOCKED' AND cd.nextpaymentdate > $1 AND cd.nextpaymentdate <= $2 ORDER BY cd.id`,
      [after, until],
    );
  }

  async insertBonusGrant(em: EntityManager, customerDealId: number, days: number, grantedBy: number, route: string): Promise<void> {
    await em.query('INSERT INTO bonus_grants (customer_deal_id, days, granted_by, route) VALUES ($1, $2, $3, $4)', [customerDealId, days, grantedBy, route]);
  }

  /** Many grants in one statement (an import's). */
  async insertBonusGrants(em: EntityManager, grants: Array<{ customerDealId: number; days: number; grantedBy: number; route: string }>): Promise<void> {
    if (grants.length === 0) return;
    await em.query('INSERT INTO bonus_grants (customer_deal_id, days, granted_by, route) SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[])', [
      grants.map((g) => g.customerDealId),
      grants.map((g) => g.days),
      grants.map((g) => g.grantedBy),
      grants.map((g) => g.route),
    ]);
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
   * The end of the temporary unlock now running on the contract's device, or null once its end has
   * been pushed. On the deal's own row, so that a statement that waited for the deal's lock reads it
   * as the unlock left it (ContractRow.unlockuntil).
   */
  async setUnlockUntil(em: EntityManager, id: number, until: Date | null): Promise<void> {
    await em.query(`UPDATE customer_deals SET unlockuntil = $2 WHERE id = $1`, [id, until]);
  }

  /**
   * The ledger row, the deal's new state and the writers' rows in one statement (recordPaymentText); null when the reference was used.
   * `notify` reaches the writers as `paid.notify`.
   */
  async recordPayment(em: EntityManager, entry: NewLedgerEntry, s: DealStateUpdate, writers: readonly PaymentRowWriter[], notify = true): Promise<LedgerRow | null> {
    const rows = await preparedQuery<LedgerRow>(em, recordPaymentStatement(writers), [
      ...ledgerEntryValues(entry),
      s.status,
      s.amountpaid,
      s.balance,
      s.overpaid,
      s.bonusdays,
      s.nextpaymentdate,
      // the statement without writers has no `paid`, and no $14
      ...(writers.length ? [notify] : []),
    ]);
    return rows[0] ?? null;
  }

  async update(em: EntityManager, id: number, s: DealStateUpdate): Promise<void> {
    await em.query(
      `UPDATE customer_deals SET status = $2, amountpaid = $3, balance = $4, overpaid = $5, bonusdays = $6, nextpaymentdate = $7, updated_at = now() WHERE id = $1`,
      [id, s.status, s.amountpaid, s.balance, s.overpaid, s.bonusdays, s.nextpaymentdate],
    );
  }

  /** Every deal with the sum and count of its ledger rows and the days of its bonus grants. */
  withLedger(): Promise<ContractWithLedger[]> {
    return this.dataSource.query(`
      SELECT cd.id, cd.customer_id, cd.status, cd.totalamount, cd.monthly, cd.depositpaid, cd.amountpaid, cd.balance,
             cd.overpaid, cd.bonusdays, cd.startdate, cd.nextpaymentdate,
             coalesce(p.total, 0) AS ledger_sum, coalesce(p.n, 0)::int AS ledger_count, coalesce(b.days, 0)::int AS granted_days
      FROM customer_deals cd
      LEFT JOIN (${LEDGER_TOTALS_BY_DEAL}) p ON p.customer_deal_id = cd.id
      LEFT JOIN (SELECT customer_deal_id, sum(days) AS days FROM bonus_grants GROUP BY customer_deal_id) b ON b.customer_deal_id = cd.id
      ORDER BY cd.id`);
  }
}
