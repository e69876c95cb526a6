import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ACTIVE_DEAL_SQL, ARREARS_SQL } from '../../contracts/contract.sql.js';

export interface DealFigures {
  activedeals: number;
  outstanding: string;
  arrears: string;
  par30balance: string;
  repossessedbalance: string;
  bookbalance: string;
  locked: number;
  unlocked: number;
  paidoff: number;
  repossessed: number;
}

export interface CollectionFigures {
  due: string;
  collected: string;
}

/** Ledger rows that are not cash received as repayment: the deposit, and the opening balance of an imported deal. */
const NOT_REPAYMENT = `('DEPOSIT', 'OPENING')`;

/**
 * scheduledRepayments() of domain/collection-rate.ts: repayments due on or before `day` (instalment
 * k on startdate + 30 × (k − 1)), capped at what the deposit left to pay; 0 before the start.
 */
const SCHEDULED_SQL = (cd: string, day: string) =>
  `CASE WHEN ${day} < ${cd}.startdate THEN 0
        ELSE LEAST(${cd}.totalamount - ${cd}.depositpaid, ${cd}.monthly * ((${day} - ${cd}.startdate) / 30 + 1)) END`;

/**
 * The portfolio report is a read model over customer_deals and payments, summed in SQL in one pass
 * each (a report over a million deals must not bring them into the process).
 */
@Injectable()
export class PortfolioRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async dealFigures(today: string): Promise<DealFigures> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*) FILTER (WHERE active)::int AS activedeals,
              COALESCE(sum(balance) FILTER (WHERE active), 0) AS outstanding,
              COALESCE(sum(arrears) FILTER (WHERE active), 0) AS arrears,
              COALESCE(sum(balance) FILTER (WHERE active AND nextpaymentdate < $1::date - 30), 0) AS par30balance,
              COALESCE(sum(balance) FILTER (WHERE status = 'REPOSSESSED'), 0) AS repossessedbalance,
              COALESCE(sum(balance), 0) AS bookbalance,
              count(*) FILTER (WHERE status = 'LOCKED')::int AS locked,
              count(*) FILTER (WHERE status = 'UNLOCKED')::int AS unlocked,
              count(*) FILTER (WHERE status = 'PAID_OFF')::int AS paidoff,
              count(*) FILTER (WHERE status = 'REPOSSESSED')::int AS repossessed
       FROM (SELECT cd.status, cd.balance, cd.nextpaymentdate, ${ACTIVE_DEAL_SQL('cd')} AS active,
                    CASE WHEN ${ACTIVE_DEAL_SQL('cd')} THEN ${ARREARS_SQL('cd', '$1::date')} ELSE 0 END AS arrears
             FROM customer_deals cd) d`,
      [today],
    )) as DealFigures[];
    return row;
  }

  /**
   * dueInRange() of domain/collection-rate.ts summed over every deal that started by the end of the
   * range (by today, for a range that runs past it: what is still ahead has not fallen due), and
   * every repayment received in the range (business days of `timeZone`), whatever its
   * deal's status now. Nothing here reads the deals' current balances or statuses, only their terms,
   * the day they were repossessed and the ledger, so a past range's figures never change. A deal an
   * import brought in already repossessed is left out of every range (when the old book took it back
   * is not known; the import's time is not it). An imported
   * deal's OPENING row (what was paid before the import) is not cash collected in any range, but it
   * was repaid before every range: a deal imported paid ahead or paid off owes nothing in them.
   */
  async collectionFigures(startdate: string, enddate: string, today: string, timeZone: string): Promise<CollectionFigures> {
    const [row] = (await this.dataSource.query(
      `WITH deal AS (
         SELECT cd.id, cd.startdate, cd.totalamount, cd.depositpaid, cd.monthly,
                (cd.repossessed_at AT TIME ZONE $3)::date AS repossessedon,
                COALESCE((SELECT sum(p.amount) FROM payments p
                          WHERE p.customer_deal_id = cd.id AND p.type <> 'DEPOSIT'
                            AND (p.type = 'OPENING' OR p.created_at < $1::date::timestamp AT TIME ZONE $3)), 0) AS repaidbefore
         FROM customer_deals cd
         WHERE cd.startdate <= LEAST($2::date, $4::date) AND NOT cd.opened_repossessed
           AND (cd.repossessed_at IS NULL OR (cd.repossessed_at AT TIME ZONE $3)::date >= $1::date))
       SELECT (SELECT COALESCE(sum(GREATEST(0, ${SCHEDULED_SQL('d', 'LEAST($2::date, $4::date, COALESCE(d.repossessedon, $2::date))')}
                                          - GREATEST(${SCHEDULED_SQL('d', '($1::date - 1)')}, d.repaidbefore))), 0)
               FROM deal d) AS due,
              (SELECT COALESCE(sum(p.amount), 0) FROM payments p
               WHERE p.type NOT IN ${NOT_REPAYMENT}
                 AND p.created_at >= $1::date::timestamp AT TIME ZONE $3
                 AND p.created_at < ($2::date + 1)::timestamp AT TIME ZONE $3) AS collected`,
      [startdate, enddate, timeZone, today],
    )) as CollectionFigures[];
    return row;
  }
}
