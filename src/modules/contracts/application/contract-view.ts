import { Money } from '../../../common/money/money.js';
import type { ContractOfCustomer, ContractRow } from '../contract.sql.js';
import { ContractTerms, DealState, DealStatus } from '../domain/credit-policy.js';

/** A customer's deal as every response shows it. */
export interface CustomerDealView {
  customerdealid: number;
  dealid: number;
  dealname: string;
  status: DealStatus;
  totalamount: number;
  monthly: number;
  depositpaid: number;
  amountpaid: number;
  balance: number;
  overpaid: number;
  bonusdays: number;
  startdate: string;
  nextpaymentdate: string;
}

/** The columns of a contract a view needs (a ContractRow has them all). */
export type ContractViewRow = Omit<ContractRow, 'customer_id' | 'imei' | 'serialnumber' | 'payg'>;

export function termsOf(row: Pick<ContractRow, 'totalamount' | 'monthly' | 'depositpaid' | 'startdate'>): ContractTerms {
  return { totalamount: Money.of(row.totalamount), monthly: Money.of(row.monthly), depositpaid: Money.of(row.depositpaid), startdate: row.startdate };
}

export function stateOf(row: Pick<ContractRow, 'amountpaid' | 'balance' | 'overpaid' | 'nextpaymentdate' | 'status'>): DealState {
  return { amountpaid: Money.of(row.amountpaid), balance: Money.of(row.balance), overpaid: Money.of(row.overpaid), nextpaymentdate: row.nextpaymentdate, status: row.status };
}

/** The view of a contract as stored, or as it is after a change (`state`, `bonusdays`). */
export function contractView(row: ContractViewRow, state: DealState = stateOf(row), bonusdays = row.bonusdays): CustomerDealView {
  return {
    customerdealid: row.id,
    dealid: row.deal_id,
    dealname: row.dealname,
    status: state.status,
    totalamount: Money.of(row.totalamount).toNumber(),
    monthly: Money.of(row.monthly).toNumber(),
    depositpaid: Money.of(row.depositpaid).toNumber(),
    amountpaid: state.amountpaid.toNumber(),
    balance: state.balance.toNumber(),
    overpaid: state.overpaid.toNumber(),
    bonusdays,
    startdate: row.startdate,
    nextpaymentdate: state.nextpaymentdate,
  };
}

/** The view of a contract read next to its customer (CONTRACT_OF_CUSTOMER_COLUMNS). */
export function contractViewOfCustomer(c: ContractOfCustomer): CustomerDealView {
  return contractView({ ...c, id: c.customerdealid, deal_id: c.dealid, status: c.dealstatus });
}
