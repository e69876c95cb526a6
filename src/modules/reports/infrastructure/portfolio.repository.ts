import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  ACTIVE_DEAL_SQL,
  ARREARS_SQL,
  PLANNED_REPAYMENT_SQL,
} from '../../customers/infrastructure/deal-figures.sql.js';

export interface DealFigures {
  activedeals: number;
  outstanding: string;
  arrears: string;
  par30balance: string;
  locked: number;
  unlocked: number;
  paidoff: number;
  repossessed: number;
}

export interface CollectionFigures {
  due: string;
  collected: string;
}

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
   * For the business days [startdate, enddate]: what the schedule made due in the range that earlier
   * repayments had not already covered, and the repayments received in it (deposits excluded from
   * both; repossessed deals left out, nothing being expected of them).
   */
  async collectionFigures(startdate: string, enddate: string, timeZone: string): Promise<CollectionFigures> {
    const [row] = (await this.dataSource.query(
      `WITH since AS (
         SELECT p.customer_deal_id,
                sum(p.amount) AS since_start,
                sum(p.amount) FILTER (WHERE p.created_at < ($2::date + 1)::timestamp AT TIME ZONE $3) AS during
         FROM payments p
         WHERE p.type <> 'DEPOSIT' AND p.created_at >= $1::date::timestamp AT TIME ZONE $3
         GROUP BY p.customer_deal_id)
       SELECT COALESCE(sum(GREATEST(0, ${PLANNED_REPAYMENT_SQL('cd', '$2::date')}
                       - GREATEST(${PLANNED_REPAYMENT_SQL('cd', '($1::date - 1)')},
                                  cd.amountpaid - cd.depositpaid - COALESCE(s.since_start, 0)))), 0) AS due,
              COALESCE(sum(s.during), 0) AS collected
       FROM customer_deals cd LEFT JOIN since s ON s.customer_deal_id = cd.id
       WHERE cd.status <> 'REPOSSESSED' AND cd.startdate <= $2::date`,
      [startdate, enddate, timeZone],
    )) as CollectionFigures[];
    return row;
  }
}
