import { Injectable } from '@nestjs/common';
import { CALL_FIGURES } from '../../collections/collection-call.sql.js';

/**
 * The exports' read model: SQL over other modules' tables (customers, accounts, customer_deals,
 * payments, collection_calls, users, customer_preferences) and this service's import_rows, read in one REPEATABLE READ
 * snapshot and streamed a batch at a time. Columns are listed once, as the CSV headers.
 */
export interface ExportQuery {
  columns: string[];
  sql: string;
  params: unknown[];
}

@Injectable()
export class ExportsRepository {
  /**
   * The columns of a customers import first (so that an export re-imports), then the rest of part 4a,
   * then the customer's message preferences (empty where none were set), which an import takes too.
   * externalid: the one an import brought the customer in with, else the account number; where two
   * customers would share one (two sources, or an import's id equal to an account number), each of
   * them gets `@<account number>` after it, so that every row of the file has its own.
   */
  customers(): ExportQuery {
    return {
      columns: ['externalid', 'fullname', 'telephone', 'guarantorname', 'guarantorcontact', 'imei', 'payg', 'serialnumber', 'dealid', 'depositpaid', 'amountpaid', 'startdate',
        'customerid', 'accountnumber', 'status', 'salesstage', 'dealname', 'dealstatus', 'totalamount', 'monthly', 'balance', 'overpaid', 'bonusdays', 'nextpaymentdate', 'createdat',
        'language', 'smsoptout'],
      sql: `SELECT CASE WHEN count(*) OVER (PARTITION BY x.id) > 1 THEN x.id || '@' || a.accountnumber ELSE x.id END,
                   c.fullname, c.telephone, c.guarantorname, c.guarantorcontact, c.imei, c.payg, c.serialnumber, cd.deal_id,
                   cd.depositpaid, cd.amountpaid, cd.startdate, c.id, a.accountnumber, c.status, c.salesstage, cd.dealname, cd.status, cd.totalamount, cd.monthly,
                   cd.balance, cd.overpaid, cd.bonusdays, cd.nextpaymentdate, c.created_at, cp.language, cp.sms_opt_out
            FROM customers c JOIN accounts a ON a.id = c.account_id JOIN customer_deals cd ON cd.customer_id = c.id
            LEFT JOIN customer_preferences cp ON cp.customer_id = c.id
            LEFT JOIN import_rows ir ON ir.customer_id = c.id AND ir.kind = 'customers'
            CROSS JOIN LATERAL (SELECT COALESCE(ir.externalid, a.accountnumber) AS id) x
            ORDER BY c.id`,
      params: [],
    };
  }

  /** Payments whose business day (in `timeZone`) is in the range; either end may be left open. */
  payments(startdate: string | null, enddate: string | null, timeZone: string): ExportQuery {
    return {
      columns: ['paymentid', 'customerid', 'payg', 'accountnumber', 'amount', 'reference', 'narration', 'type', 'date', 'createdat'],
      sql: `SELECT p.id, p.customer_id, c.payg, a.accountnumber, p.amount, p.reference, p.narration, p.type, (p.created_at AT TIME ZONE $3)::date, p.created_at
            FROM payments p JOIN customers c ON c.id = p.customer_id JOIN accounts a ON a.id = c.account_id
            WHERE ($1::date IS NULL OR p.created_at >= $1::date::timestamp AT TIME ZONE $3)
              AND ($2::date IS NULL OR p.created_at < ($2::date + 1)::timestamp AT TIME ZONE $3)
            ORDER BY p.id`,
      params: [startdate, enddate, timeZone],
    };
  }

  /** Every call, an open one with its figures as of `today`, as the collectors' list shows them. */
  collections(today: string): ExportQuery {
    return {
      columns: ['callid', 'customerid', 'fullname', 'telephone', 'payg', 'status', 'amountinarrears', 'daysoverdue', 'nextpaymentdate', 'assignedto', 'notes', 'promisedate', 'resolution', 'createdat', 'calledat', 'resolvedat'],
      sql: `SELECT k.id, k.customer_id, c.fullname, c.telephone, c.payg, k.status, ${CALL_FIGURES('k', 'cd', '$1::date')}, u.username, k.notes, k.promisedate,
                   k.resolution, k.created_at, k.called_at, k.resolved_at
            FROM collection_calls k JOIN customers c ON c.id = k.customer_id JOIN customer_deals cd ON cd.id = k.customer_deal_id LEFT JOIN users u ON u.id = k.assigned_to
            ORDER BY k.id`,
      params: [today],
    };
  }

  /**
   * The loan tape investors and auditors ask for: one line per deal with its figures as of `today`
   * and its arrears bucket (CURRENT, 1-30, 31-60, 61-90, 90+ days past the paid-up date; PAID_OFF and
   * REPOSSESSED deals on their own). The portfolio report's PAR30 is the balance of the buckets
   * beyond 30 days over the balance of the active deals.
   */
  portfolio(today: string): ExportQuery {
    return {
      columns: ['customerid', 'accountnumber', 'fullname', 'payg', 'dealid', 'dealname', 'status', 'startdate', 'totalamount', 'depositpaid', 'monthly', 'amountpaid', 'balance', 'overpaid',
        'bonusdays', 'nextpaymentdate', 'daysoverdue', 'bucket', 'repossessedat'],
      sql: `SELECT c.id, a.accountnumber, c.fullname, c.payg, cd.deal_id, cd.dealname, cd.status, cd.startdate, cd.totalamount, cd.depositpaid, cd.monthly, cd.amountpaid,
                   cd.balance, cd.overpaid, cd.bonusdays, cd.nextpaymentdate, d.days,
                   CASE WHEN cd.status IN ('PAID_OFF', 'REPOSSESSED') THEN cd.status WHEN d.days = 0 THEN 'CURRENT' WHEN d.days <= 30 THEN '1-30'
                        WHEN d.days <= 60 THEN '31-60' WHEN d.days <= 90 THEN '61-90' ELSE '90+' END,
                   cd.repossessed_at
            FROM customer_deals cd JOIN customers c ON c.id = cd.customer_id JOIN accounts a ON a.id = c.account_id
            CROSS JOIN LATERAL (SELECT CASE WHEN cd.status IN ('LOCKED', 'UNLOCKED') THEN GREATEST(0, $1::date - cd.nextpaymentdate) ELSE 0 END AS days) d
            ORDER BY c.id`,
      params: [today],
    };
  }
}
