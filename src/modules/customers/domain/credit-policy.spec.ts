import fc from 'fast-check';
import { Money } from '../../../common/money/money.js';
import { addDays } from '../../../common/time/business-date.js';
import { amountInArrears, applyPayment, ContractTerms, DealStatus, daysOverdue, deriveDealState, isOverdue } from './credit-policy.js';

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

  it('measures overdue days and arrears', () => {
    expect(isOverdue({ status: DealStatus.UNLOCKED, nextpaymentdate: '2026-02-14' }, '2026-02-14')).toBe(true);
    expect(isOverdue({ status: DealStatus.UNLOCKED, nextpaymentdate: '2026-02-14' }, '2026-02-13')).toBe(false);
    expect(isOverdue({ status: DealStatus.PAID_OFF, nextpaymentdate: '2026-01-01' }, '2026-02-13')).toBe(false);
    expect(daysOverdue('2026-02-14', '2026-02-20')).toBe(6);
    expect(daysOverdue('2026-02-14', '2026-02-10')).toBe(0);
    // 40 days after the start two instalments are due: 60000 + 2 × 45000 = 150000; 105000 paid → 45000 in arrears
    expect(amountInArrears(terms, Money.of(105000), '2026-02-24').toFixed()).toBe('45000.00');
    expect(amountInArrears(terms, Money.of(600000), '2027-06-01').toFixed()).toBe('0.00');
    expect(amountInArrears(terms, Money.of(60000), '2030-01-01').toFixed()).toBe('540000.00');
  });
});
