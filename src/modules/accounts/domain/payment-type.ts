import { EnumValue, stringEnum } from '../../../common/types/string-enum.js';

/**
 * The source of a ledger row: a payment reference is unique within its source. `OPENING` is what a
 * migrated customer paid before the book was imported (one row per imported deal).
 */
export const PaymentType = stringEnum('DEPOSIT', 'MANUAL', 'MOBILE_MONEY', 'OPENING');
export type PaymentType = EnumValue<typeof PaymentType>;
