import { conflict, notFound } from '../../../common/errors/domain-error.js';
import { EnumValue, stringEnum } from '../../../common/types/string-enum.js';

/** Stock on hand is a count of units: never negative, at most this many of one item. */
export const MAX_STOCK = 1_000_000;

export const MovementKind = stringEnum('ADD', 'ADJUST');
export type MovementKind = EnumValue<typeof MovementKind>;

/** The stock after an adjustment, or the reason it cannot happen (409: the request is fine, the stock is not). */
export function adjustedQuantity(itemId: number, current: number, delta: number): number {
  const next = current + delta;
  if (next < 0)
    throw conflict(
      'STOCK_BELOW_ZERO',
      `Item ${itemId} has ${current} in stock; removing ${-delta} would leave less than zero.`,
    );
  if (next > MAX_STOCK)
    throw conflict(
      'STOCK_ABOVE_MAXIMUM',
      `Item ${itemId} has ${current} in stock; adding ${delta} would exceed ${MAX_STOCK}.`,
    );
  return next;
}

export const itemNotFound = (id: number) => notFound('ITEM_NOT_FOUND', `Inventory item ${id} not found.`);
