import { conflict, DomainError, ErrorKind, notFound } from '../../../common/errors/domain-error.js';
import { Money } from '../../../common/money/money.js';

export enum NotificationStatus {
  APPLIED = 'APPLIED',
  /** no customer has its tag (yet): matched again on every look-up and when a customer gets that code */
  UNMATCHED = 'UNMATCHED',
  /** crediting failed: waiting for an operator to assign it, with the reason */
  HELD = 'HELD',
}

/** What the callback answers about one notification. */
export enum CallbackOutcome {
  APPLIED = 'APPLIED',
  UNMATCHED = 'UNMATCHED',
  DUPLICATE = 'DUPLICATE',
}

export enum ReconStatus {
  APPLIED = 'APPLIED',
  ALREADY_APPLIED = 'ALREADY_APPLIED',
  UNMATCHED = 'UNMATCHED',
  NOT_FOUND = 'NOT_FOUND',
  FAILED = 'FAILED',
}

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

export const transactionNotFound = (id: string) => notFound('TRANSACTION_NOT_FOUND', `Transaction ${id} not found.`);
export const transactionAlreadyApplied = (id: string) => conflict('TRANSACTION_ALREADY_APPLIED', `Transaction ${id} is already applied.`);
export const providerNotConfigured = () =>
  new DomainError(ErrorKind.UNAVAILABLE, 'PROVIDER_NOT_CONFIGURED', 'Mobile-money provider is not configured (MOBILE_MONEY_API_URL).');
export const providerFailed = (detail: string) => new DomainError(ErrorKind.UPSTREAM_FAILED, 'PROVIDER_FAILED', `Mobile-money provider failed: ${detail}.`);
