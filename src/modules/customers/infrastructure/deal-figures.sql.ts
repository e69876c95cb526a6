/**
 * The credit policy's figures written in SQL, for the read models that compute them over many deals
 * at once (collections, portfolio report). Each is the twin of a function in domain/credit-policy.ts
 * and is tested against it. `cd` is the alias of a customer_deals row, `today` a date expression.
 */

/** Deals still being paid for: the portfolio's active deals, the only ones collected on. */
export const ACTIVE_DEAL_SQL = (cd: string) => `${cd}.status IN ('LOCKED', 'UNLOCKED')`;

/** amountInArrears(): deposit + monthly × started 30-day periods, capped at the total, less what was paid. */
export const ARREARS_SQL = (cd: string, today: string) =>
  `GREATEST(0, LEAST(${cd}.totalamount, ${cd}.depositpaid + ${cd}.monthly * GREATEST(0, CEIL((${today} - ${cd}.startdate)::numeric / 30))) - ${cd}.amountpaid)`;

/** daysOverdue(): whole days since the paid-up date, never negative. */
export const DAYS_OVERDUE_SQL = (cd: string, today: string) =>
  `GREATEST(0, ${today} - ${cd}.nextpaymentdate)`;

/**
 * Repayments (beyond the deposit) the schedule expects by the end of `day`: monthly × started
 * 30-day periods since the start, capped at what the deposit left to pay; 0 before the start.
 */
export const PLANNED_REPAYMENT_SQL = (cd: string, day: string) =>
  `LEAST(${cd}.totalamount - ${cd}.depositpaid, ${cd}.monthly * GREATEST(0, CEIL((${day} - ${cd}.startdate)::numeric / 30)))`;
