import { LockSimulator, startLockSimulator } from '../tools/simulators/lock-simulator.js';
import { Answer, call, expectMoneyConsistent, LONG, setUpBusiness, sleep, waitUntil, withClient } from './support/faults.js';
import { Instance, startInstance } from './support/instances.js';
import { createTestDatabase, dropTestDatabase } from './support/test-app.js';

/**
 * kill -9 under load: three service processes take a steady stream of mobile-money callbacks (some
 * sent twice, to two processes at once, as providers do) while one of them, chosen at random, is
 * killed at a random moment and restarted, three times. The client sends a failed request again
 * (connection refused or reset, no answer, 5xx) with the same body to another live process until it
 * is answered. Afterwards every transaction is credited exactly once and every command delivered.
 */

const KILLS = LONG ? 10 : 3;
const CUSTOMERS = 60;
const WORKERS = 24;
const PER_TRY_TIMEOUT_MS = 10_000;

describe('kill -9 of a service process under callback load', () => {
  let databaseUrl: string;
  let lock: LockSimulator;
  const live: Instance[] = [];
  const env = () => ({ JOBS_ENABLED: 'true', DEVICE_LOCK_API_URL: lock.url, DEVICE_LOCK_API_KEY: 'k', OUTBOX_POLL_MS: '100' });
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    lock = await startLockSimulator({ apiKey: 'k' });
    lock.setDelay(30); // deliveries take a moment, so some are in flight when a process dies
    live.push(...(await Promise.all([startInstance(databaseUrl, env()), startInstance(databaseUrl, env()), startInstance(databaseUrl, env())])));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(live.splice(0).map((i) => i.stop('SIGKILL')));
    await lock?.close();
    await dropTestDatabase(databaseUrl);
  });

  it(`credits every transaction exactly once and delivers every command through ${KILLS} kills and restarts`, async () => {
    const { provider, customers } = await setUpBusiness(live.map((i) => i.url), CUSTOMERS, 'KIL');
    const transactions = new Map<string, { id: string; amount: number; tag: string }>();
    const attempts: Array<Answer & { id: string }> = [];
    let rr = 0;
    let seq = 0;
    let running = true;

    /** The client: the same body again to the next live process until one answers 200 (a 4xx is an answer too, and a failure of the test). */
    const deliver = async (transaction: { id: string; amount: number; tag: string }): Promise<Answer & { id: string }> => {
      for (let tries = 0; ; tries++) {
        const target = live[rr++ % live.length];
        const a = { ...(await call(target.url, '/finance/amlogs/callback', provider, { transaction }, PER_TRY_TIMEOUT_MS)), id: transaction.id };
        attempts.push(a);
        if (a.status !== 0 && a.status < 500) return a;
        if (tries > 200) throw new Error(`transaction ${transaction.id} not answered after ${tries} tries: ${a.error ?? a.status}`);
        await sleep(50 + Math.random() * 100);
      }
    };
    const final: Array<Answer & { id: string }> = [];
    const load = Promise.all(
      Array.from({ length: WORKERS }, async () => {
        while (running) {
          const n = ++seq;
          const c = customers[n % CUSTOMERS];
          // 45000 unlocks the first time (a device command); the small ones now and then move the paid-up date (SYNC)
          const transaction = { id: `KIL-TX-${n}`, amount: n <= CUSTOMERS ? 45000 : 100 + (n % 13), tag: c.payg };
          transactions.set(transaction.id, transaction);
          // one in five is sent twice at once, as a provider retrying too early would
          const copies = n % 5 === 0 ? [deliver(transaction), deliver(transaction)] : [deliver(transaction)];
          final.push(...(await Promise.all(copies)));
        }
      }),
    );

    const kills: Array<{ at: number; inflightcommands: number; restartms: number }> = [];
    try {
      for (let k = 0; k < KILLS; k++) {
        await sleep(1_500 + Math.random() * 2_500);
        const victim = live.splice(Math.floor(Math.random() * live.length), 1)[0];
        const inflight = lock.inFlightCount();
        await victim.stop('SIGKILL');
        const killedAt = Date.now();
        await sleep(Math.random() * 1_000);
        live.push(await startInstance(databaseUrl, env()));
        kills.push({ at: killedAt, inflightcommands: inflight, restartms: Date.now() - killedAt });
      }
      await sleep(2_000);
    } finally {
      running = false;
      await load;
    }

    // Every transaction was answered 200 in the end; nothing was refused for its content.
    expect(final.filter((a) => a.status !== 200).map((a) => `${a.status} ${JSON.stringify(a.body)}`)).toEqual([]);
    const failedTries = attempts.filter((a) => a.status === 0 || a.status >= 500);
    expect(failedTries.length).toBeGreaterThan(0); // the kills did hit requests
    // An id is APPLIED at most once; none when the process committed and died before answering (the retry says DUPLICATE).
    const appliedAnswers = new Map<string, number>();
    for (const a of final) if (a.body?.status === 'APPLIED') appliedAnswers.set(a.id, (appliedAnswers.get(a.id) ?? 0) + 1);
    expect([...appliedAnswers.values()].filter((n) => n > 1)).toEqual([]);
    const answerLost = [...transactions.keys()].filter((id) => !appliedAnswers.has(id)).length;

    await withClient(databaseUrl, async (c) => {
      const { rows } = await c.query(`SELECT reference, amount, customer_id FROM payments WHERE type = 'MOBILE_MONEY'`);
      expect(rows.length).toBe(transactions.size);
      expect(new Set(rows.map((r) => r.reference)).size).toBe(transactions.size);
      for (const r of rows) expect([r.reference, Number(r.amount)]).toEqual([r.reference, transactions.get(r.reference)!.amount]);
      const expected = new Map<number, number>(customers.map((cu) => [cu.customerid, 60000]));
      const byPayg = new Map(customers.map((cu) => [cu.payg, cu.customerid]));
      for (const t of transactions.values()) expected.set(byPayg.get(t.tag)!, expected.get(byPayg.get(t.tag)!)! + t.amount);
      const { rows: deals } = await c.query(`SELECT customer_id, amountpaid FROM customer_deals`);
      for (const d of deals) expect([d.customer_id, Number(d.amountpaid)]).toEqual([d.customer_id, expected.get(d.customer_id)]);
    });

    // Every command written before, during and after the kills is delivered by the processes alive now, in order per device.
    const drainMs = await waitUntil('every command delivered', () => withClient(databaseUrl, async (c) => (await c.query(`SELECT count(*)::int AS n FROM device_commands WHERE status = 'PENDING'`)).rows[0].n === 0), 60_000, 250);
    const commands = await withClient(databaseUrl, async (c) => (await c.query(`SELECT commandid, imei FROM device_commands ORDER BY id`)).rows);
    for (const x of commands) expect(lock.received(x.commandid)).toBeGreaterThanOrEqual(1);
    expect(lock.overlaps).toBe(0);
    expect(lock.commands).toHaveLength(commands.length); // a command sent again after a kill was dropped by its commandid
    const sentOrder = new Map<string, string[]>();
    for (const x of lock.commands) sentOrder.set(x.imei, [...(sentOrder.get(x.imei) ?? []), x.commandid]);
    for (const imei of new Set(commands.map((x) => x.imei))) expect(sentOrder.get(imei)).toEqual(commands.filter((x) => x.imei === imei).map((x) => x.commandid));
    const resent = commands.filter((x) => lock.received(x.commandid) > 1).length;

    const report = await expectMoneyConsistent(databaseUrl);
    process.stderr.write(
      `[faults-crash] transactions ${transactions.size}, tries ${attempts.length}, failed tries ${failedTries.length} ` +
        `(${[...new Set(failedTries.map((a) => a.error ?? a.status))].join(', ')}), committed but answer lost ${answerLost}; ` +
        `commands ${commands.length}, sent again after a kill ${resent}, drained ${drainMs} ms after the load; ledger payments ${report.payments}\n` +
        `  kills ${JSON.stringify(kills.map((k, i) => ({ ...k, at: i === 0 ? 0 : k.at - kills[0].at })))}\n`,
    );
  }, LONG ? 15 * 60_000 : 180_000);
});
