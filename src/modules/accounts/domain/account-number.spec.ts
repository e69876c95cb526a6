import fc from 'fast-check';
import { accountNumberFor, luhnCheckDigit } from './account-number.js';

/** What the check digit is for: a number whose last digit is not the Luhn digit of the rest was mistyped. */
const passesCheck = (number: string) => luhnCheckDigit(number.slice(2, -1)) === Number(number.at(-1));

describe('account numbers', () => {
  it('writes AC, eight digits of the id and a check digit', () => {
    expect(accountNumberFor(1)).toMatch(/^AC00000001\d$/);
    expect(accountNumberFor(123456789)).toMatch(/^AC123456789\d$/);
  });

  it('gives every id its own number, and every number passes its own check', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_147_483_647 }), fc.integer({ min: 1, max: 2_147_483_647 }), (a, b) => {
        expect(passesCheck(accountNumberFor(a))).toBe(true);
        if (a !== b) expect(accountNumberFor(a)).not.toBe(accountNumberFor(b));
      }),
    );
  });

  it('catches a single mistyped digit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99_999_999 }), fc.integer({ min: 2, max: 9 }), fc.integer({ min: 1, max: 9 }), (id, position, delta) => {
        const number = accountNumberFor(id);
        const d = (Number(number[position]) + delta) % 10;
        const typo = number.slice(0, position) + d + number.slice(position + 1);
        expect(passesCheck(typo)).toBe(false);
      }),
    );
  });
});
