import { Money } from '../../../common/money/money.js';
import { CustomerRow } from '../infrastructure/customers.repository.js';

export interface CustomerDealView {
  customerdealid: number;
  dealid: number;
  dealname: string;
  status: string;
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

export interface CustomerView {
  customerid: number;
  fullname: string;
  telephone: string;
  guarantorname: string;
  guarantorcontact: string;
  imei: string;
  payg: string;
  serialnumber: string | null;
  salesstage: string;
  status: string;
  accountid: number;
  accountnumber: string;
  createdat: string;
  deal: CustomerDealView;
}

export interface AccountView {
  accountid: number;
  accountnumber: string;
  customerid: number;
  fullname: string;
  status: string;
  deal: CustomerDealView;
}

const amount = (value: string) => Money.of(value).toNumber();

export function dealView(row: CustomerRow): CustomerDealView {
  return {
    customerdealid: row.customerdealid,
    dealid: row.dealid,
    dealname: row.dealname,
    status: row.dealstatus,
    totalamount: amount(row.totalamount),
    monthly: amount(row.monthly),
    depositpaid: amount(row.depositpaid),
    amountpaid: amount(row.amountpaid),
    balance: amount(row.balance),
    overpaid: amount(row.overpaid),
    bonusdays: row.bonusdays,
    startdate: row.startdate,
    nextpaymentdate: row.nextpaymentdate,
  };
}

export function customerView(row: CustomerRow): CustomerView {
  return {
    customerid: row.customerid,
    fullname: row.fullname,
    telephone: row.telephone,
    guarantorname: row.guarantorname,
    guarantorcontact: row.guarantorcontact,
    imei: row.imei,
    payg: row.payg,
    serialnumber: row.serialnumber,
    salesstage: row.salesstage,
    status: row.status,
    accountid: row.accountid,
    accountnumber: row.accountnumber,
    createdat: new Date(row.createdat).toISOString(),
    deal: dealView(row),
  };
}

export function accountView(row: CustomerRow): AccountView {
  return { accountid: row.accountid, accountnumber: row.accountnumber, customerid: row.customerid, fullname: row.fullname, status: row.status, deal: dealView(row) };
}
