import { LockSimulator, startLockSimulator } from '../tools/simulators/lock-simulator.js';
import { ProviderSimulator, startProviderSimulator } from '../tools/simulators/provider-simulator.js';
import { Answer, bounded, call, expectMoneyConsistent, seedOverdueDeals, setUpBusiness, waitUntil, withClient } from './support/faults.js';
import { Instance, startInstance } from './support/instances.js';
import { createTestDatabase, dropTestDatabase } from './support/test-app.js';

/**
 * Three service processes on one database, every scheduled job switched on in all three:
 * 200 notifications × 50 concurrent copies spread over the three credit exactly once; the outbox
 * delivers every command exactly once, in order; the overdue run, the end of temporary unlocks and
 * the provider look-up, running in all three at the same time, do nothing twice.
 */

const IDS = 200;
const COPIES = 50;
const IN_FLIGHT = 100;
const OVERDUE = 600; // more than one batch (500) of the overdue run, so the three runs overlap
const TEMP = 20;
const LOOKUP = 20;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('Three service processes on one database, jobs on in all three', () => {
  let databaseUrl: string;
  let lock: LockSimulator;
  let provider: ProviderSimulator;
  let instances: Instance[] = [];
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    lock = await startLockSimulator({ apiKey: 'lock-key' });
    lock.setDelay(20); // a delivery takes a moment, so two senders of one command would overlap
    provider = await startProviderSimulator({ apiKey: 'mm-key' });
    const env = {
      JOBS_ENABLED: 'true',
      DEVICE_LOCK_API_URL: lock.url,
      DEVICE_LOCK_API_KEY: 'lock-key',
      MOBILE_MONEY_API_URL: provider.url,
      MOBILE_MONEY_API_KEY: 'mm-key',
      OUTBOX_POLL_MS: '100',
      OVERDUE_CHECK_MINUTES: '1', // the shortest the configuration allows: the first run is a minute after start
      MOBILE_MONEY_LOOKUP_MINUTES: '1',
    };
    instances = await Promise.all([startInstance(databaseUrl, env), startInstance(databaseUrl, env), startInstance(databaseUrl, env)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop('SIGKILL')));
    await lock?.close();
    await provider?.close();
    await dropTestDatabase(databaseUrl);
  });

  it('credits 200 × 50 concurrent copies exactly once, delivers every command once, and runs each job once per deal', async () => {
    const started = Date.now();
    const urls = instances.map((i) => i.url);
    const { admin, provider: providerToken, dealid, customers } = await setUpBusiness(urls, IDS + TEMP, 'TRI', 12);
    const payers = customers.slice(0, IDS);
    const temps = customers.slice(IDS);

    // Deals for the jobs, made before their first run (a minute after start):
    // - overdue: paid one month, 40 days ago, still UNLOCKED: the overdue run must lock each once;
    const overdue = await seedOverdueDeals(databaseUrl, dealid, OVERDUE, 'TRO');
    // - temporary unlocks whose time is up: the real state (LOCK) must be pushed once each;
    for (const t of temps) {
      const res = await call(urls[t.customerid % 3], '/finance/device/unlock-temp', admin, { customerid: t.customerid, hours: 1 });
      expect(res.status).toBe(200);
    }
    await withClient(databaseUrl, (c) => c.query(`UPDATE device_commands SET unlockuntil = now() - interval '1 minute' WHERE action = 'TEMP_UNLOCK'`));
    // - payments only the provider knows about (no callback came): the look-up must apply each once.
    for (let i = 0; i < LOOKUP; i++) provider.addTransaction({ id: `TRI-LK-${i}`, amount: 1000, tag: payers[i].payg, status: 'SUCCESS' });
    const setUpMs = Date.now() - started;

    // The storm: the copies of one notification are next to each other, so ~2 ids are in flight at once, 50 copies each, on three processes.
    const tasks: Array<() => Promise<Answer & { id: string }>> = [];
    for (let i = 0; i < IDS; i++) {
      const transaction = { id: `TRI-TX-${i}`, amount: 45000 + i, tag: payers[i].payg };
      for (let copy = 0; copy < COPIES; copy++) {
        const url = urls[(i * COPIES + copy) % 3];
        tasks.push(async () => ({ ...(await call(url, '/finance/amlogs/callback', providerToken, { transaction })), id: transaction.id }));
      }
    }
    const stormStarted = Date.now();
    const answers = await bounded(IN_FLIGHT, tasks);
    const stormMs = Date.now() - stormStarted;

    const byStatus = new Map<number, number>();
    for (const a of answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
    expect(Object.fromEntries(byStatus)).toEqual({ 200: IDS * COPIES });
    const applied = answers.filter((a) => a.body?.status === 'APPLIED');
    expect(applied).toHaveLength(IDS);
    expect(new Set(applied.map((a) => a.id)).size).toBe(IDS);
    expect(answers.filter((a) => a.body?.status === 'DUPLICATE')).toHaveLength(IDS * (COPIES - 1));

    // The jobs: every overdue deal locked, every temporary unlock ended, every look-up payment applied …
    const jobsWaitMs = await waitUntil(
      'the first runs of the jobs',
      () =>
        withClient(databaseUrl, async (c) => {
          const { rows: [r] } = await c.query(`
            SELECT (SELECT count(*) FROM customer_deals WHERE status = 'UNLOCKED' AND nextpaymentdate <= $1)::int AS overdue,
                   (SELECT count(*) FROM device_commands WHERE action = 'TEMP_UNLOCK' AND restored_at IS NULL)::int AS temps,
                   (SELECT count(*) FROM payments WHERE reference LIKE 'TRI-LK-%')::int AS lookups`, [day(0)]);
          return r.overdue === 0 && r.temps === 0 && r.lookups === LOOKUP;
        }),
      150_000,
      500,
    );
    // … and every command delivered.
    await waitUntil('every command delivered', () => withClient(databaseUrl, async (c) => (await c.query(`SELECT count(*)::int AS n FROM device_commands WHERE status = 'PENDING'`)).rows[0].n === 0), 60_000, 250);
    // Let the jobs run once more everywhere (a second run must find nothing to do).
    await new Promise((r) => setTimeout(r, 2_000));

    await withClient(databaseUrl, async (c) => {
      // exactly once: one payment per notification, each deal paid exactly its amount
      const { rows: mm } = await c.query(`SELECT reference, amount FROM payments WHERE type = 'MOBILE_MONEY' AND reference LIKE 'TRI-TX-%'`);
      expect(mm).toHaveLength(IDS);
      const { rows: deals } = await c.query(`SELECT customer_id, amountpaid, balance FROM customer_deals`);
      const paid = new Map(deals.map((d) => [d.customer_id, d]));
      for (const [i, p] of payers.entries()) {
        const expected = 60000 + 45000 + i + (i < LOOKUP ? 1000 : 0);
        expect([p.customerid, Number(paid.get(p.customerid).amountpaid), Number(paid.get(p.customerid).balance)]).toEqual([p.customerid, expected, 600000 - expected]);
      }
      const { rows: lk } = await c.query(`SELECT reference, count(*)::int AS n FROM payments WHERE reference LIKE 'TRI-LK-%' GROUP BY reference`);
      expect(lk.map((r) => r.n)).toEqual(Array(LOOKUP).fill(1));

      // the jobs did nothing twice: one LOCK per overdue deal, one restore per temporary unlock
      const { rows: locks } = await c.query(`SELECT customer_id, count(*)::int AS n FROM device_commands WHERE reason = 'payment overdue' GROUP BY customer_id ORDER BY customer_id`);
      expect(locks).toEqual(overdue.map((o) => ({ customer_id: o.customerid, n: 1 })).sort((a, b) => a.customer_id - b.customer_id));
      const { rows: ends } = await c.query(`SELECT customer_id, action, count(*)::int AS n FROM device_commands WHERE reason = 'temporary unlock ended' GROUP BY customer_id, action ORDER BY customer_id`);
      expect(ends).toEqual(temps.map((t) => ({ customer_id: t.customerid, action: 'LOCK', n: 1 })).sort((a, b) => a.customer_id - b.customer_id));
      const { rows: statuses } = await c.query(`SELECT status, count(*)::int AS n FROM customer_deals WHERE customer_id = ANY($1) GROUP BY status`, [overdue.map((o) => o.customerid)]);
      expect(statuses).toEqual([{ status: 'LOCKED', n: OVERDUE }]);

      // the outbox: every command delivered exactly once, never by two senders at once, in order per device
      const { rows: commands } = await c.query(`SELECT commandid, imei, status, action FROM device_commands ORDER BY id`);
      expect(commands).toHaveLength(IDS + OVERDUE + 2 * TEMP); // an UNLOCK per payer, a LOCK per overdue deal, TEMP_UNLOCK + LOCK per temporary unlock
      expect(commands.filter((x) => x.status !== 'DELIVERED')).toEqual([]);
      expect(commands.filter((x) => lock.received(x.commandid) !== 1).map((x) => `${x.commandid}×${lock.received(x.commandid)}`)).toEqual([]);
      expect(lock.overlaps).toBe(0);
      expect(lock.commands).toHaveLength(commands.length);
      const sentOrder = new Map<string, string[]>();
      for (const x of lock.commands) sentOrder.set(x.imei, [...(sentOrder.get(x.imei) ?? []), x.commandid]);
      for (const imei of new Set(commands.map((x) => x.imei))) expect(sentOrder.get(imei)).toEqual(commands.filter((x) => x.imei === imei).map((x) => x.commandid));
      for (const o of overdue) expect(lock.devices.get(o.imei)?.action).toBe('LOCK');
      for (const p of payers) expect(lock.devices.get(p.imei)?.action).toBe('UNLOCK');
    });

    const report = await expectMoneyConsistent(databaseUrl);
    expect(report.deals).toBe(IDS + OVERDUE + TEMP);
    process.stderr.write(
      `[faults-instances] setup ${setUpMs} ms; storm ${IDS}×${COPIES}=${answers.length} requests in ${stormMs} ms (${Math.round(answers.length / (stormMs / 1000))}/s), ` +
        `max latency ${Math.max(...answers.map((a) => a.ms))} ms; jobs done ${jobsWaitMs} ms after the storm; commands ${lock.commands.length}; ledger payments ${report.payments}\n`,
    );
  }, 300_000);
});
