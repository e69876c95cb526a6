import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { containsPattern, param } from '../../../common/database/sql.js';
import { ACCOUNT_COLUMNS, JOIN_ACCOUNT } from '../../accounts/account.sql.js';
import { CONTRACT_OF_CUSTOMER_COLUMNS, ContractOfCustomer, JOIN_CONTRACT } from '../../contracts/contract.sql.js';
import { CustomerIdentity, CustomerStatus, SalesStage } from '../domain/customer.js';
import { CUSTOMER_BY_TAG } from '../customer.sql.js';

/** One customer with account and deal, as the views need it (one query, no N+1). */
export interface CustomerRow extends ContractOfCustomer, CustomerIdentity {
  customerid: number;
  serialnumber: string | null;
  salesstage: SalesStage;
  status: CustomerStatus;
  accountid: number;
  accountnumber: string;
  createdat: Date;
}

const SELECT_CUSTOMER = `
  SELECT c.id AS customerid, c.fullname, c.telephone, c.guarantorname, c.guarantorcontact, c.imei, c.payg,
         c.serialnumber, c.salesstage, c.status, ${ACCOUNT_COLUMNS}, c.created_at AS createdat, ${CONTRACT_OF_CUSTOMER_COLUMNS}
  FROM customers c
  ${JOIN_ACCOUNT('c.account_id')}
  ${JOIN_CONTRACT('c.id')}`;

export interface CustomerFilter {
  status?: CustomerStatus;
  salesstage?: SalesStage;
  search?: string;
  /** The search read as a telephone number (E.164) or an IMEI (digits only), when it is one. */
  telephone?: string;
  imei?: string;
}

