import { writeFileSync } from 'node:fs';
import { LockSimulator, startLockSimulator } from '../tools/simulators/lock-simulator.js';
import { Answer, bounded, call, Customer, expectMoneyConsistent, LONG, OwnPostgres, percentile, setUpBusiness, sleep, startOwnPostgres, waitUntil, withClient } from './support/faults.js';
import { Instance, startInstance } from './support/instances.js';

/**
 * The database goes away under load and comes back: a service instance on a PostgreSQL server of
 * this test's own, restarted three ways (pg_ctl restart -m immediate, an immediate stop with the
 * server down for a while, a fast stop likewise). Requests during an outage must be answered 503
 * {message} within 5 s and never hang; the service must recover by itself within 10 s of the
 * database coming back; /health goes 503 then 200; and no money is half-applied.
 */

const DOWN_MS = LONG ? 10 * 60_000 : 6_000;
const CUSTOMERS = 40;
const WORKERS = 12;
const ANSWER_WITHIN_MS = 5_000;
const RECOVER_WITHIN_MS = 10_000;

interface Sent extends Answer {
  kind: 'callback' | 'load';
  path: string;
  /** what was sent; `body` is what came back */
  payload: any;
  token: string;
  start: number;
  end: number;
}

interface Outage {
  name: string;
  down: number;
  up: number;
  /** the load ran on until then before anything else was done */
  until?: number;
}

