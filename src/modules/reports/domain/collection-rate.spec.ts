import fc from 'fast-check';
import { Money } from '../../../common/money/money.js';
import { addDays } from '../../../common/time/business-date.js';
import { dueInRange, scheduledRepayments, ScheduleTerms } from './collection-rate.js';

// 600,000 in all, 60,000 deposit, 45,000 a month: twelve instalments of 45,000 (the 12th 45,000).
const terms: ScheduleTerms = {
  totalamount: Money.of(600000),
  monthly: Money.of(45000),
  depositpaid: Money.of(60000),
  startdate: '2026-01-01',
};
const due = (startdate: string, enddate: string, repaidBefore = 0, repossessedOn: string | null = null) =>
  dueInRange(terms, { startdate, enddate }, Money.of(repaidBefore), repossessedOn).toNumber();

describe('collection rate: what fell due in a range', () => {
  it('makes instalment k due on startdate + 30 × (k − 1), the day the lock rule locks an unpaid deal, capped at the total', () => {
    expect(scheduledRepayments(terms, '2025-12-31').toNumber()).toBe(0);
    expect(scheduledRepayments(terms, '2026-01-01').toNumber()).toBe(45000);
    expect(scheduledRepayments(terms, '2026-01-30').toNumber()).toBe(45000);
    expect(scheduledRepayments(terms, '2026-01-31').toNumber()).toBe(90000);
    expect(scheduledRepayments(terms, '2030-01-01').toNumber()).toBe(540000);
  });

  it('counts the instalments due in the range, less what earlier repayments already covered', () => {
    expect(due('2026-01-01', '2026-01-31')).toBe(90000);
    expect(due('2026-01-02', '2026-01-30')).toBe(0);
    expect(due('2026-01-31', '2026-03-01', 45000)).toBe(45000); // 2nd instalment; the 3rd is due 2026-03-02
    expect(due('2026-01-31', '2026-03-02', 90000)).toBe(45000); // paid one ahead: only the 3rd is owed
    expect(due('2026-01-31', '2026-03-02', 540000)).toBe(0); // paid off before the range
  });

  it('leaves out a deal repossessed before the range and stops a deal’s schedule on the day it is repossessed', () => {
    expect(due('2026-01-31', '2026-03-02', 0, '2026-01-30')).toBe(0);
    expect(due('2026-01-31', '2026-03-02', 0, '2026-01-31')).toBe(45000);
    expect(due('2026-01-31', '2026-03-02', 0, '2026-03-02')).toBe(90000);
    expect(due('2026-01-31', '2026-03-02', 0, '2026-05-01')).toBe(90000);
  });

  it('counts in a range that runs past today only what has fallen due by today', () => {
    const asOf = (today: string) => dueInRange(terms, { startdate: '2026-01-15', enddate: '2026-02-10' }, Money.of(45000), null, today).toNumber();
    expect(asOf('2026-01-30')).toBe(0); // the 2nd instalment, due 2026-01-31, is still ahead
    expect(asOf('2026-01-31')).toBe(45000);
    expect(asOf('2026-03-01')).toBe(45000); // the range is over: as without a today
    expect(dueInRange(terms, { startdate: '2026-02-20', enddate: '2026-03-10' }, Money.zero(), null, '2026-02-01').toNumber()).toBe(0);
  });

  it('property: ranges that tile a period add up to the period, for a customer who never paid', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -40, max: 400 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 0, max: 30 }),
        (offset, length, cut) => {
          const startdate = addDays(terms.startdate, offset);
          const enddate = addDays(startdate, length - 1);
          const middle = addDays(startdate, Math.min(cut, length - 1));
          const whole = due(startdate, enddate);
          if (middle === enddate) return;
          expect(due(startdate, middle) + due(addDays(middle, 1), enddate)).toBe(whole);
        },
      ),
    );
  });
});
