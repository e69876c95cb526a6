import pg from 'pg';
import { Role } from '../src/common/auth/role.js';
import { ContractJobs } from '../src/modules/contracts/application/contract-jobs.js';
import { DeliveryWorker } from '../src/modules/device-commands/application/delivery.worker.js';
import { LockSimulator, startLockSimulator } from '../tools/simulators/lock-simulator.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { meetAtCommands } from './support/lock-waits.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * A payment that buys fewer days than a temporary unlock has left waits for the unlock's end (its
 * command would lock the phone early). The payment reads the running unlock in the statement that
 * locks the deal; when an operator's unlock held the deal at that moment, the statement waited for
 * it but still read the book as it was before the unlock, saw none, and queued its UNLOCK.
 * Here every command to the outbox waits at one moment (a lock on device_commands), so the two meet.
 */
describe('A payment arriving while an operator’s temporary unlock is being written', () => {
  let t: TestApp;
  let lock: LockSimulator;
  let operator: string;
  let provider: string;
  let dealid: number;
  let blocker: pg.Client;
  beforeAll(async () => {
    lock = await startLockSimulator({ apiKey: 'lock-key' });
    t = await startTestApp({ now: new Date('2026-03-10T08:00:00Z'), env: { DEVICE_LOCK_API_URL: lock.url, DEVICE_LOCK_API_KEY: 'lock-key' } });
    operator = await t.token(Role.OPERATOR);
    provider = await t.token(Role.PROVIDER);
    dealid = (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
    blocker = new pg.Client({ connectionString: t.databaseUrl });
    await blocker.connect();
  });
  afterAll(async () => {
    await blocker?.end();
    await t.close();
    await lock.close();
  });

  const post = (path: string, body: object, token = operator) => t.http.post(path).set('x-access-token', token).send(body).then((r) => r);
  const meet = <A, B>(first: () => Promise<A>, second: () => Promise<B>) => meetAtCommands(t, blocker, first, second);
  const actions = async (customerid: number) =>
    ((await t.db.query(`SELECT action, nextpaymentdate::text AS date FROM device_commands WHERE customer_id = $1 ORDER BY id`, [customerid])) as Array<{ action: string; date: string }>).map(
      (c) => `${c.action}:${c.date}`,
    );

  it.each([
    ['a cash payment', (customerid: number) => post('/finance/payments/load', { customerid, amount: 1500, reference: `RACE-${customerid}`, narration: 'cash' })],
    ['a mobile-money callback', (customerid: number, payg: string) => post('/finance/amlogs/callback', { transaction: { id: `MM-RACE-${customerid}`, amount: 1500, tag: payg } }, provider)],
  ])('%s that buys one day leaves the unlock its 72 hours', async (_what, pay) => {
    const c = await registerCustomer(t, dealid); // paid up to 2026-03-10: LOCKED
    const [unlocked, paid] = await meet(
      () => post('/finance/device/unlock-temp', { customerid: c.customerid, hours: 72 }), // until 2026-03-13T08:00
      () => pay(c.customerid, c.payg),
    );
    expect(unlocked.status).toBe(200);
    expect(paid.status).toBeLessThan(300);
    const deal = (await t.db.query(`SELECT status, nextpaymentdate::text AS date FROM customer_deals WHERE customer_id = $1`, [c.customerid]))[0];
    expect(deal).toEqual({ status: 'UNLOCKED', date: '2026-03-11' });
    // an UNLOCK dated 2026-03-11 after the TEMP_UNLOCK would have the phone lock itself two days early
    expect(await actions(c.customerid)).toEqual(['TEMP_UNLOCK:2026-03-10']);

    t.clock.set(new Date('2026-03-13T08:00:00Z'));
    await t.app.get(ContractJobs).endTemporaryUnlocks();
    expect(await actions(c.customerid)).toEqual(['TEMP_UNLOCK:2026-03-10', 'SYNC:2026-03-11']);
    await t.app.get(DeliveryWorker).drain();
    t.clock.set(new Date('2026-03-10T08:00:00Z'));
  });
});
