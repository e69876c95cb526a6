import { Injectable } from '@nestjs/common';
import { Money } from '../../../common/money/money.js';
import { DealStatus, deriveDealState } from '../domain/credit-policy.js';
import { ContractsRepository } from '../infrastructure/contracts.repository.js';
import { termsOf } from './contract-view.js';

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

/**
 * Rebuilds every deal from the ledger and compares: amountpaid must be the sum of its payment rows,
 * bonusdays the sum of its bonus grants, and balance, overpaid and nextpaymentdate what the credit
 * policy derives from them. A stored
 * UNLOCKED past its date is allowed (the overdue job locks it on its next run); the reverse is not.
 */
@Injectable()
export class LedgerVerifier {
  constructor(private readonly contracts: ContractsRepository) {}

  async verify(today: string): Promise<LedgerReport> {
    const rows = await this.contracts.withLedger();
    const differences: LedgerDifference[] = [];
    let payments = 0;
    let total = Money.zero();
    for (const row of rows) {
      payments += row.ledger_count;
      total = total.plus(Money.of(row.ledger_sum));
      const derived = deriveDealState(termsOf(row), [Money.of(row.ledger_sum)], row.bonusdays, today, row.status === DealStatus.REPOSSESSED);
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
