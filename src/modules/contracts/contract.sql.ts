import { CUSTOMER_DEVICE_COLUMNS, JOIN_CUSTOMER } from '../customers/customer.sql.js';
import type { DealStatus } from './domain/credit-policy.js';

/**
 * What other modules may read of customer_deals (a customer's contract) in their own SQL, and the
 * one row type of that table: published here, at the module's root, so that contracts knows who
 * reads what. Every write of customer_deals and bonus_grants is in contracts/infrastructure.
 */

/** A customer_deals row, with the device identity (from customers) its commands need. */
export interface ContractRow {
  id: number;
  customer_id: number;
  deal_id: number;
  dealname: string;
  status: DealStatus;
  totalamount: string;
  monthly: string;
  depositpaid: string;
  amountpaid: string;
  balance: string;
  overpaid: string;
  bonusdays: number;
  startdate: string;
  nextpaymentdate: string;
  imei: string;
  serialnumber: string | null;
  payg: string;
  /** The end of the temporary unlock running on the device, or null once that end has been pushed to it. */
  unlockuntil: Date | null;
}

/** The columns of ContractRow, from a customer_deals row aliased `cd` joined to its customer `c`. */
const CONTRACT_COLUMNS = `cd.id, cd.customer_id, cd.deal_id, cd.dealname, cd.status, cd.totalamount, cd.monthly, cd.depositpaid, cd.amountpaid,
  cd.balance, cd.overpaid, cd.bonusdays, cd.startdate, cd.nextpaymentdate, ${CUSTOMER_DEVICE_COLUMNS}, cd.unlockuntil`;

/** A contract's columns next to its customer's in one row (customer views): ContractOfCustomer. */
export const CONTRACT_OF_CUSTOMER_COLUMNS = `cd.id AS customerdealid, cd.deal_id AS dealid, cd.dealname, cd.status AS dealstatus, cd.totalamount,
  cd.monthly, cd.depositpaid, cd.amountpaid, cd.balance, cd.overpaid, cd.bonusdays, cd.startdate, cd.nextpaymentdate`;

/** Joins the contract (alias `cd`) of the customer whose id is `customerId`. */
export const JOIN_CONTRACT = (customerId: string) => `JOIN customer_deals cd ON cd.customer_id = ${customerId}`;

export interface ContractOfCustomer extends Omit<ContractRow, 'id' | 'customer_id' | 'deal_id' | 'status' | 'imei' | 'serialnumber' | 'payg'> {
  customerdealid: number;
  dealid: number;
  dealstatus: DealStatus;
}

/** Contracts with their customer's device identity, as ContractRow; add WHERE, ORDER BY and locks. */
export const SELECT_CONTRACT = `SELECT ${CONTRACT_COLUMNS} FROM customer_deals cd ${JOIN_CUSTOMER('cd.customer_id')}`;

/**
 * A customer's contract, locked until the transaction ends (every change of its money or state is
 * made under this lock, by contracts). `customerId` is an SQL expression; the answer is ContractRow.
 * For a caller that must lock the deal in the statement that finds its customer (the callback).
 */
export const LOCK_CONTRACT_OF = (customerId: string) =>
  `${SELECT_CONTRACT} WHERE cd.customer_id = ${customerId} FOR UPDATE OF cd`;

/**
 * The credit policy's figures written in SQL, for the read models that compute them over many deals
 * at once (collections, portfolio report). Each is the twin of a function in domain/credit-policy.ts
 * and is tested against it. `cd` is the alias of a customer_deals row, `today` a date expression.
 */

/** Deals still being paid for: the portfolio's active deals, the only ones collected on. */
export const ACTIVE_DEAL_SQL = (cd: string) => `${cd}.status IN ('LOCKED', 'UNLOCKED')`;

/**
 * amountInArrears(): the least that unlocks the device again, to the cent, capped at the balance:
 * the cost of (today − startdate − bonusdays + 1) days at monthly per 30, rounded up to the cent,
 * less the repayments (beyond the deposit) already made.
 */
export const ARREARS_SQL = (cd: string, today: string) =>
  `LEAST(${cd}.balance, GREATEST(0, CEIL(GREATEST(0, ${today} - ${cd}.startdate - ${cd}.bonusdays + 1) * ${cd}.monthly * 100 / 30) / 100 - (${cd}.amountpaid - ${cd}.depositpaid)))::numeric(14,2)`;

/** daysOverdue(): whole days since the paid-up date, never negative. */
export const DAYS_OVERDUE_SQL = (cd: string, today: string) =>
  `GREATEST(0, ${today} - ${cd}.nextpaymentdate)`;
