import type { PaymentType } from './domain/payment-type.js';

/**
 * The ledger SQL accounts (which owns the payments table) publishes for other modules' statements:
 * the one append, for the statement that must record a payment and change its deal in the same
 * round trip (contracts' recordPayment, docs/performance.md; LedgerRepository.append runs the same
 * text, LedgerRepository.appendMany its many-row form for imports, and nothing else writes
 * payments), and the per-deal totals ledger verification compares.
 */

export interface NewLedgerEntry {
  customerId: number;
  customerDealId: number;
  amount: string;
  reference: string;
  narration: string;
  type: PaymentType;
  createdBy: number | null;
}

/** A payments row as the ledger answers it. */
export interface LedgerRow {
  id: string;
  customer_id: number;
  amount: string;
  reference: string;
  narration: string;
  type: PaymentType;
  created_at: Date;
}

/**
 * Appends one row, parameters $1–$7 from ledgerEntryValues(); answers no row when the reference is
 * already used by its source (the unique key on (type, reference) decides, also between concurrent
 * requests). Usable as a data-modifying CTE.
 */
export const APPEND_LEDGER_ROW = `INSERT INTO payments (customer_id, customer_deal_id, amount, reference, narration, type, created_by)
  VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (type, reference) DO NOTHING
  RETURNING id, customer_id, amount, reference, narration, type, created_at`;

export const ledgerEntryValues = (e: NewLedgerEntry): unknown[] => [e.customerId, e.customerDealId, e.amount, e.reference, e.narration, e.type, e.createdBy];

/** Sum (`total`) and count (`n`) of the ledger rows of every deal (`customer_deal_id`): a subquery. */
export const LEDGER_TOTALS_BY_DEAL = 'SELECT customer_deal_id, sum(amount) AS total, count(*) AS n FROM payments GROUP BY customer_deal_id';
