import { contractViewOfCustomer, CustomerDealView } from '../../contracts/application/contract-view.js';
import type { CustomerIdentity } from '../domain/customer.js';
import { CustomerRow } from '../infrastructure/customers.repository.js';

export interface CustomerView extends CustomerIdentity {
  customerid: number;
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
    deal: contractViewOfCustomer(row),
  };
}

export function accountView(row: CustomerRow): AccountView {
  return { accountid: row.accountid, accountnumber: row.accountnumber, customerid: row.customerid, fullname: row.fullname, status: row.status, deal: contractViewOfCustomer(row) };
}
