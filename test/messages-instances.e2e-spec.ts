import pg from 'pg';
import { Role } from '../src/common/auth/role.js';
import { SmsSimulator, startSmsSimulator } from '../tools/simulators/sms-simulator.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { Instance, startInstance } from './support/instances.js';
import { createTestDatabase, dropTestDatabase, startTestApp } from './support/test-app.js';

/**
 * Three service processes on one database, each running the reminder job (5 s after start) and the
 * SMS worker: every reminder is written once and every message reaches the gateway once.
 */
describe('Customer messages on three instances', () => {
  let databaseUrl: string;
  let sms: SmsSimulator;
  let instances: Instance[] = [];

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    sms = await startSmsSimulator({ apiKey: 'k', username: 'sandbox' });
  });
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await sms.close();
    await dropTestDatabase(databaseUrl);
  });

  it('writes each reminder once and sends every message once', async () => {
    // customers paid up to 3 days and 1 day from the real today, through the API on the same database
    const t = await startTestApp({ databaseUrl, now: new Date() });
    const dealid = (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
    const operator = await t.token(Role.OPERATOR);
    const customers = [];
    for (const [i, amount] of [4500, 4500, 4500, 1500, 1500, 1500].entries()) {
      const c = await registerCustomer(t, dealid);
      await t.http.post('/finance/payments/load').set('x-access-token', operator).send({ customerid: c.customerid, amount, reference: `R-${i}`, narration: 'cash' }).expect(201);
      customers.push(c);
    }
    await t.close();

    const env = { JOBS_ENABLED: 'true', OUTBOX_POLL_MS: '200', SMS_API_URL: sms.url, SMS_USERNAME: 'sandbox', SMS_API_KEY: 'k', SMS_QUIET_HOURS: '0-0', COLLECTIONS_GENERATE_MINUTES: '0', MOBILE_MONEY_LOOKUP_MINUTES: '0' };
    instances = await Promise.all([startInstance(databaseUrl, env), startInstance(databaseUrl, env), startInstance(databaseUrl, env)]);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const counts = async () =>
        (await db.query(`SELECT count(*) FILTER (WHERE kind = 'REMINDER')::int AS reminders, count(*) FILTER (WHERE status <> 'SENT')::int AS unsent, count(*)::int AS total FROM sms_messages`)).rows[0];
      const deadline = Date.now() + 45_000;
      while (!((await counts()).reminders === 6 && (await counts()).unsent === 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      await new Promise((r) => setTimeout(r, 1000)); // anything a slower instance would add
      expect(await counts()).toEqual({ reminders: 6, unsent: 0, total: 18 });
      const keys = (await db.query(`SELECT event_key FROM sms_messages WHERE kind = 'REMINDER' ORDER BY event_key`)).rows.map((r) => r.event_key.replace(/^REMINDER:\d+:[\d-]+:/, ''));
      expect(keys.sort()).toEqual(['1', '1', '1', '3', '3', '3']);
      expect(sms.messages).toHaveLength(18);
      for (const c of customers) {
        expect(sms.sentTo(c.telephone).map((m) => m.message.split(' ')[0])).toEqual(['Welcome!', 'We', 'Reminder:']);
      }
    } finally {
      await db.end();
    }
  });
});

/**
 * A gateway slower than the lease (1 s a send, a 15 s lease, one customer's 20 messages in one
 * batch): the batch outlives the lease its claim took while the other instance polls every 200 ms.
 * The tester's reproduction, shortened: a proxy holding each send 8 s, a 60 s lease, 15 messages.
 */
