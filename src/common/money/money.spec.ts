import fc from 'fast-check';
import { daysBought, InvalidMoneyError, Money, ratio } from './money.js';

const cents = fc.integer({ min: 1, max: 100_000_000_000 }).map((c) => Money.of((c / 100).toFixed(2)));

describe('Money', () => {
  it('credits ten payments of 0.10 as exactly 1.00', () => {
    const ten = Money.sum(Array.from({ length: 10 }, () => Money.of(0.1)));
    expect(ten.eq(Money.of(1))).toBe(true);
    expect(ten.toFixed()).toBe('1.00');
  });

  it('adds 0.1 + 0.2 to exactly 0.30', () => {
    expect(Money.of(0.1).plus(Money.of(0.2)).toFixed()).toBe('0.30');
    expect(Money.of(0.1).plus(Money.of(0.2)).toNumber()).toBe(0.3);
  });

  it('reads PostgreSQL numerics and JSON numbers alike', () => {
    expect(Money.of('1500.00').eq(Money.of(1500))).toBe(true);
    expect(Money.of(' 12.5 ').toFixed()).toBe('12.50');
    expect(Money.of(-0).toFixed()).toBe('0.00');
  });

  it.each([[0.001], ['1.234'], [Number.NaN], [Number.POSITIVE_INFINITY], ['abc'], ['']])('refuses %p', (input) => {
    expect(() => Money.of(input as number)).toThrow(InvalidMoneyError);
  });

  it('keeps addition exact, associative and reversible for any amounts in cents', () => {
    fc.assert(
      fc.property(cents, cents, cents, (a, b, c) => {
        expect(a.plus(b).plus(c).eq(a.plus(b.plus(c)))).toBe(true);
        expect(a.plus(b).minus(b).eq(a)).toBe(true);
        expect(Money.of(a.toNumber()).eq(a)).toBe(true);
      }),
    );
  });

  it('buys 30 days per monthly instalment, rounding down, and none for nothing paid', () => {
    expect(daysBought(Money.of(45000), Money.of(45000))).toBe(30);
    expect(daysBought(Money.of(1500), Money.of(45000))).toBe(1);
    expect(daysBought(Money.of(1499.99), Money.of(45000))).toBe(0);
    expect(daysBought(Money.zero(), Money.of(45000))).toBe(0);
    expect(daysBought(Money.of(-5), Money.of(45000))).toBe(0);
    fc.assert(
      fc.property(cents, cents, (paid, monthly) => {
        const days = daysBought(paid, monthly);
        // days/30 instalments fit in what was paid; one more day would not
        expect(monthly.toDecimal().times(days).lte(paid.toDecimal().times(30))).toBe(true);
        expect(monthly.toDecimal().times(days + 1).gt(paid.toDecimal().times(30))).toBe(true);
      }),
    );
  });
});

describe('ratio', () => {
  it('divides exactly and rounds half up to 4 places', () => {
    expect(ratio(Money.of(1), Money.of(3))).toBe(0.3333);
    expect(ratio(Money.of(2), Money.of(3))).toBe(0.6667);
    expect(ratio(Money.of('0.5'), Money.of(8), 4)).toBe(0.0625);
    expect(ratio(Money.of(45000), Money.of(40000))).toBe(1.125);
  });

  it('has no answer for a zero whole', () => {
    expect(ratio(Money.of(5), Money.zero())).toBeNull();
  });
});
