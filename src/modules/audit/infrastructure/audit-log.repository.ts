import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { param } from '../../../common/database/sql.js';

export interface AuditFilter {
  userid?: number;
  customerid?: number;
  record?: string;
  route?: string;
  startdate?: string;
  enddate?: string;
  timeZone: string;
}

export interface AuditRow {
  auditid: string;
  userid: number | null;
  username: string | null;
  method: string;
  route: string;
  recordid: string | null;
  status: number;
  requestid: string | null;
  at: Date;
}

/**
 * Routes whose audit row names the customer (the writer takes the first id it finds in the answer's top
 * level, else in the body: a loaded payment's answer nests the payment, so its row names the customer).
 */
const CUSTOMER_ROUTES = [
  '/finance/customers/register',
  '/finance/customers/approve',
  '/finance/customers/salesstage',
  '/finance/customers/bonus',
  '/finance/customers/preferences',
  '/finance/device/unlock-temp',
  '/finance/device/bonus-days',
  '/finance/device/sync-status',
  '/finance/device/lock-update',
  '/finance/contracts/repossess',
  '/finance/payments/load',
  '/finance/amlogs/assign',
];

/** Reads the audit_log table the AuditWriter (src/common/audit) fills; it never writes it. */
@Injectable()
export class AuditLogRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(filter: AuditFilter, page: number, limit: number): Promise<{ rows: AuditRow[]; total: number }> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (filter.userid !== undefined) where.push(`l.user_id = ${param(params, filter.userid)}`);
    if (filter.record !== undefined) where.push(`l.record_id = ${param(params, filter.record)}`);
    if (filter.route !== undefined) where.push(`l.route = ${param(params, filter.route)}`);
    if (filter.startdate !== undefined) where.push(`l.at >= ${param(params, filter.startdate)}::date::timestamp AT TIME ZONE ${param(params, filter.timeZone)}`);
    if (filter.enddate !== undefined) where.push(`l.at < (${param(params, filter.enddate)}::date + 1)::timestamp AT TIME ZONE ${param(params, filter.timeZone)}`);
    if (filter.customerid !== undefined) {
      where.push(`l.record_id = ${param(params, String(filter.customerid))} AND l.route = ANY(${param(params, CUSTOMER_ROUTES)})`);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const rows = (await this.dataSource.query(
      `SELECT l.id AS auditid, l.user_id AS userid, u.username, l.method, l.route, l.record_id AS recordid, l.status,
              l.request_id AS requestid, l.at, count(*) OVER ()::int AS total
       FROM audit_log l LEFT JOIN users u ON u.id = l.user_id
       ${clause}
       ORDER BY l.at DESC, l.id DESC
       LIMIT ${param(params, limit)} OFFSET ${param(params, (page - 1) * limit)}`,
      params,
    )) as Array<AuditRow & { total: number }>;
    const total = rows[0]?.total ?? (page > 1 ? await this.count(clause, params.slice(0, -2)) : 0);
    // the window's count is the page's, not each entry's
    return { rows: rows.map(({ total: _, ...row }) => row), total };
  }

  private async count(clause: string, params: unknown[]): Promise<number> {
    const [row] = (await this.dataSource.query(`SELECT count(*)::int AS total FROM audit_log l ${clause}`, params)) as Array<{ total: number }>;
    return row.total;
  }
}
