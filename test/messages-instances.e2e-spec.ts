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
