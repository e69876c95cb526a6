import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { conflict } from '../../../common/errors/domain-error.js';
import { Money } from '../../../common/money/money.js';
import { PaymentType } from '../domain/payment-type.js';
import { LedgerRow } from '../ledger.sql.js';
import { LedgerRepository } from '../infrastructure/ledger.repository.js';


export interface PaymentView {
  paymentid: number;
  customerid: number;
  amount: number;
  reference: string;
  narration: string;
  type: PaymentType;
  createdat: string;
}

export const referenceUsed = (reference: string) => conflict('PAYMENT_REFERENCE_USED', `Reference ${reference} is already used by another payment.`);

export function paymentView(row: LedgerRow): PaymentView {
  return {
    paymentid: Number(row.id),
    customerid: row.customer_id,
    amount: Money.of(row.amount).toNumber(),
    reference: row.reference,
    narration: row.narration,
    type: row.type,
    createdat: new Date(row.created_at).toISOString(),
  };
}

/** The payment ledger: append-only rows, the record of truth for every balance. */
@Injectable()
export class LedgerService {
  constructor(private readonly ledger: LedgerRepository) {}

  /**
   * Records one payment inside the caller's transaction. A reference its source used before is a 409;
   * the unique index on (type, reference) decides, so two concurrent requests with one reference cannot
   * both record, while the same string from two sources (a provider's id, an operator's receipt, the
   * service's own deposit reference) is two payments.
   */
  async record(
    em: EntityManager,
    entry: { customerId: number; customerDealId: number; amount: Money; reference: string; narration: string; type: PaymentType; createdBy: number | null },
  ): Promise<PaymentView> {
    const row = await this.ledger.append(em, { ...entry, amount: entry.amount.toFixed() });
    if (!row) throw referenceUsed(entry.reference);
    return paymentView(row);
  }

  /** record() for many payments in one round trip (an import), in the order given; a used reference is the same 409. */
  async recordMany(
    em: EntityManager,
    entries: Array<{ customerId: number; customerDealId: number; amount: Money; reference: string; narration: string; type: PaymentType; createdBy: number | null }>,
  ): Promise<void> {
    const written = await this.ledger.appendMany(em, entries.map((e) => ({ ...e, amount: e.amount.toFixed() })));
    if (written.length === entries.length) return;
    const seen = new Set(written.map((w) => `${w.type}\0${w.reference}`));
    throw referenceUsed(entries.find((e) => !seen.has(`${e.type}\0${e.reference}`))!.reference);
  }

  async recent(customerId: number, limit: number): Promise<PaymentView[]> {
    return (await this.ledger.recent(customerId, limit)).map(paymentView);
  }

  /** Of these references, the ones its source (type) already used. */
  referencesUsed(type: PaymentType, references: string[], em?: EntityManager): Promise<Set<string>> {
    return this.ledger.referencesUsed(type, references, em);
  }

  referenceUsed(type: PaymentType, reference: string, em?: EntityManager): Promise<boolean> {
    return this.ledger.referenceUsed(type, reference, em);
  }
}