describe('Database outage under load', () => {
  let db: OwnPostgres;
  let lock: LockSimulator;
  let instance: Instance;
  beforeAll(async () => {
    db = await startOwnPostgres('payg_faults_outage_test');
    lock = await startLockSimulator({ apiKey: 'k' });
    instance = await startInstance(db.url, { JOBS_ENABLED: 'true', DEVICE_LOCK_API_URL: lock.url, DEVICE_LOCK_API_KEY: 'k', OUTBOX_POLL_MS: '200', DB_POOL_SIZE: '10' }, { outputLimit: 20_000_000 });
  }, 120_000);
  afterAll(async () => {
    // FAULTS_DUMP=<file>: keep the service's log of the run (every 5xx is logged with its cause)
    if (process.env.FAULTS_DUMP && instance) writeFileSync(process.env.FAULTS_DUMP, instance.output());
    await instance?.stop('SIGKILL');
    await lock?.close();
    await db?.destroy();
  });

  it(`answers 503 quickly while the database is down (${DOWN_MS / 1000} s), recovers by itself, and half-applies nothing`, async () => {
    const { admin, provider, customers } = await setUpBusiness([instance.url], CUSTOMERS, 'DBO');
    const sent: Sent[] = [];
    const health: Array<{ at: number; status: number; ms: number }> = [];
    let seq = 0;
    let running = true;

    const request = async (kind: Sent['kind'], path: string, token: string, body: unknown): Promise<Sent> => {
      const start = Date.now();
      const answer = await call(instance.url, path, token, body, 20_000);
      const r: Sent = { ...answer, kind, path, payload: body, token, start, end: Date.now() };
      sent.push(r);
      return r;
    };
    const nextRequest = () => {
      const n = ++seq;
      const c: Customer = customers[n % CUSTOMERS];
      if (n % 5 === 0) return request('load', '/finance/payments/load', admin, { customerid: c.customerid, amount: 15, reference: `DBO-LOAD-${n}`, narration: 'cash' });
      // 45000 the first time round unlocks (a device command); the small ones after it move the paid-up date now and then (SYNC)
      return request('callback', '/finance/amlogs/callback', provider, { transaction: { id: `DBO-TX-${n}`, amount: n <= CUSTOMERS ? 45000 : 10 + (n % 7), tag: c.payg } });
    };
    const load = Promise.all(
      Array.from({ length: WORKERS }, async () => {
        while (running) {
          const r = await nextRequest();
          if (r.status === 503) await sleep(50); // a client backs off a little on 503
        }
      }),
    );
    const healthPoller = (async () => {
      while (running) {
        const start = Date.now();
        const r = await call(instance.url, '/health', undefined, undefined, 20_000);
        health.push({ at: start, status: r.status, ms: r.ms });
        await sleep(250);
      }
    })();

    const outages: Outage[] = [];
    const outage = async (name: string, stop: () => Promise<void>, downMs: number) => {
      const down = Date.now();
      await stop();
      await sleep(downMs);
      await db.start();
      const up = Date.now();
      outages.push({ name, down, up });
      // recovered: the first request started after the database came back that succeeded
      await waitUntil(`recovery after ${name}`, () => sent.some((r) => r.start >= up && r.status >= 200 && r.status < 300), 30_000, 50);
      // keep the load on past the recovery deadline, so that "everything works again by then" is observed
      await sleep(Math.max(2_000, up + RECOVER_WITHIN_MS + 2_000 - Date.now()));
      outages[outages.length - 1].until = Date.now();
    };
    try {
      await sleep(3_000);
      await outage('restart -m immediate', () => db.killImmediate(), 0);
      await outage(`immediate stop, ${DOWN_MS / 1000} s down`, () => db.killImmediate(), DOWN_MS);
      await outage(`fast stop, ${DOWN_MS / 1000} s down`, () => db.stopFast(), DOWN_MS);
    } finally {
      running = false;
      await load;
      await healthPoller;
    }

    // The service process itself never went down, and every request got an HTTP answer.
    expect(instance.proc.exitCode).toBeNull();
    expect(sent.filter((r) => r.status === 0).map((r) => `${r.path} ${r.error} after ${r.ms} ms`)).toEqual([]);
    // Only successes and 503: no 500, no 401 for a good token, no 409 for a first attempt.
    const unexpected = sent.filter((r) => ![200, 201, 503].includes(r.status));
    expect({ count: unexpected.length, first: unexpected.slice(0, 5).map((r) => `${r.path} ${JSON.stringify(r.payload)} → ${r.status} ${JSON.stringify(r.body)} after ${r.ms} ms`) }).toEqual({ count: 0, first: [] });
    const refused = sent.filter((r) => r.status === 503);
    for (const r of refused) expect(r.body).toEqual({ message: expect.any(String) });
    const maxLatency = sent.reduce((most, r) => Math.max(most, r.ms), 0); // the long variant sends more than Math.max(...) takes arguments
    expect(maxLatency).toBeLessThanOrEqual(ANSWER_WITHIN_MS);

    const figures: Record<string, unknown>[] = [];
    for (const o of outages) {
      const during = sent.filter((r) => r.start >= o.down + 300 && r.end <= o.up);
      const firstOk = sent.filter((r) => r.start >= o.up && r.status < 300).sort((a, b) => a.end - b.end)[0];
      const recoveryMs = firstOk.end - o.up;
      expect(recoveryMs).toBeLessThanOrEqual(RECOVER_WITHIN_MS);
      // every request made while the database was down was refused (none waited for it to come back: ≤ 5 s above)
      expect(during.filter((r) => r.status !== 503).map((r) => `${r.status} ${r.ms} ms`)).toEqual([]);
      // and ten seconds after it came back everything works again
      const late = sent.filter((r) => r.start >= o.up + RECOVER_WITHIN_MS && r.end <= o.until!);
      expect(late.length).toBeGreaterThan(0);
      expect(late.filter((r) => r.status >= 300).map((r) => `${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
      const lastFailure = sent.filter((r) => r.start >= o.up && r.end <= o.until! && r.status >= 300).sort((a, b) => b.end - a.end)[0];
      const healthDuring = health.filter((h) => h.at >= o.down + 300 && h.at + h.ms <= o.up);
      if (o.up - o.down > 2_000) expect(healthDuring.length).toBeGreaterThan(0);
      expect(healthDuring.every((h) => h.status === 503)).toBe(true);
      const healthBack = health.find((h) => h.at >= o.up && h.status === 200);
      expect(healthBack).toBeDefined();
      expect(healthBack!.at + healthBack!.ms - o.up).toBeLessThanOrEqual(RECOVER_WITHIN_MS);
      const refusedHere = sent.filter((r) => r.status === 503 && r.start >= o.down - 1000 && r.start <= o.up + RECOVER_WITHIN_MS);
      figures.push({
        outage: o.name,
        downms: o.up - o.down,
        requestsduring: during.length,
        answered503: refusedHere.length,
        max503ms: Math.max(0, ...refusedHere.map((r) => r.ms)),
        p95_503ms: percentile(refusedHere.map((r) => r.ms), 95),
        recoveryms: recoveryMs,
        lastfailurems: lastFailure ? lastFailure.end - o.up : 0,
        healthbackms: healthBack!.at + healthBack!.ms - o.up,
      });
    }
    expect(health.some((h) => h.status === 503)).toBe(true);
    expect(health[health.length - 1].status).toBe(200);

    // Settle: every request that was refused or lost is sent again, same body, until it is answered.
    const unsettled = sent.filter((r) => r.status === 503);
    const settled = await bounded(8, unsettled.map((r) => async () => {
      for (;;) {
        const again = await call(instance.url, r.path, r.token, r.payload);
        if (again.status !== 503 && again.status !== 0) return again;
        await sleep(200);
      }
    }));
    // A refused callback is credited now or was already (its commit landed before the connection died); a refused load likewise (409: reference used).
    for (const [i, a] of settled.entries()) {
      if (unsettled[i].kind === 'callback') expect([200]).toContain(a.status);
      else expect([201, 409]).toContain(a.status);
    }
    const committedButRefused = settled.filter((a, i) => (unsettled[i].kind === 'callback' ? a.body?.status === 'DUPLICATE' : a.status === 409)).length;

    // Exactly once: one payment per callback id and per load reference, and each deal paid exactly what was sent for it.
    const callbacks = new Map<string, { amount: number; tag: string }>();
    for (const r of sent.filter((s) => s.kind === 'callback')) callbacks.set(r.payload.transaction.id, r.payload.transaction);
    const loads = new Map<string, { customerid: number; amount: number }>();
    for (const r of sent.filter((s) => s.kind === 'load')) loads.set(r.payload.reference, r.payload);
    await withClient(db.url, async (c) => {
      const mm = await c.query(`SELECT reference, amount FROM payments WHERE type = 'MOBILE_MONEY'`);
      expect(mm.rows.length).toBe(callbacks.size);
      const manual = await c.query(`SELECT reference FROM payments WHERE type = 'MANUAL'`);
      expect(manual.rows.length).toBe(loads.size);
      const expected = new Map<number, number>(customers.map((cu) => [cu.customerid, 60000]));
      const byPayg = new Map(customers.map((cu) => [cu.payg, cu.customerid]));
      for (const t of callbacks.values()) expected.set(byPayg.get(t.tag)!, expected.get(byPayg.get(t.tag)!)! + t.amount);
      for (const l of loads.values()) expected.set(l.customerid, expected.get(l.customerid)! + l.amount);
      const { rows } = await c.query(`SELECT customer_id, amountpaid FROM customer_deals`);
      for (const row of rows) expect([row.customer_id, Number(row.amountpaid)]).toEqual([row.customer_id, expected.get(row.customer_id)]);
    });

    // The outbox survived the outages: every command is delivered, in order per device.
    await waitUntil('every device command delivered', () => withClient(db.url, async (c) => (await c.query(`SELECT count(*)::int AS n FROM device_commands WHERE status = 'PENDING'`)).rows[0].n === 0), 60_000, 250);
    const commands = await withClient(db.url, async (c) => (await c.query(`SELECT id, commandid, imei FROM device_commands ORDER BY id`)).rows);
    for (const cmd of commands) expect(lock.received(cmd.commandid)).toBeGreaterThanOrEqual(1);
    expect(lock.commands.length).toBe(commands.length); // repeats after a lost commit were dropped by commandid
    for (const imei of new Set(commands.map((c) => c.imei))) {
      expect(lock.commands.filter((c) => c.imei === imei).map((c) => c.commandid)).toEqual(commands.filter((c) => c.imei === imei).map((c) => c.commandid));
    }

    const report = await expectMoneyConsistent(db.url);
    process.stderr.write(
      `[faults-db-outage] requests=${sent.length} (callbacks ${callbacks.size}, loads ${loads.size}) 503s=${refused.length} maxLatencyMs=${maxLatency} ` +
        `committedButRefused=${committedButRefused} commands=${commands.length} deals=${report.deals} payments=${report.payments}\n` +
        figures.map((f) => `  ${JSON.stringify(f)}`).join('\n') +
        '\n',
    );
  }, LONG ? 40 * 60_000 : 180_000);
});