@Injectable()
export class CustomersRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private q(em?: EntityManager) {
    return em ?? this.dataSource.manager;
  }

  async insertCustomer(
    em: EntityManager,
    c: { userId: number; accountId: number; fullname: string; telephone: string; guarantorname: string; guarantorcontact: string; imei: string; payg: string; createdBy: number },
  ): Promise<number> {
    const rows = (await em.query(
      `INSERT INTO customers (user_id, account_id, fullname, telephone, guarantorname, guarantorcontact, imei, payg, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [c.userId, c.accountId, c.fullname, c.telephone, c.guarantorname, c.guarantorcontact, c.imei, c.payg, c.createdBy],
    )) as Array<{ id: number }>;
    return rows[0].id;
  }

  /** Many customers in one statement (an import), with their serial numbers: the ids in the order given. */
  async insertCustomers(
    em: EntityManager,
    cs: Array<CustomerIdentity & { userId: number; accountId: number; serialnumber: string | null; status: CustomerStatus; salesstage: SalesStage | null; createdBy: number }>,
  ): Promise<number[]> {
    if (cs.length === 0) return [];
    const column = <K extends keyof (typeof cs)[number]>(key: K) => cs.map((c) => c[key]);
    const rows = (await em.query(
      `INSERT INTO customers (user_id, account_id, fullname, telephone, guarantorname, guarantorcontact, imei, payg, serialnumber, status, salesstage, created_by)
       SELECT u, a, f, t, g, gc, i, p, s, st, COALESCE(ss, 'ENROLLMENT'), b
       FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::int[])
            WITH ORDINALITY AS x(u, a, f, t, g, gc, i, p, s, st, ss, b, o)
       ORDER BY o
       RETURNING id, user_id`,
      [column('userId'), column('accountId'), column('fullname'), column('telephone'), column('guarantorname'), column('guarantorcontact'), column('imei'), column('payg'), column('serialnumber'),
        column('status'), column('salesstage'), column('createdBy')],
    )) as Array<{ id: number; user_id: number }>;
    const ids = new Map(rows.map((r) => [r.user_id, r.id]));
    return cs.map((c) => ids.get(c.userId)!);
  }

  async findById(id: number, em?: EntityManager): Promise<CustomerRow | null> {
    const rows = (await this.q(em).query(`${SELECT_CUSTOMER} WHERE c.id = $1`, [id])) as CustomerRow[];
    return rows[0] ?? null;
  }

  async findByAccountNumber(accountnumber: string): Promise<CustomerRow | null> {
    const rows = (await this.q().query(`${SELECT_CUSTOMER} WHERE a.accountnumber = $1`, [accountnumber.trim().toUpperCase()])) as CustomerRow[];
    return rows[0] ?? null;
  }

  async findByAccountId(accountId: number): Promise<CustomerRow | null> {
    const rows = (await this.q().query(`${SELECT_CUSTOMER} WHERE a.id = $1`, [accountId])) as CustomerRow[];
    return rows[0] ?? null;
  }

  async takenIdentifiers(c: { telephones: string[]; paygs: string[]; imeis: string[] }, em?: EntityManager) {
    const rows = (await this.q(em).query(
      `SELECT 't' AS k, telephone AS v FROM customers WHERE telephone = ANY($1)
       UNION ALL SELECT 't', username FROM users WHERE username = ANY($1)
       UNION ALL SELECT 'p', lower(payg) FROM customers WHERE lower(payg) = ANY($2)
       UNION ALL SELECT CASE WHEN status IN ('LOCKED', 'UNLOCKED') THEN 'i' ELSE 'd' END, imei FROM customer_deals WHERE imei = ANY($3)`,
      [c.telephones, c.paygs.map((p) => p.toLowerCase()), c.imeis],
    )) as Array<{ k: string; v: string }>;
    const of = (k: string) => new Set(rows.filter((r) => r.k === k).map((r) => r.v));
    // imeis: on a deal still being paid for; knownImeis: on any deal the book has (closed ones too)
    return { telephones: of('t'), paygs: of('p'), imeis: of('i'), knownImeis: new Set([...of('i'), ...of('d')]) };
  }

  async byPaygsOrIds(paygs: string[], ids: number[], em?: EntityManager) {
    const rows = (await this.q(em).query(
      `SELECT id, lower(payg) AS payg FROM customers WHERE lower(payg) = ANY($1) OR id = ANY($2) ORDER BY payg_legacy_duplicate DESC, id DESC`,
      [paygs.map((p) => p.toLowerCase()), ids],
    )) as Array<{ id: number; payg: string }>;
    // the oldest holder of a legacy duplicate code wins, as in idByPayg (rows come newest first, later sets overwrite)
    return { byPayg: new Map(rows.map((r) => [r.payg, r.id])), ids: new Set(rows.map((r) => r.id)) };
  }

  async hasTag(em: EntityManager, tag: string): Promise<boolean> {
    const rows = (await em.query(CUSTOMER_BY_TAG('$1'), [tag])) as unknown[];
    return rows.length > 0;
  }

  async exists(id: number, em?: EntityManager): Promise<boolean> {
    const rows = (await this.q(em).query('SELECT 1 FROM customers WHERE id = $1', [id])) as unknown[];
    return rows.length > 0;
  }

  /** Locks the customer row for a status change. */
  async lockStatus(id: number, em: EntityManager): Promise<CustomerStatus | null> {
    const rows = (await em.query('SELECT status FROM customers WHERE id = $1 FOR UPDATE', [id])) as Array<{ status: CustomerStatus }>;
    return rows[0]?.status ?? null;
  }

  async setStatus(id: number, status: CustomerStatus, em: EntityManager): Promise<void> {
    await em.query('UPDATE customers SET status = $2, updated_at = now() WHERE id = $1', [id, status]);
  }

  async markRepossessed(id: number, em: EntityManager): Promise<void> {
    await em.query(`UPDATE customers SET status = 'REPOSSESSED', updated_at = now() WHERE id = $1`, [id]);
  }

  /** The final PAYG code and serial number, once the lock platform confirmed the lock; false for an unknown customer. */
  async setDevice(id: number, payg: string, serialnumber: string, em: EntityManager): Promise<boolean> {
    const [, affected] = (await em.query('UPDATE customers SET payg = $2, serialnumber = $3, updated_at = now() WHERE id = $1', [id, payg, serialnumber])) as [unknown, number];
    return affected > 0;
  }

  async setSalesStage(id: number, salesstage: SalesStage): Promise<boolean> {
    const [, affected] = (await this.q().query('UPDATE customers SET salesstage = $2, updated_at = now() WHERE id = $1', [id, salesstage])) as [unknown, number];
    return affected > 0;
  }

  /**
   * A page of customers, newest first, with the number of all that match. The filter runs on
   * `customers` alone and yields ids (each search arm has its own index, so PostgreSQL ORs index
   * scans); only the page's twenty rows are joined to their account and contract. Which arms a search
   * takes depends on what it could be: a name (when it has a letter: trigram index), the end of a
   * telephone number (four digits or more: `reverse(telephone)` b-tree), or a whole PAYG code, IMEI or
   * account number (b-trees). Part of a name made only of digits is not looked for; nor are digits in the
   * middle of a telephone number (every number shares its country code, so a trigram search on
   * telephones visits the whole book).
   */
  async list(filter: CustomerFilter, page: number, limit: number): Promise<{ rows: CustomerRow[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.status) where.push(`c.status = ${param(params, filter.status)}`);
    if (filter.salesstage) where.push(`c.salesstage = ${param(params, filter.salesstage)}`);
    if (filter.search) where.push(`(${searchArms(filter, params).join(' OR ')})`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const rows = (await this.q().query(
      // A search's matches are collected first (index scans, OR-ed), then sorted: left to itself the planner
      // may walk the primary key from the newest customer down, testing each, to fill a page of a common name.
      `WITH matching AS ${filter.search ? '' : 'NOT '}MATERIALIZED (SELECT c.id FROM customers c ${clause}),
            shown AS (SELECT id FROM matching ORDER BY id DESC LIMIT ${param(params, limit)} OFFSET ${param(params, (page - 1) * limit)})
       SELECT x.*, (SELECT count(*) FROM matching)::int AS total
       FROM (${SELECT_CUSTOMER} WHERE c.id IN (SELECT id FROM shown)) x ORDER BY x.customerid DESC`,
      params,
    )) as Array<CustomerRow & { total: number }>;
    let total = rows[0]?.total;
    if (total === undefined) {
      // Past the last page there is no row to carry the count: count on its own.
      const [{ n }] = (await this.q().query(`SELECT count(*)::int AS n FROM customers c ${clause}`, params.slice(0, -2))) as Array<{ n: number }>;
      total = n;
    }
    return { rows, total };
  }

  async statusCounts(): Promise<Array<{ status: CustomerStatus; n: number }>> {
    return this.q().query('SELECT status, count(*)::int AS n FROM customers GROUP BY status');
  }
}

/** The conditions a search term is tried against, OR-ed (see `list`). */
function searchArms(filter: CustomerFilter, params: unknown[]): string[] {
  const term = filter.search!;
  const exact = param(params, term);
  const arms = [`lower(c.payg) = lower(${exact})`, `c.imei = ${exact}`, `c.account_id = (SELECT id FROM accounts WHERE accountnumber = upper(${exact}))`];
  if (/\p{L}/u.test(term)) arms.push(`c.fullname ILIKE ${param(params, containsPattern(term))}`);
  const digits = term.replace(/[\s().-]/g, '');
  if (/^\+?\d{4,}$/.test(digits)) arms.push(`reverse(c.telephone) LIKE ${param(params, `${[...digits.replace('+', '')].reverse().join('')}%`)}`);
  if (filter.telephone) arms.push(`c.telephone = ${param(params, filter.telephone)}`);
  if (filter.imei && filter.imei !== term) arms.push(`c.imei = ${param(params, filter.imei)}`);
  return arms;
}