describe('Customer messages on two instances with a gateway slower than the lease', () => {
  const LEASE_SECONDS = 15;
  let databaseUrl: string;
  let sms: SmsSimulator;
  let db: pg.Client;
  let instances: Instance[] = [];
  const env = () => ({
    JOBS_ENABLED: 'true', OUTBOX_POLL_MS: '200', SMS_API_URL: sms.url, SMS_USERNAME: 'sandbox', SMS_API_KEY: 'k', SMS_LEASE_SECONDS: String(LEASE_SECONDS),
    SMS_QUIET_HOURS: '0-0', COLLECTIONS_GENERATE_MINUTES: '0', MOBILE_MONEY_LOOKUP_MINUTES: '0',
  });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const until = async (what: string, done: () => Promise<boolean> | boolean, ms: number) => {
    for (const deadline = Date.now() + ms; !(await done()); await sleep(200)) if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
  };
  const rowsOf = async (customerid: number) =>
    (await db.query(`SELECT kind, text, status, attempts FROM sms_messages WHERE customer_id = $1 ORDER BY id`, [customerid])).rows as Array<{ kind: string; text: string | null; status: string; attempts: number }>;

  /** A customer paid up a month ahead (no reminder, no lock) with their welcome, their receipt and `count` operator messages waiting. */
  async function customerWithMessages(prefix: string, count: number) {
    const t = await startTestApp({ databaseUrl, now: new Date() }); // no gateway: everything waits PENDING
    try {
      const c = await registerCustomer(t, (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid);
      const operator = await t.token(Role.OPERATOR);
      await t.http.post('/finance/payments/load').set('x-access-token', operator).send({ customerid: c.customerid, amount: 45000, reference: `${prefix}-pay`, narration: 'cash' }).expect(201);
      for (let i = 1; i <= count; i++) await t.http.post('/finance/messages/send').set('x-access-token', operator).send({ customerid: c.customerid, text: `${prefix} ${i}` }).expect(201);
      return { ...c, expected: [expect.stringMatching(/^Welcome! /), expect.stringMatching(/^We received your payment of UGX 45,000/), ...Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`)] };
    } finally {
      await t.close();
    }
  }

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    sms = await startSmsSimulator({ apiKey: 'k', username: 'sandbox' });
    sms.setDelay(1000);
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });
  afterEach(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    instances = [];
  });
  afterAll(async () => {
    await db.end();
    await sms.close();
    await dropTestDatabase(databaseUrl);
  });

  it('sends each message once, in order, though the round lasts longer than the lease', async () => {
    const c = await customerWithMessages('dup test', 18);
    instances = await Promise.all([startInstance(databaseUrl, env()), startInstance(databaseUrl, env())]);
    await until('every message is sent', async () => (await rowsOf(c.customerid)).every((m) => m.status === 'SENT'), 90_000);
    await sleep(1500); // a second send of the last one would land by now
    expect(sms.sentTo(c.telephone).map((m) => m.message)).toEqual(c.expected);
    expect((await rowsOf(c.customerid)).map((m) => `${m.status}:${m.attempts}`)).toEqual(Array(20).fill('SENT:1'));
  }, 150_000);

  it('leaves a killed instance’s messages to the other once their lease ends, the one in flight sent again (at least once)', async () => {
    const c = await customerWithMessages('crash test', 10);
    const first = await startInstance(databaseUrl, env());
    instances.push(first);
    await until('the first instance sends', () => sms.sentTo(c.telephone).length >= 1, 30_000);
    instances.push(await startInstance(databaseUrl, env()));
    const sentBeforeKill = sms.sentTo(c.telephone).length;
    await first.stop('SIGKILL');
    instances = instances.filter((i) => i !== first);
    // the first renewed the lease of its unsent messages at its last send: the other waits it out
    await sleep((LEASE_SECONDS - 4) * 1000);
    expect(sms.sentTo(c.telephone).length).toBeLessThanOrEqual(sentBeforeKill + 1); // at most the send in flight
    await until('every message is sent', async () => (await rowsOf(c.customerid)).every((m) => m.status === 'SENT'), 60_000);
    await sleep(1500);
    const received = sms.sentTo(c.telephone).map((m) => m.message);
    expect([...new Set(received)]).toEqual(c.expected);
    expect(received.length - c.expected.length).toBeLessThanOrEqual(1); // Africa's Talking has no idempotency key
  }, 150_000);
});
