/**
 * What other modules may read of the customers table in their own SQL: a customer's device identity
 * and the customer a payment's tag names. Published here, at the module's root, so that customers
 * knows who reads what; everything else about customers goes through CustomersService.
 */

/** Columns of a customer's device identity (IMEI, serial number, PAYG code), from a `customers` row aliased `c`. */
export const CUSTOMER_DEVICE_COLUMNS = 'c.imei, c.serialnumber, c.payg';

/** Columns a collector needs to reach a customer (name, telephone, PAYG code), from a `customers` row aliased `c`. */
export const CUSTOMER_CONTACT_COLUMNS = 'c.fullname, c.telephone, c.payg';

/** Joins the customer (alias `c`) of a row whose customer id is `customerId`. */
export const JOIN_CUSTOMER = (customerId: string) => `JOIN customers c ON c.id = ${customerId}`;

/**
 * The customer whose PAYG code is a tag: codes are unique regardless of letter case (DESIGN part 10),
 * except pairs an older release let in (kept, flagged payg_legacy_duplicate): then the exact spelling,
 * else the oldest. A subquery answering one `id` or none.
 */
export const CUSTOMER_BY_TAG = (tag: string) => `SELECT c.id FROM customers c WHERE lower(c.payg) = lower(${tag}) ORDER BY c.payg = ${tag} DESC, c.id LIMIT 1`;
