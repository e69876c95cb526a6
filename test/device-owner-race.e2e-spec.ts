import pg from 'pg';
import { Role } from '../src/common/auth/role.js';
import { ContractJobs } from '../src/modules/contracts/application/contract-jobs.js';
import { DeliveryWorker } from '../src/modules/device-commands/application/delivery.worker.js';
import { LockSimulator, startLockSimulator } from '../tools/simulators/lock-simulator.js';
import { createDeal, registerCustomer, registrationBody, uniqueTelephone } from './support/fixtures.js';
import { meetAtCommands } from './support/lock-waits.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * A closed contract (paid off or repossessed) may command its device only while no newer deal is on
 * it (DESIGN part 10 frees its IMEI). That check and the registration of the device to a new
 * customer ran side by side without a common lock: the closed contract did not see the new deal (not
 * committed yet) and wrote its command after the new deal's, so the device's last word was the old
 * contract's: a release for a phone being paid for, a permanent lock for a phone bought for cash.
 * Here every command to the outbox waits at one moment (a lock on device_commands), so the two meet.
 */
describe('A closed contract and a new registration of its device at the same moment', () => {
  let t: TestApp;
  let lock: LockSimulator;
  let operator: string;
  let dealid: number;
  let blocker: pg.Client;
  beforeAll(async () => {
    lock = await startLockSimulator({ apiKey: 'lock-key' });
    t = await startTestApp({ now: new Date('2026-03-10T08:00:00Z'), env: { DEVICE_LOCK_API_URL: lock.url, DEVICE_LOCK_API_KEY: 'lock-key' } });
    operator = await t.token(Role.OPERATOR);
    dealid = (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
    blocker = new pg.Client({ connectionString: t.databaseUrl });
    await blocker.connect();
  });
  afterAll(async () => {
    await blocker?.end();
    await t.close();
    await lock.close();
  });

  const post = (path: string, body: object) => t.http.post(path).set('x-access-token', operator).send(body).then((r) => r);
  const meet = <A, B>(first: () => Promise<A>, second: () => Promise<B>) => meetAtCommands(t, blocker, first, second);
  const commandsOn = async (imei: string) =>
    (await t.db.query(`SELECT customer_id, action FROM device_commands WHERE imei = $1 ORDER BY id`, [imei])) as Array<{ customer_id: number; action: string }>;

  it('a paid-off contract re-pushing its release while the device is registered to a new customer: the new deal has the last word', async () => {
    const a = await registerCustomer(t, dealid);
    await post('/finance/payments/load', { customerid: a.customerid, amount: 540000, reference: 'RACE-PAYOFF', narration: 'cash' });
    await t.app.get(DeliveryWorker).drain();
    expect(lock.devices.get(a.imei)).toMatchObject({ action: 'RELEASE' });

    const body = registrationBody(dealid, { imei: a.imei });
    const [registered, repushed] = await meet(
      () => post('/finance/customers/register', body),
      () => post('/finance/device/sync-status', { customerid: a.customerid }),
    );
    expect(registered.status).toBe(201);
    const b = registered.body.customerid as number;
    // the re-push came second: the device is on b's deal by then, which a's contract no longer commands
    expect([repushed.status, repushed.body.message]).toEqual([409, `Customer ${a.customerid}'s device (IMEI ${a.imei}) is now on customer ${b}'s deal: this contract no longer commands it.`]);
    const commands = await commandsOn(a.imei);
    expect(commands[commands.length - 1]).toEqual({ customer_id: b, action: 'LOCK' });
    await t.app.get(DeliveryWorker).drain();
    expect(lock.devices.get(a.imei)).toMatchObject({ action: 'LOCK', payg: body.payg });
  });

  it('a device sold for cash and financed to another customer at the same moment: the financed deal has the last word', async () => {
    const imei = registrationBody(dealid).imei;
    const cash = registrationBody(dealid, { imei, deposit: 600000 }); // paid off at once: RELEASE
    const financed = registrationBody(dealid, { imei });
    const [sold, registered] = await meet(
      () => post('/finance/customers/register', cash),
      () => post('/finance/customers/register', financed),
    );
    expect([sold.status, registered.status]).toEqual([201, 201]);
    // the cash sale's deal came first and closed at once: the financed deal took the device over, and tells it so
    const commands = await commandsOn(imei);
    expect(commands).toEqual([
      { customer_id: sold.body.customerid, action: 'RELEASE' },
      { customer_id: registered.body.customerid, action: 'LOCK' },
    ]);
    await t.app.get(DeliveryWorker).drain();
    expect(lock.devices.get(imei)).toMatchObject({ action: 'LOCK', payg: financed.payg });
  });

  it('a paid-off contract re-pushing its release while an import finances the device again: the imported deal has the last word', async () => {
    const a = await registerCustomer(t, dealid);
    await post('/finance/payments/load', { customerid: a.customerid, amount: 540000, reference: 'RACE-IMPORT-PAYOFF', narration: 'cash' });
    await t.app.get(DeliveryWorker).drain();

    const admin = await t.token(Role.ADMIN);
    const header = 'externalid,fullname,telephone,guarantorname,guarantorcontact,imei,payg,serialnumber,dealid,depositpaid,amountpaid,startdate';
    const row = `EXT-RACE-1,Migrated Race,${uniqueTelephone()},Joseph Okello,+256701987654,${a.imei},MIG-RACE-1,SN-RACE-1,${dealid},60000.00,105000.00,2026-02-01`;
    const apply = () =>
      t.http.post('/finance/imports').set('x-access-token', admin).field('kind', 'customers').field('mode', 'apply')
        .attach('file', Buffer.from(`${header}\r\n${row}\r\n`), { filename: 'book.csv', contentType: 'text/csv' }).then((r) => r);
    const [applied, repushed] = await meet(apply, () => post('/finance/device/sync-status', { customerid: a.customerid }));
    expect(applied.status).toBeLessThan(300);
    for (let i = 0; i < 100 && (await t.db.query(`SELECT status FROM imports WHERE id = $1`, [applied.body.importid]))[0]?.status !== 'DONE'; i++) await new Promise((r) => setTimeout(r, 50));
    const [imported] = (await t.db.query(`SELECT id FROM customers WHERE payg = 'MIG-RACE-1'`)) as Array<{ id: number }>;
    expect(imported).toBeDefined();
    // the re-push came second: the device is on the imported deal by then, which a's contract no longer commands
    expect([repushed.status, repushed.body.message]).toEqual([409, `Customer ${a.customerid}'s device (IMEI ${a.imei}) is now on customer ${imported.id}'s deal: this contract no longer commands it.`]);
    const commands = await commandsOn(a.imei);
    expect(commands[commands.length - 1]).toEqual({ customer_id: imported.id, action: 'SYNC' });
  });

  it('a repossessed contract’s temporary unlock ending while its device is sold for cash: the device stays released', async () => {
    const c = await registerCustomer(t, dealid);
    await post('/finance/device/unlock-temp', { customerid: c.customerid, hours: 1 });
    await post('/finance/contracts/repossess', { customerid: c.customerid, reason: 'returned' });
    t.clock.set(new Date('2026-03-10T09:30:00Z')); // the unlock is over

    const body = registrationBody(dealid, { imei: c.imei, deposit: 600000 }); // the whole price: a cash sale, released at once
    const [registered, ended] = await meet(
      () => post('/finance/customers/register', body),
      () => t.app.get(ContractJobs).endTemporaryUnlocks(),
    );
    expect(registered.status).toBe(201);
    expect(ended).toBe(1);
    const commands = await commandsOn(c.imei);
    expect(commands[commands.length - 1]).toEqual({ customer_id: registered.body.customerid, action: 'RELEASE' });
    expect(commands.filter((x) => x.customer_id === c.customerid).map((x) => x.action)).toEqual(['TEMP_UNLOCK', 'PERMANENT_LOCK']);
    await t.app.get(DeliveryWorker).drain();
    expect(lock.devices.get(c.imei)).toMatchObject({ action: 'RELEASE', payg: body.payg });
  });
});
