/**
 * The credit policy's figures written in SQL, for the read models that compute them over many deals
 * at once (collections, portfolio report). Each is the twin of a function in domain/credit-policy.ts
 * and is tested against it. `cd` is the alias of a customer_deals row, `today` a date expression.
 */

/** Deals still being paid for: the portfolio's active deals, the only ones collected on. */
export const ACTIVE_DEAL_SQL = (cd: string) => `${cd}.status IN ('LOCKED', 'UNLOCKED')`;

/**
 * amountInArrears(): the least that unlocks the device again, to the cent, capped at the balance:
 * the cost of (today − startdate − bonusdays + 1) days at monthly per 30, rounded up to the cent,
 * less the repayments (beyond the deposit) already made.
 */
export const ARREARS_SQL = (cd: string, today: string) =>
  `LEAST(${cd}.balance, GREATEST(0, CEIL(GREATEST(0, ${today} - ${cd}.startdate - ${cd}.bonusdays + 1) * ${cd}.monthly * 100 / 30) / 100 - (${cd}.amountpaid - ${cd}.depositpaid)))::numeric(14,2)`;

/** daysOverdue(): whole days since the paid-up date, never negative. */
export const DAYS_OVERDUE_SQL = (cd: string, today: string) =>
  `GREATEST(0, ${today} - ${cd}.nextpaymentdate)`;
