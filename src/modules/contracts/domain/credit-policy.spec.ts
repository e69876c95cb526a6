import fc from 'fast-check';
import { Money } from '../../../common/money/money.js';
import { addDays } from '../../../common/time/business-date.js';
import { amountInArrears, applyPayment, ContractTerms, DealStatus, daysOverdue, deriveDealState, stateFromAmountPaid } from './credit-policy.js';

const terms: ContractTerms = { totalamount: Money.of(600000), monthly: Money.of(45000), depositpaid: Money.of(60000), startdate: '2026-01-15' };
const amount = fc.integer({ min: 1, max: 20_000_000 }).map((c) => Money.of((c / 100).toFixed(2)));
const payments = fc.array(amount, { maxLength: 30 });
const today = fc.integer({ min: -30, max: 800 }).map((n) => addDays('2026-01-15', n));

describe('credit policy', () => {
  it('starts a new deal LOCKED with nextpaymentdate = startdate', () => {
    const state = deriveDealState(terms, [Money.of(60000)], 0, '2026-01-15', false);
    expect(state).toMatchObject({ status: DealStatus.LOCKED, nextpaymentdate: '2026-01-15' });
    expect(state.balance.toFixed()).toBe('540000.00');
    expect(state.overpaid.isZero()).toBe(true);
  });

  it('unlocks for 30 days when one monthly instalment is paid', () => {
    const state = deriveDealState(terms, [Money.of(60000), Money.of(45000)], 0, '2026-01-15', false);
    expect(state).toMatchObject({ status: DealStatus.UNLOCKED, nextpaymentdate: '2026-02-14' });
    // on the paid-up date itself the device is due again
    expect(deriveDealState(terms, [Money.of(60000), Money.of(45000)], 0, '2026-02-14', false).status).toBe(DealStatus.LOCKED);
  });

  it('pays off at a zero balance and keeps what is paid beyond as overpaid', () => {
    const state = deriveDealState(terms, [Money.of(60000), Money.of(540000), Money.of(100.5)], 0, '2026-01-20', false);
    expect(state.status).toBe(DealStatus.PAID_OFF);
    expect(state.balance.toFixed()).toBe('0.00');
    expect(state.overpaid.toFixed()).toBe('100.50');
  });

  it('buys no days beyond the end of the term: an overpayment leaves the paid-off date where it was', () => {
    const paidOff = deriveDealState(terms, [Money.of(60000), Money.of(540000)], 0, '2026-01-20', false);
    const overpaid = deriveDealState(terms, [Money.of(60000), Money.of(540000), Money.of(999_999_999)], 0, '2026-01-20', false);
    expect(paidOff.nextpaymentdate).toBe(addDays('2026-01-15', 360));
    expect(overpaid.nextpaymentdate).toBe(paidOff.nextpaymentdate);
    expect(overpaid.overpaid.toFixed()).toBe('999999999.00');
  });

  it('survives the largest payments the validator accepts on any deal the catalogue allows', () => {
    // a deal needs deposit + monthly × months ≥ total with months ≤ 120, so at most 3,600 days can be bought
    const cents = (max: number) => fc.integer({ min: 1, max }).map((c) => Money.of((c / 100).toFixed(2)));
    const deal = fc.record({ monthly: cents(100_000_000_000), months: fc.integer({ min: 1, max: 120 }), deposit: cents(100_000_000_000) });
    fc.assert(
      fc.property(deal, fc.array(cents(100_000_000_000), { maxLength: 5 }), ({ monthly, months, deposit }, paid) => {
        const totalamount = deposit.plus(monthly.times(months));
        const dealTerms: ContractTerms = { totalamount, monthly, depositpaid: deposit, startdate: '2026-01-15' };
        const state = deriveDealState(dealTerms, [deposit, ...paid], 90, '2026-01-15', false);
        expect(state.nextpaymentdate <= addDays('2026-01-15', 3600 + 90)).toBe(true);
        expect(state.nextpaymentdate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }),
    );
  });

  it('credits ten payments of 0.10 exactly as one of 1.00', () => {
    const tiny: ContractTerms = { ...terms, monthly: Money.of(3) };
    const ten = deriveDealState(tiny, [Money.of(60000), ...Array.from({ length: 10 }, () => Money.of(0.1))], 0, '2026-01-15', false);
    const one = deriveDealState(tiny, [Money.of(60000), Money.of(1)], 0, '2026-01-15', false);
    expect(ten.amountpaid.eq(one.amountpaid)).toBe(true);
    expect(ten.nextpaymentdate).toBe(one.nextpaymentdate);
    expect(ten.nextpaymentdate).toBe('2026-01-25');
  });

  it('never goes below zero and keeps balance + paid − overpaid = total', () => {
    fc.assert(
      fc.property(payments, fc.nat(365), today, (list, bonus, day) => {
        const s = deriveDealState(terms, [terms.depositpaid, ...list], bonus, day, false);
        expect(s.balance.isNegative()).toBe(false);
        expect(s.overpaid.isNegative()).toBe(false);
        expect(s.balance.plus(s.amountpaid).minus(s.overpaid).eq(terms.totalamount)).toBe(true);
        expect(s.nextpaymentdate >= terms.startdate).toBe(true);
      }),
    );
  });

  it('does not depend on the order of payments', () => {
    fc.assert(
      fc.property(payments, fc.nat(365), today, fc.integer(), (list, bonus, day, seed) => {
        const shuffled = [...list].sort((a, b) => ((a.toNumber() * 7919 + seed) % 13) - ((b.toNumber() * 7919 + seed) % 13));
        expect(deriveDealState(terms, shuffled, bonus, day, false)).toEqual(deriveDealState(terms, list, bonus, day, false));
      }),
    );
  });

  it('gives the same state paying one by one as deriving from the whole ledger', () => {
    fc.assert(
      fc.property(payments, fc.nat(365), today, fc.boolean(), (list, bonus, day, repossessed) => {
        let state = deriveDealState(terms, [terms.depositpaid], bonus, day, repossessed);
        for (const p of list) state = applyPayment(terms, state, p, bonus, day, repossessed);
        expect(state).toEqual(deriveDealState(terms, [terms.depositpaid, ...list], bonus, day, repossessed));
      }),
    );
  });

  it('moves nextpaymentdate by bonus days and never touches the balance', () => {
    fc.assert(
      fc.property(payments, fc.nat(365), today, (list, bonus, day) => {
        const without = deriveDealState(terms, [terms.depositpaid, ...list], 0, day, false);
        const withBonus = deriveDealState(terms, [terms.depositpaid, ...list], bonus, day, false);
        expect(withBonus.balance.eq(without.balance)).toBe(true);
        expect(withBonus.nextpaymentdate).toBe(addDays(without.nextpaymentdate, bonus));
      }),
    );
  });

  it('keeps a repossessed deal REPOSSESSED whatever is paid', () => {
    fc.assert(
      fc.property(payments, today, (list, day) => {
        expect(deriveDealState(terms, [terms.depositpaid, ...list], 0, day, true).status).toBe(DealStatus.REPOSSESSED);
      }),
    );
  });

  it('never unlocks more days than were paid for', () => {
    fc.assert(
      fc.property(payments, (list) => {
        const s = deriveDealState(terms, [terms.depositpaid, ...list], 0, terms.startdate, false);
        const paidAfterDeposit = s.amountpaid.minus(terms.depositpaid);
        const days = (Date.parse(s.nextpaymentdate) - Date.parse(terms.startdate)) / 86_400_000;
        expect(terms.monthly.toDecimal().times(days).lte(paidAfterDeposit.toDecimal().times(30))).toBe(true);
      }),
    );
  });

  it('measures overdue days', () => {
    expect(daysOverdue('2026-02-14', '2026-02-20')).toBe(6);
    expect(daysOverdue('2026-02-14', '2026-02-10')).toBe(0);
  });
});

describe('arrears: what unlocks the device again', () => {
  // 45,000 a month is 1,500 a day; one instalment (105,000 paid with the deposit) buys up to 2026-02-14.
  const arrears = (paid: number, day: string, bonusdays = 0) => amountInArrears(terms, Money.of(paid), bonusdays, day).toFixed();

  it('asks on the lock day for one day of use, not nothing', () => {
    expect(arrears(105000, '2026-02-14')).toBe('1500.00');
    expect(arrears(105000, '2026-02-13')).toBe('0.00');
  });

  it('asks on every 30th day past due for the days used plus one, not a whole instalment short', () => {
    expect(arrears(105000, '2026-03-16')).toBe('46500.00'); // 30 days past due: 31 days to buy
    expect(arrears(105000, '2026-04-15')).toBe('91500.00');
    expect(arrears(105000, '2026-02-24')).toBe('16500.00');
  });

  it('asks a deal locked on its first day for one day, counts bonus days, and never more than the balance', () => {
    expect(arrears(60000, '2026-01-15')).toBe('1500.00');
    expect(arrears(105000, '2026-02-24', 10)).toBe('1500.00');
    expect(arrears(105000, '2026-02-24', 11)).toBe('0.00');
    expect(arrears(60000, '2030-01-01')).toBe('540000.00');
    expect(arrears(600000, '2027-06-01')).toBe('0.00');
  });

  it('rounds a day that costs a fraction of a cent up, so paying it surely buys the day', () => {
    const odd: ContractTerms = { ...terms, monthly: Money.of('1000.01') };
    expect(amountInArrears(odd, Money.of(60000), 0, odd.startdate).toFixed()).toBe('33.34'); // 33.333… 
    expect(stateFromAmountPaid(odd, Money.of('60033.34'), 0, odd.startdate, false).status).toBe(DealStatus.UNLOCKED);
    expect(stateFromAmountPaid(odd, Money.of('60033.33'), 0, odd.startdate, false).status).toBe(DealStatus.LOCKED);
  });

  const cents = (min: number, max: number) => fc.integer({ min, max }).map((c) => Money.of((c / 100).toFixed(2)));
  const book = fc
    .record({
      monthly: cents(100, 100_000_000),
      depositpaid: cents(100, 100_000_000),
      months: fc.integer({ min: 1, max: 36 }),
      paidShare: fc.double({ min: 0, max: 1.1, noNaN: true }),
      bonusdays: fc.integer({ min: 0, max: 120 }),
      dayOffset: fc.integer({ min: 0, max: 1500 }),
    })
    .map(({ monthly, depositpaid, months, paidShare, bonusdays, dayOffset }) => {
      const totalamount = depositpaid.plus(monthly.times(months));
      const startdate = '2026-01-15';
      const repaid = totalamount.minus(depositpaid).times(paidShare.toFixed(6));
      return { terms: { totalamount, monthly, depositpaid, startdate }, amountpaid: depositpaid.plus(repaid), bonusdays, today: addDays(startdate, dayOffset) };
    });

  it('property: paying the arrears unlocks (or pays off); a cent less leaves it locked, unless the arrears are the balance', () => {
    fc.assert(
      fc.property(book, ({ terms: t, amountpaid, bonusdays, today: day }) => {
        const a = amountInArrears(t, amountpaid, bonusdays, day);
        const before = stateFromAmountPaid(t, amountpaid, bonusdays, day, false);
        if (a.isZero()) {
          expect(before.status).not.toBe(DealStatus.LOCKED);
          return;
        }
        expect(before.status).toBe(DealStatus.LOCKED);
        expect(a.lte(before.balance)).toBe(true);
        const after = stateFromAmountPaid(t, amountpaid.plus(a), bonusdays, day, false);
        expect([DealStatus.UNLOCKED, DealStatus.PAID_OFF]).toContain(after.status);
        if (a.eq(before.balance)) return;
        const short = stateFromAmountPaid(t, amountpaid.plus(a).minus(Money.of('0.01')), bonusdays, day, false);
        expect(short.status).toBe(DealStatus.LOCKED);
      }),
      { numRuns: 2000 },
    );
  });
});
