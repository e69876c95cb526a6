import { ACTIVE_DEAL_SQL, ARREARS_SQL, DAYS_OVERDUE_SQL } from '../contracts/contract.sql.js';

/**
 * What other modules may read of collection_calls in their own SQL (the exports): a call's figures.
 * Published here, at the module's root; collection_calls is written by collections alone.
 */

/**
 * A call's `amountinarrears, daysoverdue, nextpaymentdate` as of `today` (an SQL date expression),
 * from a collection_calls row `k` joined to its deal `cd`: an open call on a deal still being paid
 * shows what must be paid today to unlock (DESIGN part 8), whenever generation last ran; a resolved
 * call, or one left open on a repossessed or paid-off deal, the figures it was closed with.
 */
export function CALL_FIGURES(k: string, cd: string, today: string): string {
  const live = `${k}.status <> 'RESOLVED' AND ${ACTIVE_DEAL_SQL(cd)}`;
  return `CASE WHEN ${live} THEN ${ARREARS_SQL(cd, today)} ELSE ${k}.amountinarrears END AS amountinarrears,
          CASE WHEN ${live} THEN ${DAYS_OVERDUE_SQL(cd, today)} ELSE ${k}.daysoverdue END AS daysoverdue,
          CASE WHEN ${live} THEN ${cd}.nextpaymentdate ELSE ${k}.nextpaymentdate END AS nextpaymentdate`;
}
