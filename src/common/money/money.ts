import { Decimal } from 'decimal.js';

/** The largest amount any payment may carry (DESIGN part 4): the validator, the look-up and imports share it. */
export const MAX_AMOUNT = 1_000_000_000;

/** Exact decimal arithmetic for money: never JavaScript floats. */
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
type Dec = InstanceType<typeof D>;

export class InvalidMoneyError extends Error {
  readonly code = 'INVALID_MONEY';
}

/** An immutable amount with at most 2 decimal places. */
export class Money {
  private constructor(private readonly value: Dec) {}

  /**
   * From a JSON number (0.1 is read through its shortest decimal form "0.1", so it is exact) or
   * from a PostgreSQL numeric string ("1500.00").
   */
  static of(input: number | string): Money {
    if (typeof input === 'number' && !Number.isFinite(input)) throw new InvalidMoneyError(`not a finite amount: ${input}`);
    let value: Dec;
    try {
      value = new D(typeof input === 'number' ? String(input) : input.trim());
    } catch {
      throw new InvalidMoneyError(`not an amount: ${String(input)}`);
    }
    if (!value.isFinite()) throw new InvalidMoneyError(`not a finite amount: ${String(input)}`);
    if (value.decimalPlaces() > 2) throw new InvalidMoneyError(`more than 2 decimal places: ${String(input)}`);
    return new Money(value.plus(0)); // -0 → 0
  }

  /** A JSON number cut down to whole cents (10.005 → 10.00): never more than was given. Throws when it is not finite. */
  static truncated(input: number): Money {
    if (!Number.isFinite(input)) throw new InvalidMoneyError(`not a finite amount: ${input}`);
    return new Money(new D(String(input)).toDecimalPlaces(2, Decimal.ROUND_DOWN).plus(0));
  }

  static zero(): Money {
    return new Money(new D(0));
  }

  static sum(amounts: readonly Money[]): Money {
    return amounts.reduce((total, m) => total.plus(m), Money.zero());
  }

  static max(a: Money, b: Money): Money {
    return a.gte(b) ? a : b;
  }

  plus(other: Money): Money {
    return new Money(this.value.plus(other.value));
  }

  minus(other: Money): Money {
    return new Money(this.value.minus(other.value));
  }

  /** Multiplies and rounds half-up back to cents. */
  times(factor: number | string): Money {
    return new Money(this.value.times(new D(String(factor))).toDecimalPlaces(2, Decimal.ROUND_HALF_UP));
  }

  isZero(): boolean {
    return this.value.isZero();
  }
  isNegative(): boolean {
    return this.value.isNegative() && !this.value.isZero();
  }
  isPositive(): boolean {
    return this.value.isPositive() && !this.value.isZero();
  }
  eq(other: Money): boolean {
    return this.value.eq(other.value);
  }
  gt(other: Money): boolean {
    return this.value.gt(other.value);
  }
  gte(other: Money): boolean {
    return this.value.gte(other.value);
  }
  lt(other: Money): boolean {
    return this.value.lt(other.value);
  }
  lte(other: Money): boolean {
    return this.value.lte(other.value);
  }

  /** For JSON: a number with at most 2 decimals (exact for every amount the service accepts). */
  toNumber(): number {
    return Number(this.value.toFixed(2));
  }

  /** For SQL parameters and display: '1234.50'. */
  toFixed(): string {
    return this.value.toFixed(2);
  }

  toString(): string {
    return this.toFixed();
  }

  toDecimal(): Dec {
    return this.value;
  }
}

/** Days of use bought by `paid` at `monthly` per 30 days: floor(30 × paid / monthly), 0 when nothing is paid. */
export function daysBought(paid: Money, monthly: Money): number {
  if (!paid.isPositive()) return 0;
  return paid.toDecimal().times(30).dividedBy(monthly.toDecimal()).floor().toNumber();
}

/** part ÷ whole rounded half-up to `places` decimals (a share such as PAR30); null when the whole is zero. */
export function ratio(part: Money, whole: Money, places = 4): number | null {
  if (whole.isZero()) return null;
  return part.toDecimal().dividedBy(whole.toDecimal()).toDecimalPlaces(places, D.ROUND_HALF_UP).toNumber();
}
