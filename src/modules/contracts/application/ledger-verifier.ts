import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Money } from '../../../common/money/money.js';
import { DealStatus, deriveDealState } from '../domain/credit-policy.js';

export interface LedgerDifference {
  customerdealid: number;
  customerid: number;
  field: string;
  stored: string;
  derived: string;
}

export interface LedgerReport {
  deals: number;
  payments: number;
  ledgertotal: string;
  differences: LedgerDifference[];
}

interface Row {
  id: number;
  customer_id: number;
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
  ledger_sum: string;
  ledger_count: number;
  granted_days: number;
}

/**
 * Rebuilds every deal from the ledger and compares: amountpaid must be the sum of its payment rows,
 * bonusdays the sum of its bonus grants, and balance, overpaid and nextpaymentdate what the credit
 * policy derives from them. A stored
 * UNLOCKED past its date is allowed (the overdue job locks it on its next run); the reverse is not.
 */
@Injectable()
export class LedgerVerifier {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async verify(today: string): Promise<LedgerReport> {
    const rows = (await this.dataSource.query(`
      SELECT cd.id, cd.customer_id, cd.status, cd.totalamount, cd.monthly, cd.depositpaid, cd.amountpaid, cd.balance,
             cd.overpaid, cd.bonusdays, cd.startdate, cd.nextpaymentdate,
             coalesce(p.total, 0) AS ledger_sum, coalesce(p.n, 0)::int AS ledger_count, coalesce(b.days, 0)::int AS granted_days
      FROM customer_deals cd
      LEFT JOIN (SELECT customer_deal_id, sum(amount) AS total, count(*) AS n FROM payments GROUP BY customer_deal_id) p ON p.customer_deal_id = cd.id
      LEFT JOIN (SELECT customer_deal_id, sum(days) AS days FROM bonus_grants GROUP BY customer_deal_id) b ON b.customer_deal_id = cd.id
      ORDER BY cd.id`)) as Row[];
    const differences: LedgerDifference[] = [];
    let payments = 0;
    let total = Money.zero();
    for (const row of rows) {
      payments += row.ledger_count;
      total = total.plus(Money.of(row.ledger_sum));
      const terms = { totalamount: Money.of(row.totalamount), monthly: Money.of(row.monthly), depositpaid: Money.of(row.depositpaid), startdate: row.startdate };
      const derived = deriveDealState(terms, [Money.of(row.ledger_sum)], row.bonusdays, today, row.status === DealStatus.REPOSSESSED);
      const differ = (field: string, stored: string, expected: string) => {
        if (stored !== expected) differences.push({ customerdealid: row.id, customerid: row.customer_id, field, stored, derived: expected });
      };
      differ('amountpaid', Money.of(row.amountpaid).toFixed(), derived.amountpaid.toFixed());
      differ('balance', Money.of(row.balance).toFixed(), derived.balance.toFixed());
      differ('overpaid', Money.of(row.overpaid).toFixed(), derived.overpaid.toFixed());
      differ('nextpaymentdate', row.nextpaymentdate, derived.nextpaymentdate);
      differ('bonusdays', String(row.bonusdays), String(row.granted_days));
      const lockPending = row.status === DealStatus.UNLOCKED && derived.status === DealStatus.LOCKED;
      if (!lockPending) differ('status', row.status, derived.status);
    }
    return { deals: rows.length, payments, ledgertotal: total.toFixed(), differences };
  }
}
