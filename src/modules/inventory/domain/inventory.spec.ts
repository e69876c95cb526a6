import fc from 'fast-check';
import { DomainError, ErrorKind } from '../../../common/errors/domain-error.js';
import { adjustedQuantity, MAX_STOCK } from './inventory.js';

describe('adjustedQuantity', () => {
  it('adds and removes stock', () => {
    expect(adjustedQuantity(1, 10, -4)).toBe(6);
    expect(adjustedQuantity(1, 10, -10)).toBe(0);
    expect(adjustedQuantity(1, 0, 25)).toBe(25);
  });

  it('refuses to go below zero or above the maximum, as a conflict naming the stock', () => {
    expect(() => adjustedQuantity(7, 3, -4)).toThrow(
      'Item 7 has 3 in stock; removing 4 would leave less than zero.',
    );
    expect(() => adjustedQuantity(7, MAX_STOCK, 1)).toThrow(DomainError);
    try {
      adjustedQuantity(7, 0, -1);
    } catch (e) {
      expect((e as DomainError).kind).toBe(ErrorKind.CONFLICT);
    }
  });

  it('never answers a quantity outside 0…MAX_STOCK', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_STOCK }),
        fc.integer({ min: -MAX_STOCK, max: MAX_STOCK }),
        (current, delta) => {
          try {
            const next = adjustedQuantity(1, current, delta);
            return next === current + delta && next >= 0 && next <= MAX_STOCK;
          } catch (e) {
            return e instanceof DomainError && (current + delta < 0 || current + delta > MAX_STOCK);
          }
        },
      ),
    );
  });
});
