import { LockSimulator, startLockSimulator } from '../tools/simulators/lock-simulator.js';
import { uniqueImei, uniqueTelephone } from './support/fixtures.js';
import { sleep, waitUntil, withClient } from './support/faults.js';
import { api, Instance, signIn, startInstance } from './support/instances.js';
import { ADMIN, createTestDatabase, dropTestDatabase } from './support/test-app.js';

/**
 * A service process that stops answering without dying (frozen: SIGSTOP here; in life a paused VM or
 * container, a process stuck in a long pause, a network partition between it and the database) in
 * the middle of a delivery round. Its transaction stays open on the database, with the row locks of
 * the commands it claimed: no other instance may send them, nor any later command of those devices.
 * A killed process loses its session at once; a frozen one kept it, and the devices waited as long as
 * the freeze (hours: the server learns of a vanished client only by TCP keep-alive). The database
 * now ends a session idle in a transaction for DB_IDLE_TRANSACTION_SECONDS, and the other instances deliver.
 */
describe('A service process frozen in the middle of a delivery round', () => {
  let databaseUrl: string;
  let lock: LockSimulator;
  const running: Instance[] = [];
  // the shortest DB_IDLE_TRANSACTION_SECONDS, so that the test waits 15 s for the frozen session to end, not a minute
  const env = () => ({ JOBS_ENABLED: 'true', DEVICE_LOCK_API_URL: lock.url, DEVICE_LOCK_API_KEY: 'k', OUTBOX_POLL_MS: '100', DB_IDLE_TRANSACTION_SECONDS: '15' });
  const pending = () => withClient(databaseUrl, async (c) => Number((await c.query(`SELECT count(*)::int AS n FROM device_commands WHERE status = 'PENDING'`)).rows[0].n));

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    lock = await startLockSimulator({ apiKey: 'k' });
  });
  afterAll(async () => {
    for (const i of running) i.proc.kill('SIGCONT');
    await Promise.all(running.map((i) => i.stop('SIGKILL')));
    await lock?.close();
    await dropTestDatabase(databaseUrl);
  });

  it('lets another instance deliver the commands the frozen one claimed once DB_IDLE_TRANSACTION_SECONDS have passed', async () => {
    lock.setDown(true); // nothing goes out while the commands are written
    const frozen = await startInstance(databaseUrl, env());
    running.push(frozen);
    const admin = await signIn(frozen.url, ADMIN.username, ADMIN.password);
    const deal = await api(frozen.url, '/finance/deals/create', admin, { dealname: 'Phone', totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 });
    for (let i = 0; i < 4; i++) {
      const reg = await api(frozen.url, '/finance/customers/register', admin, {
        fullname: `Frozen ${i}`, telephone: uniqueTelephone(), dealid: deal.body.dealid, deposit: 60000,
        guarantorname: 'G', guarantorcontact: '+256700000000', imei: uniqueImei(), payg: `FROZEN-${i}`,
      });
      expect(reg.status).toBe(201);
      expect((await api(frozen.url, '/finance/payments/load', admin, { customerid: reg.body.customerid, amount: 45000, reference: `FROZEN-PAY-${i}`, narration: 'cash' })).status).toBe(201);
    }
    expect(await pending()).toBe(4);
    lock.setDelay(3_000); // the platform takes its time …
    lock.setDown(false);
    // nudged due again until one is in flight: a round that was failing them while the platform was down may
    // have set their backoff again after a single nudge (seen on a loaded machine)
    const nudge = () =>
      withClient(databaseUrl, (c) => c.query(`UPDATE device_commands SET next_attempt_at = now() WHERE id IN (SELECT id FROM device_commands WHERE status = 'PENDING' FOR UPDATE SKIP LOCKED)`));
    await waitUntil('a delivery in flight', async () => lock.inFlightCount() > 0 || (await nudge(), lock.inFlightCount() > 0), 30_000, 200);
    frozen.proc.kill('SIGSTOP'); // … and the process sending stops in the middle of its round

    const other = await startInstance(databaseUrl, env());
    running.push(other);
    lock.setDelay(0);
    const started = Date.now();
    // the frozen round's commands are held by its open transaction; nudged due again so that no backoff is waited for
    await waitUntil(
      'every command delivered by the other instance',
      async () => {
        await nudge();
        return (await pending()) === 0;
      },
      90_000,
      500,
    );
    process.stderr.write(`[faults-frozen] delivered ${Date.now() - started} ms after the freeze\n`);
    const { rows } = await withClient(databaseUrl, (c) => c.query(`SELECT commandid FROM device_commands`));
    for (const { commandid } of rows) expect(lock.received(commandid)).toBeGreaterThanOrEqual(1);
    expect(lock.commands).toHaveLength(4); // the frozen round's sends arrived too: the platform dropped the repeats by commandid

    // the frozen process, let go, finds its transaction ended and carries on
    frozen.proc.kill('SIGCONT');
    await sleep(2_000);
    expect((await api(frozen.url, '/health', undefined)).status).toBe(200);
    expect(await pending()).toBe(0);
  }, 180_000);
});
