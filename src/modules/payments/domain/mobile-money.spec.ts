import { Money } from '../../../common/money/money.js';
import { assessProviderAmount, checkRepeat, matchableTag } from './mobile-money.js';

describe('assessProviderAmount: what becomes of a SUCCESS transaction the provider lists', () => {
  const credit = (amount: number) => ({ credit: Money.of(amount) });

  it('credits an amount in cents up to MAX_AMOUNT', () => {
    expect(assessProviderAmount(0.01)).toEqual(credit(0.01));
    expect(assessProviderAmount(45000)).toEqual(credit(45000));
    expect(assessProviderAmount(1_000_000_000)).toEqual(credit(1_000_000_000));
  });

  it('holds for an operator what it may not credit by itself, saying why', () => {
    expect(assessProviderAmount(2_000_000_000)).toEqual({ hold: Money.of(2_000_000_000), reason: 'Amount 2000000000 is above the 1000000000 credited automatically: an operator must check it.' });
    expect(assessProviderAmount(10.005)).toEqual({ hold: Money.of(10), reason: 'Amount 10.005 has more than two decimal places: an operator must check it (kept as 10.00).' });
    // never more than the provider gave
    expect(assessProviderAmount(10.019)).toMatchObject({ hold: Money.of(10.01) });
    expect(assessProviderAmount(1_500_000_000.999)).toMatchObject({ hold: Money.of(1_500_000_000.99) });
  });

  it('refuses what is not a payment or cannot be stored', () => {
    expect(assessProviderAmount(0)).toEqual({ refuse: 'amount 0 is not a payment' });
    expect(assessProviderAmount(-5)).toEqual({ refuse: 'amount -5 is not a payment' });
    expect(assessProviderAmount(Number.NaN)).toEqual({ refuse: 'amount NaN is not a payment' });
    expect(assessProviderAmount(0.001)).toEqual({ refuse: 'amount 0.001 is less than a cent' });
    expect(assessProviderAmount(1e-7)).toEqual({ refuse: 'amount 1e-7 is less than a cent' });
    expect(assessProviderAmount(1e12)).toEqual({ refuse: 'amount 1000000000000 is beyond what the ledger can hold' });
  });
});

describe('checkRepeat', () => {
  it('lets the same amount through and refuses another', () => {
    expect(() => checkRepeat('MP1', Money.of('1.10'), Money.of(1.1))).not.toThrow();
    expect(() => checkRepeat('MP1', Money.of('1.10'), Money.of(1.2))).toThrow('Transaction MP1 was already received with amount 1.10, not 1.20.');
  });
});

describe('matchableTag', () => {
  it('trims and folds full-width and compatibility characters to the code they look like', () => {
    expect(matchableTag('  ＰＡＹＧ－００１\u00a0')).toBe('PAYG-001');
    expect(matchableTag('payg-001')).toBe('payg-001');
    expect(matchableTag('')).toBe('');
  });

  it('keeps a tag as typed when its folded form would not fit the column', () => {
    const long = '\ufdfa'.repeat(20); // one character each, eighteen once folded
    expect(long.normalize('NFKC').length).toBeGreaterThan(255);
    expect(matchableTag(` ${long} `)).toBe(long);
  });
});
