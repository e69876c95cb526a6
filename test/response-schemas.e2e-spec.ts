import { randomBytes } from 'node:crypto';
import { Role } from '../src/common/auth/role.js';
import { DeliveryWorker } from '../src/modules/device-commands/application/delivery.worker.js';
import { SmsDeliveryWorker } from '../src/modules/messages/application/sms-delivery.worker.js';
import { LockSimulator, startLockSimulator } from '../tools/simulators/lock-simulator.js';
import { ProviderSimulator, startProviderSimulator } from '../tools/simulators/provider-simulator.js';
import { SmsSimulator, startSmsSimulator } from '../tools/simulators/sms-simulator.js';
import { createDeal, dealBody, registerCustomer, registrationBody } from './support/fixtures.js';
import { responseChecker, ResponseCheck } from './support/response-schemas.js';
import { startTestApp, TestApp } from './support/test-app.js';

const unique = () => randomBytes(4).toString('hex');

/**
 * What an outsider's contract-testing tool does: a scripted run of every endpoint, and every answer
 * (success and error alike) checked against the OpenAPI document the service itself serves:
 * the status is one the operation documents, required fields are present, no field is undocumented,
 * types and enums are right.
 */
describe('every answer matches the OpenAPI document the service serves', () => {
  let t: TestApp;
  let sim: ProviderSimulator;
  let lock: LockSimulator;
  let sms: SmsSimulator;
  let check: ResponseCheck;
  let admin: string;
  const problems: string[] = [];

  beforeAll(async () => {
    sim = await startProviderSimulator({ apiKey: 'schema-provider-key' });
    lock = await startLockSimulator({ apiKey: 'schema-lock-key' });
    sms = await startSmsSimulator({ apiKey: 'schema-sms-key', username: 'sandbox' });
    t = await startTestApp({
      env: {
        MOBILE_MONEY_API_URL: sim.url,
        MOBILE_MONEY_API_KEY: 'schema-provider-key',
        DEVICE_LOCK_API_URL: lock.url,
        DEVICE_LOCK_API_KEY: 'schema-lock-key',
        SMS_API_URL: sms.url,
        SMS_USERNAME: 'sandbox',
        SMS_API_KEY: 'schema-sms-key',
        SMS_SENDER_ID: 'PAYGCO',
        SMS_CALLBACK_KEY: 'schema-sms-callback-key',
      },
    });
    sms.setCallbackUrl(`${t.baseUrl}/sms/delivery-reports?key=schema-sms-callback-key`);
    check = await responseChecker(t);
    admin = await t.token(Role.ADMIN);
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
    await lock?.close();
    await sms?.close();
  });

  async function call(method: 'GET' | 'POST', url: string, body?: object, token: string | null = admin) {
    let r = method === 'GET' ? t.http.get(url) : t.http.post(url);
    if (token !== null) r = r.set('x-access-token', token);
    const res = method === 'POST' ? await r.send(body ?? {}) : await r;
    const json = (res.headers['content-type'] ?? '').startsWith('application/json');
    problems.push(...check.problems(method, url, res.status, json ? res.body : undefined, res.headers['content-type']));
    return res;
  }

  it('the checker itself catches a missing field, an extra one, a wrong type and an undocumented status', () => {
    expect(check.problems('GET', '/finance/collections/stats', 200, { PENDING: 1, CALLED: 2, RESOLVED: 3 })).toEqual([]);
    expect(check.problems('GET', '/finance/collections/stats', 200, { PENDING: 1, CALLED: 2 })).toEqual([expect.stringContaining("must have required property 'RESOLVED'")]);
    expect(check.problems('GET', '/finance/collections/stats', 200, { PENDING: 1, CALLED: 2, RESOLVED: 3, FAILED: 0 })).toEqual([expect.stringContaining("'FAILED'")]);
    expect(check.problems('GET', '/finance/collections/stats', 200, { PENDING: 1.5, CALLED: 2, RESOLVED: 3 })).toEqual([expect.stringContaining('/PENDING must be integer')]);
    expect(check.problems('GET', '/finance/customers/7', 418, { message: 'x' })).toEqual([expect.stringContaining('status not documented')]);
    expect(check.problems('POST', '/finance/payments/load', 409, { message: 'x', detail: 'y' })).toEqual([expect.stringContaining("'detail'")]);
  });

  it('a scripted run of every endpoint', async () => {
    const operator = await t.token(Role.OPERATOR);
    const collector = await t.user(Role.COLLECTOR);
    const provider = await t.token(Role.PROVIDER);

    await call('GET', '/health', undefined, null);
    await call('GET', '/api/client-config', undefined, null);
    await call('POST', '/api/auth/signin', { username: collector.username, password: collector.password }, null);
    await call('POST', '/api/auth/signin', { username: collector.username, password: 'wrong-password-1' }, null);
    await call('POST', '/api/auth/signin', { username: 5 }, null);
    const out = await t.user(Role.OPERATOR);
    await call('POST', '/api/auth/signout', {}, out.token);

    // users
    const made = await call('POST', '/finance/users/create', { username: `schema-${unique()}`, password: 'schema-password-1', role: 'OPERATOR' });
    await call('POST', '/finance/users/create', { username: made.body.username, password: 'schema-password-1', role: 'OPERATOR' });
    await call('GET', '/finance/users?page=1&limit=5');
    await call('GET', '/finance/users?role=OPERATOR');
    await call('POST', '/finance/users/password', { id: made.body.id, password: 'another-password-1' });
    await call('POST', '/finance/users/disable', { id: made.body.id });
    await call('POST', '/finance/users/enable', { id: made.body.id });
    await call('POST', '/finance/users/disable', { id: 1 });
    await call('POST', '/finance/users/disable', { id: 2_000_000_000 });

    // deals
    const deal = await call('POST', '/finance/deals/create', dealBody());
    const spare = await createDeal(t);
    await call('POST', '/finance/deals/create', dealBody({ deposit: 700000 }));
    await call('POST', '/finance/deals/deactivate', { dealid: spare.dealid });
    await call('POST', '/finance/deals/deactivate', { dealid: 2_000_000_000 });
    await call('GET', '/finance/deals');
    await call('GET', '/finance/deals?active=true&page=1&limit=2');
    const dealid = deal.body.dealid as number;

    // customers
    const reg = registrationBody(dealid);
    const registered = await call('POST', '/finance/customers/register', reg, operator);
    await call('POST', '/finance/customers/register', reg, operator);
    await call('POST', '/finance/customers/register', registrationBody(2_000_000_000), operator);
    await call('POST', '/finance/customers/register', registrationBody(spare.dealid), operator);
    const customerid = registered.body.customerid as number;
    const other = await registerCustomer(t, dealid);
    await call('POST', '/finance/customers/salesstage', { customerid, salesstage: 'VERIFICATION' }, operator);
    await call('POST', '/finance/customers/salesstage', { customerid: 2_000_000_000, salesstage: 'VERIFICATION' }, operator);
    await call('POST', '/finance/customers/approve', { customerid }, operator);
    await call('POST', '/finance/customers/approve', { customerid }, operator);
    const details = await call('GET', `/finance/customers/${customerid}`, undefined, operator);
    await call('GET', '/finance/customers/2000000000', undefined, operator);
    await call('GET', '/finance/customers/abc', undefined, operator);
    await call('POST', '/finance/customers/find', { accountnumber: details.body.accountnumber }, collector.token);
    await call('POST', '/finance/customers/find', { accountnumber: 'NO-SUCH-ACCOUNT' }, collector.token);
    await call('GET', '/finance/customers/status-summary', undefined, collector.token);
    await call('GET', '/finance/customers?page=1&limit=5&search=Customer', undefined, collector.token);
    await call('GET', '/finance/customers?status=APPROVED&salesstage=VERIFICATION');
    await call('POST', '/finance/accounts/info', { accountid: details.body.accountid }, operator);
    await call('POST', '/finance/accounts/info', { accountid: 2_000_000_000 }, operator);

    // payments
    const reference = `SCHEMA-${unique()}`;
    await call('POST', '/finance/payments/load', { customerid, amount: 45000, reference, narration: 'Cash at the shop' }, operator);
    await call('POST', '/finance/payments/load', { customerid, amount: 45000, reference, narration: 'Cash at the shop' }, operator);
    await call('POST', '/finance/payments/load', { customerid: 2_000_000_000, amount: 1, reference: `SCHEMA-${unique()}`, narration: 'x' }, operator);
    await call('POST', '/finance/payments/recent', { customerid, limit: 5 }, collector.token);
    await call('POST', '/finance/payments/recent', { customerid: 2_000_000_000, limit: 5 }, collector.token);
    await call('POST', '/finance/payments/recon', { reference }, operator);
    await call('POST', '/finance/payments/recon', { reference: `NOWHERE-${unique()}` }, operator);

    // mobile money
    const txid = `MP-SCHEMA-${unique()}`;
    await call('POST', '/finance/amlogs/callback', { transaction: { id: txid, amount: 1000, tag: other.payg } }, provider);
    await call('POST', '/finance/amlogs/callback', { transaction: { id: txid, amount: 1000, tag: other.payg } }, provider);
    await call('POST', '/finance/amlogs/callback', { transaction: { id: txid, amount: 2000, tag: other.payg } }, provider);
    const orphan = `MP-ORPHAN-${unique()}`;
    await call('POST', '/finance/amlogs/callback', { transaction: { id: orphan, amount: 1000, tag: 'NOBODY' } }, provider);
    await call('POST', '/finance/amlogs/callback', { transaction: { id: `MP-${unique()}`, amount: 1000 } }, provider);
    await call('POST', '/finance/amlogs/callback', { transaction: { id: `MP-${unique()}`, amount: 1000, tag: 'X' } }, null);
    sim.addTransaction({ id: `MP-SIM-${unique()}`, amount: 3000, tag: other.payg, status: 'SUCCESS', timestamp: '2026-01-14T10:00:00Z' });
    await call('POST', '/finance/amlogs/lookup', { startdate: '2026-01-01', enddate: '2026-01-15' }, operator);
    await call('POST', '/finance/amlogs/lookup', { startdate: '2026-01-15', enddate: '2026-01-01' }, operator);
    sim.setDown(true);
    await call('POST', '/finance/amlogs/lookup', { startdate: '2026-01-01', enddate: '2026-01-15' }, operator);
    await call('POST', '/finance/payments/recon', { reference: `NOWHERE-${unique()}` }, operator);
    sim.setDown(false);
    await call('GET', '/finance/amlogs/unmatched?page=1&limit=5', undefined, operator);
    await call('POST', '/finance/amlogs/assign', { transactionid: orphan, customerid: other.customerid }, operator);
    await call('POST', '/finance/amlogs/assign', { transactionid: orphan, customerid: other.customerid }, operator);
    await call('POST', '/finance/amlogs/assign', { transactionid: 'NO-SUCH', customerid: other.customerid }, operator);

    // device / PAYG
    await call('POST', '/finance/device/lock-update', { customerid, payg: reg.payg, serialnumber: `SN-${unique()}` }, operator);
    await call('POST', '/finance/device/lock-update', { customerid: 2_000_000_000, payg: 'X', serialnumber: 'SN' }, operator);
    await call('POST', '/finance/device/unlock-temp', { customerid, hours: 2 }, operator);
    await call('POST', '/finance/device/unlock-temp', { customerid, hours: 0 }, operator);
    await call('POST', '/finance/device/bonus-days', { customerid, days: 2 }, operator);
    await call('POST', '/finance/customers/bonus', { customerid, days: 2 }, operator);
    await call('POST', '/finance/customers/bonus', { customerid, days: 365 }, operator);
    await call('POST', '/finance/device/sync-status', { customerid }, operator);
    const locked = await registerCustomer(t, dealid);
    await call('POST', '/finance/device/sync-status', { customerid: locked.customerid }, operator);
    await call('GET', `/finance/device/commands?customerid=${customerid}`, undefined, operator);
    await call('GET', '/finance/device/commands?status=PENDING&action=UNLOCK&page=1&limit=3', undefined, operator);
    await call('GET', '/finance/device/commands?customerid=2000000000', undefined, operator);

    // contracts
    await call('POST', '/finance/contracts/repossess', { customerid: locked.customerid, reason: 'Customer unreachable.' }, operator);
    await call('POST', '/finance/contracts/repossess', { customerid: locked.customerid, reason: 'Again.' }, operator);

    // inventory
    const item = await call('POST', '/finance/inventory/add', { itemname: `Phone ${unique()}`, quantity: 3, unitcost: 45000.5, supplier: 'Supplies Ltd' }, operator);
    await call('POST', '/finance/inventory/details', { itemid: item.body.itemid }, operator);
    await call('POST', '/finance/inventory/details', { itemid: 2_000_000_000 }, operator);
    await call('POST', '/finance/inventory/adjust', { itemid: item.body.itemid, delta: -1, reason: 'Sold' }, operator);
    await call('POST', '/finance/inventory/adjust', { itemid: item.body.itemid, delta: -100, reason: 'Too many' }, operator);
    await call('GET', '/finance/inventory?page=1&limit=5&search=Phone', undefined, operator);

    // the outboxes delivered: one command refused by the platform first (lasterror, nextattemptat), messages sent and reported
    lock.failNext(1);
    await t.app.get(DeliveryWorker).runOnce();
    const retried = await call('GET', `/finance/device/commands?customerid=${customerid}`, undefined, operator);
    expect(retried.body.items).toContainEqual(expect.objectContaining({ status: 'PENDING', lasterror: expect.any(String), nextattemptat: expect.any(String) }));
    lock.failNext(0);
    await t.db.query('UPDATE device_commands SET next_attempt_at = now()');
    await t.app.get(DeliveryWorker).runOnce();
    await t.app.get(SmsDeliveryWorker).drain();
    await sms.reportsSettled();
    expect((await call('GET', '/finance/device/commands?status=DELIVERED', undefined, operator)).body.total).toBeGreaterThan(0);
    const sent = await call('GET', `/finance/messages?customerid=${customerid}`, undefined, operator);
    expect(sent.body.items).toContainEqual(expect.objectContaining({ status: 'DELIVERED', sentat: expect.any(String), deliveredat: expect.any(String) }));

    // collections: a deal overdue a few days later
    t.clock.advance(40 * 24 * 3600 * 1000);
    await call('POST', '/finance/collections/generate', {}, collector.token);
    const calls = await call('GET', '/finance/collections/calls?status=PENDING', undefined, collector.token);
    const callid = calls.body.items?.[0]?.callid as number;
    await call('POST', '/finance/collections/assign', { callid, userid: collector.id }, operator);
    await call('POST', '/finance/collections/assign', { callid: 2_000_000_000, userid: collector.id }, operator);
    await call('POST', '/finance/collections/update', { callid, status: 'CALLED', notes: 'No answer.', promisedate: '2026-03-01' }, collector.token);
    await call('POST', '/finance/collections/update', { callid, status: 'RESOLVED', notes: 'Paid.' }, collector.token);
    await call('POST', '/finance/collections/update', { callid, status: 'CALLED', notes: 'Again.' }, collector.token);
    await call('GET', `/finance/collections/calls?customerid=${customerid}&assignedto=${collector.id}`, undefined, collector.token);
    await call('GET', '/finance/collections/stats', undefined, collector.token);

    // reports and audit
    await call('GET', '/finance/reports/portfolio');
    await call('GET', '/finance/reports/portfolio?startdate=2026-01-01&enddate=2026-01-31');
    await call('GET', '/finance/reports/payments-per-day?days=7');
    await call('GET', `/finance/audit?page=1&limit=5&customerid=${customerid}`);

    // feedback
    await call('POST', '/finance/feedback/create', { customerid, message: 'The lamp flickers.', category: 'DEVICE' }, collector.token);
    await call('POST', '/finance/feedback/create', { customerid: 2_000_000_000, message: 'x' }, collector.token);
    await call('GET', `/finance/feedback?customerid=${customerid}`, undefined, collector.token);
    await call('GET', '/finance/feedback?customerid=2000000000', undefined, collector.token);

    // messages
    await call('GET', `/finance/messages?customerid=${customerid}`, undefined, collector.token);
    await call('GET', '/finance/messages?status=PENDING&page=1&limit=2', undefined, collector.token);
    await call('POST', '/finance/messages/send', { customerid, text: 'Your agent calls tomorrow.' }, operator);
    await call('POST', '/finance/messages/send', { customerid: 2_000_000_000, text: 'x' }, operator);
    await call('GET', `/finance/customers/preferences?customerid=${customerid}`, undefined, collector.token);
    await call('POST', '/finance/customers/preferences', { customerid, language: 'sw', smsoptout: true }, operator);
    await call('POST', '/sms/delivery-reports?key=schema-sms-callback-key', { id: 'ATXid_schema', status: 'Success' }, null);
    await call('POST', '/sms/delivery-reports?key=wrong', { id: 'ATXid_schema', status: 'Success' }, null);

    // imports and exports
    const imported = await t.http
      .post('/finance/imports')
      .set('x-access-token', admin)
      .field('kind', 'payments')
      .field('mode', 'validate')
      .attach('file', Buffer.from(`externalid,payg,amount,reference,date\r\nE1,${other.payg},1000,IMP-${unique()},2026-01-10\r\n`), 'schema.csv');
    problems.push(...check.problems('POST', '/finance/imports', imported.status, imported.body));
    const applied = await t.http
      .post('/finance/imports')
      .set('x-access-token', admin)
      .field('kind', 'payments')
      .field('mode', 'apply')
      .attach('file', Buffer.from(`externalid,payg,amount,reference,date\r\nE2,${other.payg},1000,IMP-${unique()},2026-01-10\r\nE3,NOBODY,x,IMP-${unique()},2026-01-10\r\n`), 'apply.csv');
    problems.push(...check.problems('POST', '/finance/imports', applied.status, applied.body));
    for (let i = 0; i < 50 && ['VALIDATING', 'APPLYING'].includes((await call('GET', `/finance/imports/${applied.body.importid}`)).body.status); i++) await new Promise((r) => setTimeout(r, 100));
    // a customer brought in from another platform, with what they paid there (one OPENING ledger row)
    const book = registrationBody(dealid);
    const row = [`EXT-${unique()}`, book.fullname, book.telephone, book.guarantorname, book.guarantorcontact, book.imei, book.payg, '', dealid, 60000, 150000, '2025-12-01'];
    const migrated = await t.http
      .post('/finance/imports')
      .set('x-access-token', admin)
      .field('kind', 'customers')
      .field('mode', 'apply')
      .attach('file', Buffer.from(`externalid,fullname,telephone,guarantorname,guarantorcontact,imei,payg,serialnumber,dealid,depositpaid,amountpaid,startdate\r\n${row.join(',')}\r\n`), 'book.csv');
    problems.push(...check.problems('POST', '/finance/imports', migrated.status, migrated.body));
    for (let i = 0; i < 50 && (await call('GET', `/finance/imports/${migrated.body.importid}`)).body.status !== 'DONE'; i++) await new Promise((r) => setTimeout(r, 100));
    const found = await call('GET', `/finance/customers?search=${encodeURIComponent(book.payg)}`, undefined, operator);
    expect(found.body.total).toBe(1);
    const ledger = await call('POST', '/finance/payments/recent', { customerid: found.body.items[0].customerid, limit: 5 }, collector.token);
    expect(ledger.body.map((p: { type: string }) => p.type)).toContain('OPENING');
    await call('GET', `/finance/customers/${found.body.items[0].customerid}`, undefined, operator);
    expect((await call('GET', `/finance/device/commands?customerid=${found.body.items[0].customerid}`, undefined, operator)).body.total).toBeGreaterThan(0);
    await call('GET', '/finance/imports?page=1&limit=5');
    await call('GET', `/finance/imports/${imported.body.importid}`);
    await call('GET', '/finance/imports/2000000000');
    await call('GET', '/finance/exports/customers.csv');
    await call('GET', '/finance/exports/payments.csv?startdate=2026-01-01&enddate=2026-01-31');
    await call('GET', '/finance/exports/collections.csv');
    await call('GET', '/finance/exports/portfolio.csv');

    // what every route with a JSON body can answer before its handler runs (DESIGN part 4: 413 over 100 kB)
    for (const [path, token] of [['/api/auth/signin', null], ['/finance/amlogs/callback', provider], ['/finance/payments/load', operator], ['/sms/delivery-reports?key=schema-sms-callback-key', null]] as const) {
      expect((await call('POST', path, { padding: 'x'.repeat(110 * 1024) }, token)).status).toBe(413);
      let r = t.http.post(path).set('content-type', 'text/plain');
      if (token) r = r.set('x-access-token', token);
      const res = await r.send('not json');
      expect(res.status).toBe(415);
      problems.push(...check.problems('POST', path, res.status, res.body, res.headers['content-type']));
    }
    // and an unexpected failure, on any route (DESIGN part 4: 500 "Internal server error.")
    await t.db.query('ALTER TABLE users RENAME COLUMN active TO active_renamed');
    try {
      expect((await call('GET', '/finance/users')).status).toBe(500);
    } finally {
      await t.db.query('ALTER TABLE users RENAME COLUMN active_renamed TO active');
    }
    // and a database that does not answer in time: every pool connection held, a request waits 3 s for one (503)
    const held = [];
    for (let i = 0; i < t.config.database.poolSize; i++) {
      const runner = t.db.createQueryRunner();
      await runner.connect();
      await runner.query('SELECT 1');
      held.push(runner);
    }
    try {
      expect((await call('POST', '/api/auth/signin', { username: collector.username, password: collector.password }, null)).status).toBe(503);
      expect((await call('GET', '/finance/customers/status-summary', undefined, collector.token)).status).toBe(503);
    } finally {
      for (const runner of held) await runner.release();
    }

    expect(problems).toEqual([]);
  });
});
