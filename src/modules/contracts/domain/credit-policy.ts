import { daysBought, Money } from '../../../common/money/money.js';
import { addDays, daysBetween } from '../../../common/time/business-date.js';
import { EnumValue, stringEnum } from '../../../common/types/string-enum.js';

export const DealStatus = stringEnum('LOCKED', 'UNLOCKED', 'PAID_OFF', 'REPOSSESSED');
export type DealStatus = EnumValue<typeof DealStatus>;

/** What a customer signed up to, copied from the deal at registration. */
export interface ContractTerms {
  totalamount: Money;
  monthly: Money;
  depositpaid: Money;
  startdate: string;
}

export interface DealState {
  amountpaid: Money;
  balance: Money;
  overpaid: Money;
  nextpaymentdate: string;
  status: DealStatus;
}

/**
 * The credit policy (DESIGN part 5): payments after the deposit buy days of use at `monthly` per
 * 30 days; the device is unlocked while the paid-up date lies ahead of today, released for good at
 * a zero balance, and stays locked for good once repossessed.
 */
export function stateFromAmountPaid(terms: ContractTerms, amountpaid: Money, bonusdays: number, today: string, repossessed: boolean): DealState {
  const balance = Money.max(Money.zero(), terms.totalamount.minus(amountpaid));
  const overpaid = Money.max(Money.zero(), amountpaid.minus(terms.totalamount));
  // Days are bought up to the end of the term: what is paid beyond the total is overpaid, not more days
  // (so no payment the validator accepts can push the date out of range, and a paid-off date stays put).
  const creditable = amountpaid.gt(terms.totalamount) ? terms.totalamount : amountpaid;
  const nextpaymentdate = addDays(terms.startdate, daysBought(creditable.minus(terms.depositpaid), terms.monthly) + bonusdays);
  const status = repossessed
    ? DealStatus.REPOSSESSED
    : balance.isZero()
      ? DealStatus.PAID_OFF
      : nextpaymentdate > today
        ? DealStatus.UNLOCKED
        : DealStatus.LOCKED;
  return { amountpaid, balance, overpaid, nextpaymentdate, status };
}

/** The state the whole ledger implies: what every stored deal must equal (ledger verification). */
export function deriveDealState(terms: ContractTerms, payments: readonly Money[], bonusdays: number, today: string, repossessed: boolean): DealState {
  return stateFromAmountPaid(terms, Money.sum(payments), bonusdays, today, repossessed);
}

/** One more payment on top of the current state: what a payment does to a locked deal row. */
export function applyPayment(terms: ContractTerms, current: DealState, amount: Money, bonusdays: number, today: string, repossessed: boolean): DealState {
  return stateFromAmountPaid(terms, current.amountpaid.plus(amount), bonusdays, today, repossessed);
}

export function daysOverdue(nextpaymentdate: string, today: string): number {
  return Math.max(0, daysBetween(nextpaymentdate, today));
}

/**
 * A call's arrears: the least the customer must pay, to the cent, for the device to be UNLOCKED
 * again under the lock rule (part 5), capped at the balance (paying the balance pays the deal off).
 * The paid-up date must come after today, so startdate + bonusdays + floor(30 × repaid / monthly)
 * ≥ today + 1: the repayments must buy `daysToUnlock` days, which cost days × monthly / 30 rounded
 * up to the cent. Nothing when the paid-up date already lies ahead.
 */
export function amountInArrears(terms: ContractTerms, amountpaid: Money, bonusdays: number, today: string): Money {
  const balance = Money.max(Money.zero(), terms.totalamount.minus(amountpaid));
  const days = daysToUnlock(terms.startdate, bonusdays, today);
  if (days <= 0) return Money.zero();
  const short = costOfDays(days, terms.monthly).minus(amountpaid.minus(terms.depositpaid));
  if (!short.isPositive()) return Money.zero();
  return short.gt(balance) ? balance : short;
}

/** Days of use (after bonus days) the repayments must have bought for the paid-up date to lie after `today`. */
export function daysToUnlock(startdate: string, bonusdays: number, today: string): number {
  return daysBetween(startdate, today) - bonusdays + 1;
}

/** What `days` days of use cost at `monthly` per 30 days, rounded up to the cent (so they are surely bought). */
export function costOfDays(days: number, monthly: Money): Money {
  const cents = BigInt(monthly.toFixed().replace('.', '')) * BigInt(days);
  const roundedUp = ((cents + 29n) / 30n).toString().padStart(3, '0');
  return Money.of(`${roundedUp.slice(0, -2)}.${roundedUp.slice(-2)}`);
}
