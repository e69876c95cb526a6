import { LockSimulator, startLockSimulator } from '../tools/simulators/lock-simulator.js';
import { ProviderSimulator, startProviderSimulator } from '../tools/simulators/provider-simulator.js';
import { call, Customer, expectMoneyConsistent, LONG, setUpBusiness, sleep, waitUntil, withClient } from './support/faults.js';
import { Instance, startInstance } from './support/instances.js';
import { freePort } from './support/ports.js';
import { createTestDatabase, dropTestDatabase } from './support/test-app.js';

/**
 * The outside platforms fail for real, against two service processes (test/devices.e2e-spec.ts and
 * test/mobile-money.e2e-spec.ts cover one device, a moved clock and a provider answering 503):
 * - the device-lock platform answers 503 for a long spell while commands for many devices queue
 *   up; the workers back off exponentially, then deliver every command once, in order per device;
 * - the mobile-money provider is unreachable (nothing listening), or answers a list with one bad
 *   entry, during a look-up: 502 {message} naming it, and nothing of the list is applied.
 */

const SPELL_MS = LONG ? 10 * 60_000 : 20_000;
const DEVICES = 10;

describe('Outside platforms failing', () => {
  let databaseUrl: string;
  let lock: LockSimulator;
  let provider: ProviderSimulator;
  let providerPort: number;
  let instances: Instance[] = [];
  let business: Awaited<ReturnType<typeof setUpBusiness>>;
  let operator: string;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    lock = await startLockSimulator({ apiKey: 'lock-key' });
    providerPort = await freePort();
    provider = await startProviderSimulator({ apiKey: 'mm-key', port: providerPort });
    const env = {
      JOBS_ENABLED: 'true',
      DEVICE_LOCK_API_URL: lock.url,
      DEVICE_LOCK_API_KEY: 'lock-key',
      OUTBOX_POLL_MS: '100',
      MOBILE_MONEY_API_URL: provider.url,
      MOBILE_MONEY_API_KEY: 'mm-key',
      MOBILE_MONEY_LOOKUP_MINUTES: '0', // look-ups only when asked, so the test decides when the provider is called
    };
    instances = await Promise.all([startInstance(databaseUrl, env), startInstance(databaseUrl, env)]);
    business = await setUpBusiness(instances.map((i) => i.url), DEVICES + 5, 'PLT');
    operator = business.admin;
  }, 120_000);
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop('SIGKILL')));
    await lock?.close();
    await provider?.close();
    await dropTestDatabase(databaseUrl);
  });

  const post = async (i: number, path: string, body: object, expected: number) => {
    const res = await call(instances[i % instances.length].url, path, operator, body);
    if (res.status !== expected) throw new Error(`${path} ${JSON.stringify(body)}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };

  it(`delivers every command queued during a ${SPELL_MS / 1000} s platform outage once, in order per device, backing off meanwhile`, async () => {
    const devices: Customer[] = business.customers.slice(0, DEVICES);
    lock.setDown(true);
    const spellStart = Date.now();
    // What happens to each device while the platform is down, spread over the spell; every step queues a command.
    const steps: Array<(c: Customer, i: number) => Promise<unknown>> = [
      (c, i) => post(i, '/finance/payments/load', { customerid: c.customerid, amount: 45000, reference: `PLT-A-${c.customerid}`, narration: 'cash' }, 201), // UNLOCK
      (c, i) => post(i + 1, '/finance/device/bonus-days', { customerid: c.customerid, days: 5 }, 200), // SYNC
      (c, i) => post(i, '/finance/device/unlock-temp', { customerid: c.customerid, hours: 2 }, 200), // TEMP_UNLOCK
      (c, i) => post(i + 1, '/finance/payments/load', { customerid: c.customerid, amount: 45000, reference: `PLT-B-${c.customerid}`, narration: 'cash' }, 201), // SYNC
      (c, i) =>
        i === 0
          ? post(i, '/finance/contracts/repossess', { customerid: c.customerid, reason: 'device not returned' }, 200) // PERMANENT_LOCK
          : i === 1
            ? post(i, '/finance/payments/load', { customerid: c.customerid, amount: 450000, reference: `PLT-C-${c.customerid}`, narration: 'paid off' }, 201) // RELEASE
            : post(i, '/finance/device/sync-status', { customerid: c.customerid }, 200), // SYNC
    ];
    for (const [k, step] of steps.entries()) {
      await sleep(Math.max(0, spellStart + (k * SPELL_MS) / (steps.length + 1) - Date.now()));
      await Promise.all(devices.map((c, i) => step(c, i)));
    }
    await sleep(Math.max(0, spellStart + SPELL_MS - Date.now()));

    // Still down: nothing delivered, the head command of each device retried with growing delays, the rest waiting behind it.
    const during = await withClient(databaseUrl, async (c) => (await c.query(`SELECT id, customer_id, status, attempts, last_error FROM device_commands ORDER BY id`)).rows);
    expect(during).toHaveLength(DEVICES * steps.length);
    expect(during.filter((x) => x.status !== 'PENDING')).toEqual([]);
    const heads = devices.map((d) => during.find((x) => x.customer_id === d.customerid)!);
    const maxAttempts = Math.floor(Math.log2(SPELL_MS / 1000 + 1)) + 2; // 1 s, 2 s, 4 s … apart (and one round of slack)
    for (const h of heads) {
      expect(h.attempts).toBeGreaterThanOrEqual(2);
      expect(h.attempts).toBeLessThanOrEqual(maxAttempts);
      expect(h.last_error).toBe('HTTP 503');
    }
    const headIds = new Set(heads.map((h) => h.id));
    expect(during.filter((x) => !headIds.has(x.id) && x.attempts !== 0)).toEqual([]);
    expect(lock.commands).toHaveLength(0);

    lock.setDown(false);
    const upAt = Date.now();
    const recoveryMs = await waitUntil(
      'every queued command delivered',
      () => withClient(databaseUrl, async (c) => (await c.query(`SELECT count(*)::int AS n FROM device_commands WHERE status = 'PENDING'`)).rows[0].n === 0),
      Math.min(SPELL_MS, 5 * 60_000) + 30_000, // the longest back-off a head can be in (capped at 5 minutes), and then the rest in turn
      100,
    );

    const commands = await withClient(databaseUrl, async (c) => (await c.query(`SELECT commandid, customer_id, imei, action, status, attempts FROM device_commands ORDER BY id`)).rows);
    expect(commands.filter((x) => x.status !== 'DELIVERED')).toEqual([]);
    for (const x of commands) expect([x.commandid, lock.received(x.commandid)]).toEqual([x.commandid, 1]);
    expect(lock.overlaps).toBe(0);
    for (const d of devices) {
      const mine = commands.filter((x) => x.imei === d.imei);
      expect(lock.commands.filter((x) => x.imei === d.imei).map((x) => `${x.action} ${x.commandid}`)).toEqual(mine.map((x) => `${x.action} ${x.commandid}`));
      expect(lock.devices.get(d.imei)?.action).toBe(mine[mine.length - 1].action); // the device ends in its latest state
    }
    expect(commands.filter((x) => x.customer_id === devices[0].customerid).map((x) => x.action)).toEqual(['UNLOCK', 'SYNC', 'TEMP_UNLOCK', 'SYNC', 'PERMANENT_LOCK']);
    expect(commands.filter((x) => x.customer_id === devices[1].customerid).map((x) => x.action)).toEqual(['UNLOCK', 'SYNC', 'TEMP_UNLOCK', 'SYNC', 'RELEASE']);
    await expectMoneyConsistent(databaseUrl);
    process.stderr.write(
      `[faults-platforms] lock platform down ${upAt - spellStart} ms: ${commands.length} commands for ${DEVICES} devices queued, head attempts ${heads.map((h) => h.attempts).join('/')} ` +
        `(bound ${maxAttempts}); all delivered ${recoveryMs} ms after it came back\n`,
    );
  }, LONG ? 20 * 60_000 : 120_000);

  it('answers 502 when the provider is unreachable or answers a bad list, applies nothing, then catches up once it is back', async () => {
    const payers = business.customers.slice(DEVICES);
    const txs = payers.map((c, i) => ({ id: `PLT-MM-${i}`, amount: 5000 + i, tag: c.payg, status: 'SUCCESS' as const }));
    const today = new Date().toISOString().slice(0, 10);
    const range = { startdate: today, enddate: today };
    const stored = () =>
      withClient(databaseUrl, async (c) => {
        const { rows: [r] } = await c.query(
          `SELECT (SELECT count(*) FROM payments WHERE reference LIKE 'PLT-MM-%')::int AS payments, (SELECT count(*) FROM mobile_money_transactions WHERE id LIKE 'PLT-MM-%')::int AS notifications`,
        );
        return r;
      });

    // Nothing listening where the provider should be.
    await provider.close();
    for (const [i, path, body] of [[0, '/finance/amlogs/lookup', range], [1, '/finance/payments/recon', { reference: 'PLT-MM-0' }]] as const) {
      const res = await call(instances[i].url, path, operator, body);
      expect([res.status, res.body]).toEqual([502, { message: 'Mobile-money provider failed: unreachable.' }]);
      expect(res.ms).toBeLessThan(5_000);
    }
    expect(await stored()).toEqual({ payments: 0, notifications: 0 });

    // Back, but one entry of the list is malformed: the list is refused whole, nothing of it applied.
    provider = await startProviderSimulator({ apiKey: 'mm-key', port: providerPort });
    for (const t of txs) provider.addTransaction(t);
    provider.addTransaction({ id: 'PLT-MM-BAD', amount: 'lots' as unknown as number, tag: payers[0].payg, status: 'SUCCESS' });
    const bad = await call(instances[0].url, '/finance/amlogs/lookup', operator, range);
    expect([bad.status, bad.body]).toEqual([502, { message: 'Mobile-money provider failed: it answered a malformed transaction.' }]);
    expect(await stored()).toEqual({ payments: 0, notifications: 0 });

    // Healthy again: the look-up applies each transaction once, on whichever process is asked, however often.
    provider.transactions.delete('PLT-MM-BAD');
    const [a, b] = await Promise.all(instances.map((i) => call(i.url, '/finance/amlogs/lookup', operator, range)));
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.applied + b.body.applied).toBe(txs.length);
    const again = await call(instances[1].url, '/finance/amlogs/lookup', operator, range);
    expect(again.body).toMatchObject({ applied: 0, duplicates: txs.length });
    expect(await stored()).toEqual({ payments: txs.length, notifications: txs.length });
    const recon = await call(instances[0].url, '/finance/payments/recon', operator, { reference: 'PLT-MM-0' });
    expect(recon.body).toMatchObject({ reference: 'PLT-MM-0', status: 'ALREADY_APPLIED' });
    await expectMoneyConsistent(databaseUrl);
  }, 60_000);
});
