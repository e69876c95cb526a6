import { Money } from '../../../common/money/money.js';
import { addDays, daysBetween } from '../../../common/time/business-date.js';

/**
 * The collection rate of a range of business days (DESIGN part 8), written once here and twinned
 * in SQL by PortfolioRepository.collectionFigures (which the e2e tests check against this).
 *
 * The schedule: the deposit is paid at registration; repayment instalment k (k = 1, 2, …) of
 * `monthly` falls due on startdate + 30 × (k − 1) days — the lock rule's own calendar, since a deal
 * whose repayments bought 30 × (k − 1) days locks on that day — and the instalments together never
 * exceed totalamount − depositpaid. Bonus days do not move the schedule (they are usage given, not
 * a payment holiday, and granting them later must not change a past figure).
 *
 * What fell due in [startdate, enddate] for one deal: the scheduled repayments due by the end of
 * the range (or by today, for a range that runs past today: an instalment still ahead has not
 * fallen due; or by the day it was repossessed, if that came first), less those due before the range
 * or — if more — the repayments the customer had already made before the range (a customer who paid
 * ahead or paid off owes nothing more), never below zero. A deal repossessed before the range is
 * left out (nothing is expected of it); one repossessed later counts in full, so a past range's
 * figure never changes. A deal an import brought in already repossessed is left out of every range:
 * the old book took it back on a day the import does not say, before anything was expected here. What an imported deal had paid before its import (its OPENING ledger row)
 * counts as repaid before every range, whenever the import was.
 *
 * Collected: every repayment received in the range (payments other than DEPOSIT and OPENING), on
 * any deal — repossessed and paid-off deals included: cash received is never dropped.
 */
export interface ScheduleTerms {
  totalamount: Money;
  monthly: Money;
  depositpaid: Money;
  startdate: string;
}

/** Repayments (deposit excluded) the schedule makes due on or before `day`. */
export function scheduledRepayments(terms: ScheduleTerms, day: string): Money {
  const days = daysBetween(terms.startdate, day);
  if (days < 0) return Money.zero();
  const planned = terms.monthly.times(Math.floor(days / 30) + 1);
  const owed = terms.totalamount.minus(terms.depositpaid);
  return planned.gt(owed) ? owed : planned;
}

/** One deal's share of what fell due in [startdate, enddate] as of `today`; see the module comment. */
export function dueInRange(
  terms: ScheduleTerms,
  range: { startdate: string; enddate: string },
  repaidBefore: Money,
  repossessedOn: string | null,
  today: string = range.enddate,
): Money {
  if (repossessedOn !== null && repossessedOn < range.startdate) return Money.zero();
  const fallen = today < range.enddate ? today : range.enddate;
  const last = repossessedOn !== null && repossessedOn < fallen ? repossessedOn : fallen;
  const dayBefore = scheduledRepayments(terms, addDays(range.startdate, -1));
  const covered = Money.max(dayBefore, repaidBefore);
  return Money.max(Money.zero(), scheduledRepayments(terms, last).minus(covered));
}
