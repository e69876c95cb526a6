import pg from 'pg';
import { LockSimulator, startLockSimulator } from '../tools/simulators/lock-simulator.js';
import { uniqueImei, uniqueTelephone } from './support/fixtures.js';
import { api, Instance, signIn, startInstance } from './support/instances.js';
import { ADMIN, createTestDatabase, dropTestDatabase } from './support/test-app.js';

/** Polls `check`; `nudge`, when given, runs once a second while waiting. */
const waitUntil = async (what: string, check: () => Promise<boolean> | boolean, ms = 30_000, nudge?: () => Promise<unknown>) => {
  const deadline = Date.now() + ms;
  let nudged = Date.now();
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    if (nudge && Date.now() - nudged >= 1000) {
      nudged = Date.now();
      await nudge();
    }
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** Registers customers and pays each one instalment through an instance: one UNLOCK command each. */
async function customersWithUnlocks(url: string, n: number, prefix: string): Promise<void> {
  const admin = await signIn(url, ADMIN.username, ADMIN.password);
  const deal = await api(url, '/finance/deals/create', admin, { dealname: 'Phone', totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 });
  for (let i = 0; i < n; i++) {
    const reg = await api(url, '/finance/customers/register', admin, {
      fullname: `${prefix} ${i}`, telephone: uniqueTelephone(), dealid: deal.body.dealid, deposit: 60000,
      guarantorname: 'G', guarantorcontact: '+256700000000', imei: uniqueImei(), payg: `${prefix}-PAYG-${i}`,
    });
    expect(reg.status).toBe(201);
    const paid = await api(url, '/finance/payments/load', admin, { customerid: reg.body.customerid, amount: 45000, reference: `${prefix}-PAY-${i}`, narration: 'cash' });
    expect(paid.status).toBe(201);
  }
}

describe('The device-command outbox across processes', () => {
  let lock: LockSimulator;
  let databaseUrl: string;
  let client: pg.Client;
  const running: Instance[] = [];
  const env = () => ({ DEVICE_LOCK_API_URL: lock.url, DEVICE_LOCK_API_KEY: 'k', JOBS_ENABLED: 'true', OUTBOX_POLL_MS: '100' });
  const pending = async () => Number((await client.query(`SELECT count(*)::int AS n FROM device_commands WHERE status = 'PENDING'`)).rows[0].n);
  // A send that fails on its way (a keep-alive socket the simulator closed just then, on a loaded
  // machine) is retried after its backoff, which after the outage's attempts can be 16–32 s: the
  // tests make pending commands due again instead of waiting for it, skipping (never waiting for)
  // those a worker is sending. What they test is untouched.
  const dueNow = () =>
    client.query(`UPDATE device_commands SET next_attempt_at = now() WHERE id IN (SELECT id FROM device_commands WHERE status = 'PENDING' FOR UPDATE SKIP LOCKED)`);

  beforeEach(async () => {
    lock = await startLockSimulator({ apiKey: 'k' });
    databaseUrl = await createTestDatabase();
    client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((i) => i.stop('SIGKILL')));
    await client.end();
    await dropTestDatabase(databaseUrl);
    await lock.close();
  });

  it('delivers every command after the instance is killed with -9 mid-delivery and restarted', async () => {
    lock.setDown(true); // nothing goes out while the commands are written
    const first = await startInstance(databaseUrl, env());
    running.push(first);
    await customersWithUnlocks(first.url, 6, 'KILL');
    expect(await pending()).toBe(6);
    lock.setDown(false);
    lock.setDelay(3_000); // deliveries hang at the platform …
    await dueNow();
    await waitUntil('a delivery in flight', () => lock.inFlightCount() > 0, 30_000, dueNow).catch(async (error: Error) => {
      // say why: what the outbox holds and what the instance logged
      const rows = (await client.query(`SELECT action, status, attempts, next_attempt_at, now() AS db_now, last_error FROM device_commands ORDER BY id`)).rows;
      throw new Error(`${error.message}\ncommands: ${JSON.stringify(rows)}\nsimulator: ${lock.commands.length} accepted\ninstance: ${first.output().slice(-4000)}`);
    });
    await first.stop('SIGKILL'); // … and the process dies before it can record them
    running.splice(0);
    expect(await pending()).toBe(6);
    lock.setDelay(0);
    const second = await startInstance(databaseUrl, env());
    running.push(second);
    await waitUntil('all commands delivered', async () => (await pending()) === 0, 30_000, dueNow);
    const { rows } = await client.query(`SELECT commandid FROM device_commands WHERE status = 'DELIVERED'`);
    expect(rows).toHaveLength(6);
    for (const { commandid } of rows) expect(lock.received(commandid)).toBeGreaterThanOrEqual(1);
    expect(lock.commands).toHaveLength(6); // repeats were dropped by commandid: each device told once
  }, 120_000);

  it('never has two instances send one command at the same time', async () => {
    lock.setDown(true);
    const a = await startInstance(databaseUrl, env());
    const b = await startInstance(databaseUrl, env());
    running.push(a, b);
    await customersWithUnlocks(a.url, 30, 'PAIR');
    lock.setDelay(50);
    lock.setDown(false);
    await dueNow();
    await waitUntil('all commands delivered', async () => (await pending()) === 0, 60_000, dueNow);
    expect(lock.overlaps).toBe(0);
    const { rows } = await client.query(`SELECT commandid FROM device_commands`);
    for (const { commandid } of rows) expect(lock.received(commandid)).toBe(1);
  }, 120_000);
});

