import { conflict, DomainError, ErrorKind, notFound } from '../../../common/errors/domain-error.js';
import { MAX_AMOUNT, Money } from '../../../common/money/money.js';
import { EnumValue, stringEnum } from '../../../common/types/string-enum.js';

/**
 * What became of a stored notification:
 * - `APPLIED`: credited to its customer's deal
 * - `UNMATCHED`: no customer has its tag (yet): matched again on every look-up and when a customer gets that code
 * - `HELD`: crediting failed: waiting for an operator to assign it, with the reason
 */
export const NotificationStatus = stringEnum('APPLIED', 'UNMATCHED', 'HELD');
export type NotificationStatus = EnumValue<typeof NotificationStatus>;

/** What the callback answers about one notification. */
export const CallbackOutcome = stringEnum('APPLIED', 'UNMATCHED', 'DUPLICATE');
export type CallbackOutcome = EnumValue<typeof CallbackOutcome>;

export const ReconStatus = stringEnum('APPLIED', 'ALREADY_APPLIED', 'UNMATCHED', 'NOT_FOUND', 'FAILED');
export type ReconStatus = EnumValue<typeof ReconStatus>;

export type ProviderStatus = 'SUCCESS' | 'FAILED' | 'PENDING';

/** A transaction as the provider reports it. */
export interface ProviderTransaction {
  id: string;
  amount: number;
  tag: string;
  status: ProviderStatus;
  timestamp?: string;
}

/**
 * A repeated notification id is harmless when it carries the same amount (the provider retried)
 * and a conflict when it does not: something is wrong upstream and no one may guess which is right.
 */
export function checkRepeat(id: string, storedAmount: Money, amount: Money): void {
  if (!storedAmount.eq(amount)) {
    throw conflict('TRANSACTION_AMOUNT_MISMATCH', `Transaction ${id} was already received with amount ${storedAmount.toFixed()}, not ${amount.toFixed()}.`);
  }
}

/** A tag column holds at most this many characters (DESIGN part 10). */
const TAG_MAX = 255;

/**
 * A payer's tag as it is stored and matched: trimmed and in Unicode NFKC, so that a code typed in
 * full-width characters (`ＰＡＹＧ－１`) is the code it looks like (PAYG codes are ASCII). A tag whose
 * NFKC form would outgrow its column is kept as typed, trimmed: it cannot be anyone's code anyway.
 */
export function matchableTag(tag: string): string {
  const folded = tag.normalize('NFKC').trim();
  return folded.length <= TAG_MAX ? folded : tag.trim();
}

/** The ledger's amounts are numeric(14,2): below this, any amount can be stored. */
const STORABLE_BELOW = Money.of(1_000_000_000_000);

/**
 * What the service does with the amount of a transaction the provider reports SUCCESS (look-up and
 * reconciliation): credit it; hold it for an operator, with the reason, when it is money the service
 * must not credit by itself (above MAX_AMOUNT, or finer than a cent: kept cut down to cents, the
 * provider's figure in the reason and in the stored body); or refuse it when it is not a payment at all.
 */
export type ProviderAmount = { credit: Money } | { hold: Money; reason: string } | { refuse: string };

export function assessProviderAmount(amount: number): ProviderAmount {
  if (!Number.isFinite(amount) || amount <= 0) return { refuse: `amount ${amount} is not a payment` };
  const cents = Money.truncated(amount);
  if (!cents.isPositive()) return { refuse: `amount ${amount} is less than a cent` };
  if (!cents.lt(STORABLE_BELOW)) return { refuse: `amount ${amount} is beyond what the ledger can hold` };
  if (!inCents(amount)) {
    return { hold: cents, reason: `Amount ${amount} has more than two decimal places: an operator must check it (kept as ${cents.toFixed()}).` };
  }
  if (cents.gt(Money.of(MAX_AMOUNT))) return { hold: cents, reason: `Amount ${amount} is above the ${MAX_AMOUNT} credited automatically: an operator must check it.` };
  return { credit: cents };
}

function inCents(amount: number): boolean {
  try {
    Money.of(amount);
    return true;
  } catch {
    return false;
  }
}

export const transactionNotFound = (id: string) => notFound('TRANSACTION_NOT_FOUND', `Transaction ${id} not found.`);
export const transactionAlreadyApplied = (id: string) => conflict('TRANSACTION_ALREADY_APPLIED', `Transaction ${id} is already applied.`);
export const providerNotConfigured = () =>
  new DomainError(ErrorKind.UNAVAILABLE, 'PROVIDER_NOT_CONFIGURED', 'Mobile-money provider is not configured (MOBILE_MONEY_API_URL).');
export const providerFailed = (detail: string) => new DomainError(ErrorKind.UPSTREAM_FAILED, 'PROVIDER_FAILED', `Mobile-money provider failed: ${detail}.`);
