/** The source of a ledger row: a payment reference is unique within its source. */
export enum PaymentType {
  DEPOSIT = 'DEPOSIT',
  MANUAL = 'MANUAL',
  MOBILE_MONEY = 'MOBILE_MONEY',
  /** What a migrated customer paid before the book was imported (one row per imported deal). */
  OPENING = 'OPENING',
}
