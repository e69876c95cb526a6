import { jest } from '@jest/globals';
import { Role } from '../src/common/auth/role.js';
import { DeviceCommandsRepository } from '../src/modules/device-commands/infrastructure/device-commands.repository.js';
import { DeliveryWorker } from '../src/modules/device-commands/application/delivery.worker.js';
import { ContractJobs } from '../src/modules/contracts/application/contract-jobs.js';
import { LockSimulator, startLockSimulator } from '../tools/simulators/lock-simulator.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('Device locking, bonus days and repossession', () => {
  let t: TestApp;
  let lock: LockSimulator;
  let operator: string;
  let dealid: number;
  let worker: DeliveryWorker;
  let jobs: ContractJobs;
  beforeAll(async () => {
    lock = await startLockSimulator({ apiKey: 'lock-key' });
    t = await startTestApp({ now: new Date('2026-03-10T08:00:00Z'), env: { DEVICE_LOCK_API_URL: lock.url, DEVICE_LOCK_API_KEY: 'lock-key' } });
    operator = await t.token(Role.OPERATOR);
    dealid = (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
    worker = t.app.get(DeliveryWorker);
    jobs = t.app.get(ContractJobs);
  });
  afterAll(async () => {
    try {
      t.clock.set(new Date('2026-04-10T08:00:00Z')); // the latest day these tests reached: the clock only moves forward in life
      await expectLedgerConsistent(t);
    } finally {
      await t.close();
      await lock.close();
    }
  });
  beforeEach(() => {
    lock.reset();
    t.clock.set(new Date('2026-03-10T08:00:00Z'));
  });

  const post = (path: string, body: object, token = operator) => t.http.post(path).set('x-access-token', token).send(body);
  const commands = async (customerid: number) => (await t.http.get(`/finance/device/commands?customerid=${customerid}&limit=100`).set('x-access-token', operator).expect(200)).body.items;
  const pay = (customerid: number, amount: number, reference = `P-${Math.random()}`) => post('/finance/payments/load', { customerid, amount, reference, narration: 'cash' }).expect(201);

  it('queues UNLOCK with the payment that unlocks, delivers it, and records the delivery', async () => {
    const c = await registerCustomer(t, dealid);
    await pay(c.customerid, 45000);
    const [queued] = await commands(c.customerid);
    expect(queued).toMatchObject({ action: 'UNLOCK', status: 'PENDING', nextpaymentdate: '2026-04-09', attempts: 0, deliveredat: null });
    await worker.drain();
    const [delivered] = await commands(c.customerid);
    expect(delivered).toMatchObject({ action: 'UNLOCK', status: 'DELIVERED', attempts: 1, deliveredat: expect.any(String), nextattemptat: null });
    expect(lock.devices.get(c.imei)).toMatchObject({ action: 'UNLOCK', commandid: queued.commandid, payg: c.payg, nextpaymentdate: '2026-04-09' });
  });

  it('queues RELEASE when the deal is paid off, nothing for a payment that leaves it locked', async () => {
    const c = await registerCustomer(t, dealid);
    await pay(c.customerid, 100);
    expect(await commands(c.customerid)).toEqual([]);
    await pay(c.customerid, 539900);
    expect((await commands(c.customerid)).map((x: { action: string }) => x.action)).toEqual(['RELEASE']);
    // paid off: bonus days would arm the device's lock again, so both routes refuse them; a re-push repeats the release
    for (const path of ['/finance/device/bonus-days', '/finance/customers/bonus']) {
      const refused = await post(path, { customerid: c.customerid, days: 5 }).expect(409);
      expect(refused.body).toEqual({ message: `Customer ${c.customerid}'s deal is paid off: the device is released, no bonus days.` });
    }
    const resync = await post('/finance/device/sync-status', { customerid: c.customerid }).expect(200);
    expect(resync.body.command).toMatchObject({ action: 'RELEASE', status: 'PENDING' });
    expect((await commands(c.customerid)).map((x: { action: string }) => x.action)).toEqual(['RELEASE', 'RELEASE']);
  });

  it('registers a deposit of the whole price as paid off and queues RELEASE at once', async () => {
    const c = await registerCustomer(t, dealid, { deposit: 600000 });
    const view = (await t.http.get(`/finance/customers/${c.customerid}`).set('x-access-token', operator)).body;
    expect(view.deal).toMatchObject({ status: 'PAID_OFF', balance: 0, amountpaid: 600000, depositpaid: 600000 });
    expect(await commands(c.customerid)).toEqual([expect.objectContaining({ action: 'RELEASE', status: 'PENDING', reason: 'paid in full at registration' })]);
    await worker.drain();
    expect(lock.devices.get(c.imei)).toMatchObject({ action: 'RELEASE', payg: c.payg });
  });

  it('locks overdue deals with a moved clock, queues LOCK once even when run twice at once', async () => {
    const c = await registerCustomer(t, dealid);
    await pay(c.customerid, 45000); // paid up to 2026-04-09
    await worker.drain();
    t.clock.set(new Date('2026-04-08T23:00:00Z'));
    expect(await jobs.lockOverdue()).toBe(0);
    t.clock.set(new Date('2026-04-09T06:00:00Z'));
    const [a, b] = await Promise.all([jobs.lockOverdue(), jobs.lockOverdue()]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    const view = (await t.http.get(`/finance/customers/${c.customerid}`).set('x-access-token', operator)).body;
    expect(view.deal.status).toBe('LOCKED');
    expect((await commands(c.customerid)).map((x: { action: string }) => x.action)).toEqual(['LOCK', 'UNLOCK']);
    await worker.drain();
    expect(lock.devices.get(c.imei)?.action).toBe('LOCK');
    // paying again unlocks
    await pay(c.customerid, 45000);
    expect((await commands(c.customerid))[0]).toMatchObject({ action: 'UNLOCK', nextpaymentdate: '2026-05-09' });
  });

  it('lets a temporary unlock run its hours when the deal falls due meanwhile: LOCKED now, LOCK when the unlock ends', async () => {
    const c = await registerCustomer(t, dealid);
    await pay(c.customerid, 45000); // paid up to 2026-04-09
    t.clock.set(new Date('2026-04-08T08:00:00Z'));
    await post('/finance/device/unlock-temp', { customerid: c.customerid, hours: 48 }).expect(200); // until 2026-04-10T08:00
    await worker.drain();
    t.clock.set(new Date('2026-04-09T06:00:00Z'));
    await jobs.lockOverdue();
    expect((await t.http.get(`/finance/customers/${c.customerid}`).set('x-access-token', operator)).body.deal.status).toBe('LOCKED');
    expect((await commands(c.customerid)).map((x: { action: string }) => x.action)).toEqual(['TEMP_UNLOCK', 'UNLOCK']);
    await worker.drain();
    expect(lock.devices.get(c.imei)?.action).toBe('TEMP_UNLOCK');
    t.clock.set(new Date('2026-04-10T08:00:00Z'));
    expect(await jobs.endTemporaryUnlocks()).toBeGreaterThanOrEqual(1);
    expect((await commands(c.customerid))[0]).toMatchObject({ action: 'LOCK', reason: 'temporary unlock ended' });
    await worker.drain();
    expect(lock.devices.get(c.imei)?.action).toBe('LOCK');
  });

  it('keeps a temporary unlock running when a payment that does not pay up arrives before the overdue run', async () => {
    const c = await registerCustomer(t, dealid);
    await pay(c.customerid, 1500); // paid up to 2026-03-11: UNLOCKED
    t.clock.set(new Date('2026-03-11T00:05:00Z')); // due today; the overdue run has not come round yet
    await post('/finance/device/unlock-temp', { customerid: c.customerid, hours: 24 }).expect(200);
    await pay(c.customerid, 100); // not a day's worth: the deal is LOCKED now, as the overdue run would have left it
    expect((await t.http.get(`/finance/customers/${c.customerid}`).set('x-access-token', operator)).body.deal.status).toBe('LOCKED');
    // the device keeps the hours it was given, as when the overdue run locks the deal first; the unlock's end locks it
    expect((await commands(c.customerid)).map((x: { action: string }) => x.action)).toEqual(['TEMP_UNLOCK', 'UNLOCK']);
    t.clock.set(new Date('2026-03-12T00:05:00Z'));
    await jobs.endTemporaryUnlocks();
    expect((await commands(c.customerid))[0]).toMatchObject({ action: 'LOCK', reason: 'temporary unlock ended' });
  });

  it('grants a new temporary unlock while the end of the last one is being told, without a deadlock', async () => {
    const c = await registerCustomer(t, dealid);
    await post('/finance/device/unlock-temp', { customerid: c.customerid, hours: 1 }).expect(200);
    t.clock.set(new Date('2026-03-10T10:00:00Z')); // the unlock is over; its end not told yet
    const waiting = async (n: number) => {
      for (let i = 0; i < 200; i++) {
        const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
        if (count >= n) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`${n} waiting transactions expected`);
    };
    // the deal is held a moment (a payment, say) while the operator's new unlock and then the job's run wait for it
    const holder = t.db.createQueryRunner();
    await holder.startTransaction();
    await holder.query('SELECT id FROM customer_deals WHERE customer_id = $1 FOR UPDATE', [c.customerid]);
    const unlock = post('/finance/device/unlock-temp', { customerid: c.customerid, hours: 2 }).then((r) => r);
    await waiting(1);
    const ended = jobs.endTemporaryUnlocks();
    await waiting(2);
    await holder.commitTransaction();
    await holder.release();
    const [answer, run] = await Promise.allSettled([unlock, ended]);
    expect(answer).toMatchObject({ status: 'fulfilled', value: { status: 200 } });
    expect(run).toMatchObject({ status: 'fulfilled' });
    // the old unlock was settled by the new one: its end pushes nothing over the new unlock
    expect((await commands(c.customerid)).map((x: { action: string }) => x.action)).toEqual(['TEMP_UNLOCK', 'TEMP_UNLOCK']);
    t.clock.set(new Date('2026-03-10T12:00:00Z'));
    expect(await jobs.endTemporaryUnlocks()).toBe(1);
    expect((await commands(c.customerid))[0]).toMatchObject({ action: 'LOCK', reason: 'temporary unlock ended' });
  });

  it('writes a delivery round’s outcomes one at a time on its transaction (pg@9 refuses a query while another runs)', async () => {
    const customers = [await registerCustomer(t, dealid), await registerCustomer(t, dealid), await registerCustomer(t, dealid)];
    for (const c of customers) await pay(c.customerid, 45000);
    const repository = t.app.get(DeviceCommandsRepository);
    let running = 0;
    let most = 0;
    let calls = 0;
    const markDelivered = repository.markDelivered.bind(repository);
    const spy = jest.spyOn(repository, 'markDelivered').mockImplementation(async (...args: Parameters<typeof markDelivered>) => {
      calls++;
      most = Math.max(most, ++running);
      try {
        return await markDelivered(...args);
      } finally {
        running--;
      }
    });
    try {
      await worker.drain();
    } finally {
      spy.mockRestore();
    }
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(most).toBe(1);
    for (const c of customers) expect(lock.devices.get(c.imei)).toMatchObject({ action: 'UNLOCK' });
  });

  it('delivers in order per device and retries with backoff while the platform is down, then recovers', async () => {
    const c = await registerCustomer(t, dealid);
    lock.setDown(true);
    await pay(c.customerid, 45000);
    await pay(c.customerid, 45000);
    await worker.runOnce();
    let list = await commands(c.customerid);
    expect(list.map((x: { action: string; status: string }) => `${x.action}:${x.status}`)).toEqual(['SYNC:PENDING', 'UNLOCK:PENDING']);
    expect(list[1]).toMatchObject({ attempts: 1, lasterror: 'HTTP 503' });
    // the second command waits behind the first, even when due
    expect(new Date(list[1].nextattemptat).getTime()).toBeGreaterThan(Date.now());
    await t.db.query(`UPDATE device_commands SET next_attempt_at = now() WHERE customer_id = $1`, [c.customerid]);
    await worker.runOnce();
    list = await commands(c.customerid);
    expect(list[1]).toMatchObject({ attempts: 2 });
    const delays = await t.db.query(`SELECT extract(epoch FROM next_attempt_at - now()) AS s FROM device_commands WHERE customer_id = $1 AND action = 'UNLOCK'`, [c.customerid]);
    expect(Number(delays[0].s)).toBeGreaterThan(1);
    expect(Number(delays[0].s)).toBeLessThanOrEqual(2.1);
    lock.setDown(false);
    await t.db.query(`UPDATE device_commands SET next_attempt_at = now() WHERE customer_id = $1`, [c.customerid]);
    await worker.drain();
    list = await commands(c.customerid);
    expect(list.map((x: { status: string }) => x.status)).toEqual(['DELIVERED', 'DELIVERED']);
    expect(lock.commands.filter((x) => x.imei === c.imei).map((x) => x.action)).toEqual(['UNLOCK', 'SYNC']);
  });

  it('waits as long as the platform asks (429 with Retry-After) before sending a command again', async () => {
    const c = await registerCustomer(t, dealid);
    lock.failNext(1, 429, 120);
    await pay(c.customerid, 45000);
    await worker.runOnce();
    const [unlock] = await commands(c.customerid);
    expect(unlock).toMatchObject({ action: 'UNLOCK', status: 'PENDING', attempts: 1, lasterror: 'HTTP 429: failing on demand' });
    const wait = (new Date(unlock.nextattemptat).getTime() - Date.now()) / 1000;
    expect(wait).toBeGreaterThan(110);
    expect(wait).toBeLessThanOrEqual(121);
    await worker.runOnce();
    expect(lock.commands.filter((x) => x.imei === c.imei)).toEqual([]);
    // the backoff still holds when the platform asks for less than it
    lock.failNext(1, 503, 0);
    await t.db.query(`UPDATE device_commands SET next_attempt_at = now() WHERE customer_id = $1`, [c.customerid]);
    await worker.runOnce();
    const [again] = await commands(c.customerid);
    expect(again).toMatchObject({ status: 'PENDING', attempts: 2, lasterror: 'HTTP 503' });
    expect(new Date(again.nextattemptat).getTime() - Date.now()).toBeGreaterThan(1000);
  });

  it('shows why the platform refuses a command, as it says it, while the command waits to be sent again', async () => {
    const c = await registerCustomer(t, dealid);
    lock.failNext(1, 422);
    await pay(c.customerid, 45000);
    await worker.runOnce();
    expect((await commands(c.customerid))[0]).toMatchObject({ action: 'UNLOCK', status: 'PENDING', attempts: 1, lasterror: 'HTTP 422: failing on demand' });
    const pending = (await t.http.get('/finance/device/commands?status=PENDING&limit=100').set('x-access-token', operator).expect(200)).body.items;
    expect(pending.map((x: { customerid: number; lasterror: string }) => [x.customerid, x.lasterror])).toContainEqual([c.customerid, 'HTTP 422: failing on demand']);
    // a reason PostgreSQL could not store (a NUL) or spread over lines is kept as one line of text
    lock.failNext(1, 400, undefined, 'bad\u0000device\nline two\u202e');
    await t.db.query(`UPDATE device_commands SET next_attempt_at = now() WHERE customer_id = $1`, [c.customerid]);
    await worker.runOnce();
    expect((await commands(c.customerid))[0]).toMatchObject({ status: 'PENDING', attempts: 2, lasterror: 'HTTP 400: bad device line two' });
    await t.db.query(`UPDATE device_commands SET next_attempt_at = now() WHERE customer_id = $1`, [c.customerid]);
    await worker.runOnce();
    expect((await commands(c.customerid))[0]).toMatchObject({ status: 'DELIVERED', lasterror: null });
  });

  it('unlocks temporarily without touching the deal, and restores the real state when the time is up', async () => {
    const c = await registerCustomer(t, dealid);
    const res = await post('/finance/device/unlock-temp', { customerid: c.customerid, hours: 24 }).expect(200);
    expect(res.body).toMatchObject({ unlockuntil: '2026-03-11T08:00:00.000Z', command: { action: 'TEMP_UNLOCK', unlockuntil: '2026-03-11T08:00:00.000Z' } });
    const view = (await t.http.get(`/finance/customers/${c.customerid}`).set('x-access-token', operator)).body;
    expect(view.deal).toMatchObject({ status: 'LOCKED', balance: 540000 });
    await worker.drain();
    expect(lock.devices.get(c.imei)).toMatchObject({ action: 'TEMP_UNLOCK', unlockuntil: '2026-03-11T08:00:00.000Z' });
    t.clock.set(new Date('2026-03-11T07:59:00Z'));
    expect(await jobs.endTemporaryUnlocks()).toBe(0);
    t.clock.set(new Date('2026-03-11T08:00:00Z'));
    expect(await jobs.endTemporaryUnlocks()).toBe(1);
    expect(await jobs.endTemporaryUnlocks()).toBe(0);
    await worker.drain();
    expect(lock.devices.get(c.imei)?.action).toBe('LOCK');
    for (const hours of [0, 169, 1.5]) await post('/finance/device/unlock-temp', { customerid: c.customerid, hours }).expect(400);
    await post('/finance/device/unlock-temp', { customerid: 999999, hours: 2 }).expect(404);
  });

  it('keeps a repossessed device locked: no temporary unlock, nothing queued', async () => {
    const c = await registerCustomer(t, dealid);
    await post('/finance/contracts/repossess', { customerid: c.customerid, reason: 'Device recovered' }).expect(200);
    const refused = await post('/finance/device/unlock-temp', { customerid: c.customerid, hours: 2 }).expect(409);
    expect(refused.body).toEqual({ message: `Customer ${c.customerid}'s deal is repossessed: the device stays locked for good.` });
    expect((await commands(c.customerid)).map((x: { action: string }) => x.action)).toEqual(['PERMANENT_LOCK']);
  });

  it('refuses a re-push on a repossessed deal, saying why', async () => {
    const c = await registerCustomer(t, dealid);
    await pay(c.customerid, 45000);
    await post('/finance/contracts/repossess', { customerid: c.customerid, reason: 'Device recovered' }).expect(200);
    const refused = await post('/finance/device/sync-status', { customerid: c.customerid }).expect(409);
    expect(refused.body).toEqual({ message: `Customer ${c.customerid}'s deal is repossessed: the device stays locked for good, there is nothing to push.` });
    expect((await commands(c.customerid)).map((x: { action: string }) => x.action)).toEqual(['PERMANENT_LOCK', 'UNLOCK']);
  });

  it('lets a paid-off contract no longer release or lock its device once another customer pays for it', async () => {
    const a = await registerCustomer(t, dealid);
    await pay(a.customerid, 540000);
    await post('/finance/device/sync-status', { customerid: a.customerid }).expect(200);
    // the device came back and was financed again (DESIGN part 10 frees a paid-off deal's IMEI): released for good before, it is locked now
    await worker.drain();
    const b = await registerCustomer(t, dealid, { imei: a.imei });
    expect(await commands(b.customerid)).toEqual([expect.objectContaining({ action: 'LOCK', reason: 'financed again' })]);
    await worker.drain();
    expect(lock.devices.get(a.imei)).toMatchObject({ action: 'LOCK', payg: b.payg });
    await pay(b.customerid, 45000);
    const before = (await commands(a.customerid)).length;
    const message = `Customer ${a.customerid}'s device (IMEI ${a.imei}) is now on customer ${b.customerid}'s deal: this contract no longer commands it.`;
    expect((await post('/finance/device/sync-status', { customerid: a.customerid }).expect(409)).body).toEqual({ message });
    expect((await post('/finance/contracts/repossess', { customerid: a.customerid, reason: 'wrong customer' }).expect(409)).body).toEqual({ message });
    expect(await commands(a.customerid)).toHaveLength(before);
    expect((await t.http.get(`/finance/customers/${a.customerid}`).set('x-access-token', operator).expect(200)).body.deal.status).toBe('PAID_OFF');
    await worker.drain();
    expect(lock.devices.get(a.imei)).toMatchObject({ action: 'UNLOCK', payg: b.payg });
  });

  it('lets a closed contract command its device no more once it is financed again, whatever the new deal’s state', async () => {
    // A paid off; B on the same device repossessed: A may not re-push its release
    const a = await registerCustomer(t, dealid);
    await pay(a.customerid, 540000);
    const b = await registerCustomer(t, dealid, { imei: a.imei });
    await post('/finance/contracts/repossess', { customerid: b.customerid, reason: 'stolen' }).expect(200);
    const message = `Customer ${a.customerid}'s device (IMEI ${a.imei}) is now on customer ${b.customerid}'s deal: this contract no longer commands it.`;
    expect((await post('/finance/device/sync-status', { customerid: a.customerid }).expect(409)).body).toEqual({ message });
    await worker.drain();
    expect(lock.devices.get(a.imei)).toMatchObject({ action: 'PERMANENT_LOCK', payg: b.payg });

    // C unlocked for an hour, then repossessed; D on the same device pays: C's unlock ending must not lock D's phone
    const c = await registerCustomer(t, dealid);
    await post('/finance/device/unlock-temp', { customerid: c.customerid, hours: 1 }).expect(200);
    await post('/finance/contracts/repossess', { customerid: c.customerid, reason: 'returned' }).expect(200);
    const d = await registerCustomer(t, dealid, { imei: c.imei });
    await pay(d.customerid, 45000);
    t.clock.set(new Date('2026-03-10T09:30:00Z'));
    await jobs.endTemporaryUnlocks();
    expect((await commands(c.customerid)).map((x: { action: string }) => x.action)).toEqual(['PERMANENT_LOCK', 'TEMP_UNLOCK']);
    await worker.drain();
    expect(lock.devices.get(c.imei)).toMatchObject({ action: 'UNLOCK', payg: d.payg, nextpaymentdate: '2026-04-09' });
  });

  it('keeps a temporary unlock running when bonus days leave the deal locked: its end tells the device', async () => {
    const c = await registerCustomer(t, dealid); // paid up to 2026-03-10
    t.clock.set(new Date('2026-03-20T08:00:00Z'));
    await post('/finance/device/unlock-temp', { customerid: c.customerid, hours: 24 }).expect(200);
    const res = await post('/finance/customers/bonus', { customerid: c.customerid, days: 1 }).expect(200);
    expect(res.body.deal).toMatchObject({ status: 'LOCKED', nextpaymentdate: '2026-03-11', bonusdays: 1 });
    expect((await commands(c.customerid)).map((x: { action: string }) => x.action)).toEqual(['TEMP_UNLOCK']);
    await worker.drain();
    expect(lock.devices.get(c.imei)).toMatchObject({ action: 'TEMP_UNLOCK', unlockuntil: '2026-03-21T08:00:00.000Z' });
    // bonus days that unlock the deal are told at once
    await post('/finance/customers/bonus', { customerid: c.customerid, days: 20 }).expect(200);
    expect((await commands(c.customerid))[0]).toMatchObject({ action: 'SYNC', nextpaymentdate: '2026-03-31' });
    t.clock.set(new Date('2026-03-21T08:00:00Z'));
    await jobs.endTemporaryUnlocks();
    expect((await commands(c.customerid))[0]).toMatchObject({ action: 'SYNC', reason: 'temporary unlock ended', nextpaymentdate: '2026-03-31' });
  });

  it('keeps a temporary unlock running when a payment buys fewer days than it has left: the unlock’s end tells the device', async () => {
    const c = await registerCustomer(t, dealid); // paid up to 2026-03-10: LOCKED
    await post('/finance/device/unlock-temp', { customerid: c.customerid, hours: 72 }).expect(200); // until 2026-03-13T08:00
    // one day bought: UNLOCKED until 2026-03-11, but an UNLOCK with that date would lock the phone two days early
    const paid = await pay(c.customerid, 1500);
    expect(paid.body.deal).toMatchObject({ status: 'UNLOCKED', nextpaymentdate: '2026-03-11' });
    expect((await commands(c.customerid)).map((x: { action: string }) => x.action)).toEqual(['TEMP_UNLOCK']);
    t.clock.set(new Date('2026-03-12T06:00:00Z'));
    await jobs.lockOverdue();
    expect((await commands(c.customerid)).map((x: { action: string }) => x.action)).toEqual(['TEMP_UNLOCK']);
    // days beyond the unlock's end are told at once
    const more = await pay(c.customerid, 6000);
    expect(more.body.deal).toMatchObject({ status: 'UNLOCKED', nextpaymentdate: '2026-03-15' });
    expect((await commands(c.customerid))[0]).toMatchObject({ action: 'UNLOCK', nextpaymentdate: '2026-03-15' });
    t.clock.set(new Date('2026-03-13T08:00:00Z'));
    await jobs.endTemporaryUnlocks();
    expect((await commands(c.customerid))[0]).toMatchObject({ action: 'SYNC', reason: 'temporary unlock ended', nextpaymentdate: '2026-03-15' });
    await worker.drain();
    expect(lock.devices.get(c.imei)).toMatchObject({ action: 'SYNC', nextpaymentdate: '2026-03-15' });
  });

  it('gives bonus days on both routes: date extended, balance untouched, grant recorded, SYNC queued', async () => {
    const c = await registerCustomer(t, dealid);
    const res = await post('/finance/device/bonus-days', { customerid: c.customerid, days: 10 }).expect(200);
    expect(res.body.deal).toMatchObject({ bonusdays: 10, nextpaymentdate: '2026-03-20', balance: 540000, status: 'UNLOCKED' });
    const res2 = await post('/finance/customers/bonus', { customerid: c.customerid, days: 5 }).expect(200);
    expect(res2.body.deal).toMatchObject({ bonusdays: 15, nextpaymentdate: '2026-03-25', balance: 540000 });
    expect((await commands(c.customerid)).map((x: { action: string; nextpaymentdate: string }) => `${x.action}:${x.nextpaymentdate}`)).toEqual(['SYNC:2026-03-25', 'SYNC:2026-03-20']);
    const grants = await t.db.query('SELECT days, route, granted_by FROM bonus_grants g JOIN customer_deals d ON d.id = g.customer_deal_id WHERE d.customer_id = $1 ORDER BY g.id', [c.customerid]);
    const operatorId = (await t.db.query(`SELECT id FROM users WHERE role = 'OPERATOR' ORDER BY id LIMIT 1`))[0].id;
    expect(grants).toEqual([{ days: 10, route: 'device/bonus-days', granted_by: operatorId }, { days: 5, route: 'customers/bonus', granted_by: operatorId }]);
    for (const days of [0, 366, 'x']) await post('/finance/device/bonus-days', { customerid: c.customerid, days }).expect(400);
    await post('/finance/customers/bonus', { customerid: 999999, days: 1 }).expect(404);
  });

  it('re-pushes the state only while the paid-up date is ahead (409 and nothing queued otherwise)', async () => {
    const c = await registerCustomer(t, dealid);
    const refused = await post('/finance/device/sync-status', { customerid: c.customerid }).expect(409);
    expect(refused.body.message).toContain('is not in the future');
    expect(await commands(c.customerid)).toEqual([]);
    await pay(c.customerid, 45000);
    const ok = await post('/finance/device/sync-status', { customerid: c.customerid }).expect(200);
    expect(ok.body.command).toMatchObject({ action: 'SYNC', nextpaymentdate: '2026-04-09', status: 'PENDING' });
    await post('/finance/device/sync-status', { customerid: 999999 }).expect(404);
  });

  it('stores the final PAYG code and serial number, credits waiting payments, and refuses a code in use', async () => {
    const a = await registerCustomer(t, dealid);
    const b = await registerCustomer(t, dealid);
    const provider = await t.token(Role.PROVIDER);
    await t.http.post('/finance/amlogs/callback').set('x-access-token', provider).send({ transaction: { id: 'EARLY-1', amount: 45000, tag: 'FINAL-CODE-A' } }).expect(200);
    const res = await post('/finance/device/lock-update', { customerid: a.customerid, payg: 'FINAL-CODE-A', serialnumber: 'SN-A-1' }).expect(200);
    expect(res.body).toEqual({ message: 'Device details stored.', customerid: a.customerid, payg: 'FINAL-CODE-A', serialnumber: 'SN-A-1', appliedpayments: 1 });
    const view = (await t.http.get(`/finance/customers/${a.customerid}`).set('x-access-token', operator)).body;
    expect(view).toMatchObject({ payg: 'FINAL-CODE-A', serialnumber: 'SN-A-1', deal: { amountpaid: 105000, status: 'UNLOCKED' } });
    const taken = await post('/finance/device/lock-update', { customerid: b.customerid, payg: 'FINAL-CODE-A', serialnumber: 'SN-B' }).expect(409);
    expect(taken.body).toEqual({ message: 'PAYG code FINAL-CODE-A is already assigned to another customer.' });
    await post('/finance/device/lock-update', { customerid: 999999, payg: 'FREE-CODE', serialnumber: 'S' }).expect(404);
    await post('/finance/device/lock-update', { customerid: a.customerid, payg: '!', serialnumber: '' }).expect(400);
  });

  it('sends the device details lock-update stored with the commands not delivered yet', async () => {
    const c = await registerCustomer(t, dealid);
    await pay(c.customerid, 45000); // UNLOCK queued with the code given at registration and no serial number
    await post('/finance/device/lock-update', { customerid: c.customerid, payg: `FINAL-${c.customerid}`, serialnumber: `SN-FINAL-${c.customerid}` }).expect(200);
    await worker.drain();
    const sent = lock.commands.filter((x) => x.imei === c.imei).map(({ action, payg, serialnumber }) => ({ action, payg, serialnumber }));
    // a platform that knows the device by its final code or serial number would refuse the old ones, and hold up every later command
    expect(sent).toEqual([{ action: 'UNLOCK', payg: `FINAL-${c.customerid}`, serialnumber: `SN-FINAL-${c.customerid}` }]);
  });

  it('repossesses once: everything REPOSSESSED, PERMANENT_LOCK queued, later payments unlock nothing', async () => {
    const c = await registerCustomer(t, dealid);
    const res = await post('/finance/contracts/repossess', { customerid: c.customerid, reason: 'No payment for 90 days' }).expect(200);
    expect(res.body).toMatchObject({ customerid: c.customerid, status: 'REPOSSESSED', reason: 'No payment for 90 days', repossessedat: expect.any(String), deal: { status: 'REPOSSESSED' } });
    const view = (await t.http.get(`/finance/customers/${c.customerid}`).set('x-access-token', operator)).body;
    expect(view).toMatchObject({ status: 'REPOSSESSED', deal: { status: 'REPOSSESSED' } });
    const [row] = await t.db.query('SELECT repossession_reason, repossessed_at FROM customer_deals WHERE customer_id = $1', [c.customerid]);
    expect(row.repossession_reason).toBe('No payment for 90 days');
    expect((await commands(c.customerid)).map((x: { action: string }) => x.action)).toEqual(['PERMANENT_LOCK']);
    const again = await post('/finance/contracts/repossess', { customerid: c.customerid, reason: 'again' }).expect(409);
    expect(again.body).toEqual({ message: `Customer ${c.customerid} is already repossessed.` });
    const paid = await pay(c.customerid, 90000);
    expect(paid.body.deal).toMatchObject({ status: 'REPOSSESSED', amountpaid: 150000 });
    expect((await commands(c.customerid)).map((x: { action: string }) => x.action)).toEqual(['PERMANENT_LOCK']);
    await post('/finance/contracts/repossess', { customerid: 999999, reason: 'x' }).expect(404);
    await post('/finance/contracts/repossess', { customerid: c.customerid }).expect(400);
    const summary = (await t.http.get('/finance/customers/status-summary').set('x-access-token', operator)).body;
    expect(summary.REPOSSESSED).toBeGreaterThanOrEqual(1);
  });

  it('keeps device and contract routes to OPERATOR and ADMIN', async () => {
    const c = await registerCustomer(t, dealid);
    for (const role of [Role.COLLECTOR, Role.PROVIDER]) {
      const token = await t.token(role);
      await post('/finance/device/unlock-temp', { customerid: c.customerid, hours: 1 }, token).expect(403);
      await post('/finance/device/bonus-days', { customerid: c.customerid, days: 1 }, token).expect(403);
      await post('/finance/device/sync-status', { customerid: c.customerid }, token).expect(403);
      await post('/finance/device/lock-update', { customerid: c.customerid, payg: 'ZZZ-1', serialnumber: 'S' }, token).expect(403);
      await post('/finance/contracts/repossess', { customerid: c.customerid, reason: 'x' }, token).expect(403);
      await t.http.get(`/finance/device/commands?customerid=${c.customerid}`).set('x-access-token', token).expect(403);
      await t.http.get('/finance/device/commands?status=PENDING').set('x-access-token', token).expect(403);
    }
    await t.http.get(`/finance/device/commands?customerid=${c.customerid}`).expect(401);
    await t.http.get('/finance/device/commands?customerid=abc').set('x-access-token', operator).expect(400);
    await t.http.get('/finance/device/commands?customerid=999999').set('x-access-token', operator).expect(404);
  });

  it('lists every customer’s commands newest first, filtered by customer, state and action', async () => {
    const a = await registerCustomer(t, dealid);
    const b = await registerCustomer(t, dealid);
    await post('/finance/device/bonus-days', { customerid: a.customerid, days: 1 }).expect(200);
    await post('/finance/device/bonus-days', { customerid: b.customerid, days: 2 }).expect(200);
    const get = async (query: string) => (await t.http.get(`/finance/device/commands?${query}`).set('x-access-token', operator).expect(200)).body;
    const all = await get('limit=100');
    expect(all.total).toBeGreaterThanOrEqual(2);
    expect(all.items.slice(0, 2).map((x: { customerid: number; action: string }) => `${x.customerid}:${x.action}`)).toEqual([`${b.customerid}:SYNC`, `${a.customerid}:SYNC`]);
    const created = all.items.map((x: { createdat: string }) => x.createdat);
    expect([...created].sort().reverse()).toEqual(created);
    const syncs = await get(`action=SYNC&status=PENDING&customerid=${a.customerid}`);
    expect(syncs).toMatchObject({ total: 1, items: [{ customerid: a.customerid, action: 'SYNC', status: 'PENDING' }] });
    const pending = await get('status=PENDING&limit=100');
    expect(pending.items.every((x: { status: string }) => x.status === 'PENDING')).toBe(true);
    expect(pending.total).toBe(pending.items.length);
    expect((await get('action=PERMANENT_LOCK&limit=100')).items.every((x: { action: string }) => x.action === 'PERMANENT_LOCK')).toBe(true);
    expect((await get('status=DELIVERED&action=SYNC&customerid=' + b.customerid)).total).toBe(0);
    for (const bad of ['status=FAILED', 'status=pending', 'action=UNLOCKED', 'action=', 'customerid=0']) {
      const res = await t.http.get(`/finance/device/commands?${bad}`).set('x-access-token', operator).expect(400);
      expect(res.body.message).toMatch(/^(status|action|customerid) /);
    }
    await t.http.get('/finance/device/commands?status=PENDING').expect(401);
  });

  // last: its deal is left unlocked with a date that the overdue test above would lock
  it('lists a customer’s commands a page at a time, newest first', async () => {
    const c = await registerCustomer(t, dealid);
    for (const days of [1, 2, 3]) await post('/finance/device/bonus-days', { customerid: c.customerid, days }).expect(200);
    const url = `/finance/device/commands?customerid=${c.customerid}`;
    const first = (await t.http.get(`${url}&limit=2`).set('x-access-token', operator).expect(200)).body;
    expect(first).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(first.items.map((x: { nextpaymentdate: string }) => x.nextpaymentdate)).toEqual(['2026-03-16', '2026-03-13']);
    const second = (await t.http.get(`${url}&limit=2&page=2`).set('x-access-token', operator).expect(200)).body;
    expect(second).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(second.items.map((x: { nextpaymentdate: string }) => x.nextpaymentdate)).toEqual(['2026-03-11']);
    expect((await t.http.get(url).set('x-access-token', operator).expect(200)).body).toMatchObject({ total: 3, page: 1, limit: 20 });
    for (const bad of ['&limit=0', '&limit=101', '&page=0', '&page=x']) await t.http.get(`${url}${bad}`).set('x-access-token', operator).expect(400);
  });
});
