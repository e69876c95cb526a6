import http from 'node:http';
import { Role } from '../src/common/auth/role.js';
import { EXPORTS_AT_ONCE } from '../src/modules/exports/application/exports.service.js';
import { OPERATOR_MESSAGES_PER_DAY } from '../src/modules/messages/application/messages.service.js';
import { waitUntil } from './support/faults.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { ADMIN, startTestApp, TestApp } from './support/test-app.js';

/** EXPORT_STALL_SECONDS here: the least it may be, so the stalled export is ended within the test's time. */
const STALL_SECONDS = 5;
const EXPORT_STALL_MS = STALL_SECONDS * 1000;

/** What an outside penetration tester probes over HTTP: caching of personal data, and the like. */
describe('HTTP security', () => {
  let t: TestApp;
  let admin: string;
  let customerid: number;

  beforeAll(async () => {
    t = await startTestApp({ env: { EXPORT_STALL_SECONDS: String(STALL_SECONDS) } });
    admin = await t.token(Role.ADMIN);
    const deal = await createDeal(t);
    customerid = (await registerCustomer(t, deal.dealid)).customerid;
    // a book big enough that an export unread by its client stays open, holding its connection
    await t.db.query(
      `INSERT INTO payments (customer_id, customer_deal_id, amount, reference, narration, type)
       SELECT $1, cd.id, 0.01, 'HTTP-SECURITY-' || g, repeat('x', 200), 'MANUAL' FROM customer_deals cd, generate_series(1, 100000) g WHERE cd.customer_id = $1`,
      [customerid],
    );
  });
  afterAll(() => t.close());

  it('tells every cache not to keep the API’s answers: tokens, personal data, CSV exports, refusals', async () => {
    const answers = [
      await t.http.post('/api/auth/signin').send(ADMIN).expect(200),
      await t.http.get(`/finance/customers/${customerid}`).set('x-access-token', admin).expect(200),
      await t.http.get('/finance/customers').set('x-access-token', admin).expect(200),
      await t.http.post('/finance/payments/recent').set('x-access-token', admin).send({ customerid }).expect(200),
      await t.http.get('/finance/exports/customers.csv').set('x-access-token', admin).expect(200),
      await t.http.get('/finance/exports/payments.csv').set('x-access-token', admin).expect(200),
      await t.http.get('/finance/customers/999999').set('x-access-token', admin).expect(404),
      await t.http.get('/finance/customers').expect(401),
      await t.http.get('/docs-json').expect(200),
    ];
    expect(answers.map((res) => res.headers['cache-control'])).toEqual(answers.map(() => 'no-store'));
    // the web client's files keep their own caching: hashed assets for good, index.html revalidated
    const index = await t.http.get('/customers/42').expect(200);
    expect(index.headers['cache-control']).toBe('no-cache');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(index.text)![1];
    expect((await t.http.get(asset).expect(200)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('runs a few exports at once and answers 429 to more, so that slow readers cannot use up the database’s connections', async () => {
    const exportConnections = async () => Number((await t.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'payg-export'`))[0].n);
    const agent = new http.Agent({ keepAlive: false, maxSockets: 100 });
    const open = (): Promise<http.IncomingMessage> =>
      new Promise((resolve, reject) => {
        const url = new URL('/finance/exports/payments.csv', t.baseUrl);
        http.get(url, { agent, headers: { 'x-access-token': admin } }, (res) => resolve(res.pause())).on('error', reject);
      });
    const held: http.IncomingMessage[] = [];
    try {
      for (let i = 0; i < EXPORTS_AT_ONCE + 3; i++) held.push(await open());
      expect(held.map((res) => res.statusCode)).toEqual([...Array<number>(EXPORTS_AT_ONCE).fill(200), 429, 429, 429]);
      expect(await exportConnections()).toBe(EXPORTS_AT_ONCE);
      const refused = held.pop()!;
      refused.resume();
      const body = await new Promise<string>((resolve) => {
        let text = '';
        refused.on('data', (chunk: Buffer) => (text += chunk.toString())).on('end', () => resolve(text));
      });
      expect(JSON.parse(body)).toEqual({ message: `${EXPORTS_AT_ONCE} exports are already running: try again when one has finished.` });
      // everyone else is served meanwhile
      await t.http.get(`/finance/customers/${customerid}`).set('x-access-token', admin).expect(200);
      // a client that goes away gives its place back
      held.shift()!.destroy();
      await waitUntil('a new export let in', async () => {
        const res = await open();
        if (res.statusCode !== 200) res.destroy();
        else held.push(res);
        return res.statusCode === 200;
      }, 10_000, 200);
      expect(await exportConnections()).toBe(EXPORTS_AT_ONCE);
    } finally {
      for (const res of held) res.destroy();
      agent.destroy();
    }
    await waitUntil('every export’s connection closed', async () => (await exportConnections()) === 0, 10_000);
  });

  it('ends an export whose client stops reading, giving back its connection and its place', async () => {
    const exportConnections = async () => Number((await t.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'payg-export'`))[0].n);
    const agent = new http.Agent({ keepAlive: false });
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(new URL('/finance/exports/payments.csv', t.baseUrl), { agent, headers: { 'x-access-token': admin } }, (r) => resolve(r.pause())).on('error', reject);
    });
    const ended = new Promise<void>((resolve) => res.on('close', () => resolve()).on('error', () => resolve()));
    try {
      expect(res.statusCode).toBe(200);
      expect(await exportConnections()).toBe(1);
      const started = Date.now();
      await waitUntil('the stalled export’s connection closed', async () => (await exportConnections()) === 0, EXPORT_STALL_MS + 20_000, 500);
      expect(Date.now() - started).toBeGreaterThan(EXPORT_STALL_MS - 5_000);
      // the client's file ends short, not as a whole one: reading it now gets what was sent, then the end of a broken answer
      res.resume();
      await ended;
      expect(res.complete).toBe(false);
    } finally {
      res.destroy();
      agent.destroy();
    }
  }, EXPORT_STALL_MS + 60_000);

  it('lets operators send one customer only a few messages a day, however fast they are sent', async () => {
    const operator = await t.token(Role.OPERATOR);
    const deal = await createDeal(t);
    const [one, other] = [(await registerCustomer(t, deal.dealid)).customerid, (await registerCustomer(t, deal.dealid)).customerid];
    const send = (customerid: number, i: number) => t.http.post('/finance/messages/send').set('x-access-token', operator).send({ customerid, text: `Message ${i}` });
    const answers = await Promise.all(Array.from({ length: OPERATOR_MESSAGES_PER_DAY + 20 }, (_, i) => send(one, i)));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(OPERATOR_MESSAGES_PER_DAY);
    expect(answers.filter((res) => res.status !== 201).map((res) => [res.status, res.body])).toEqual(
      Array.from({ length: 20 }, () => [429, { message: `Customer ${one} was sent ${OPERATOR_MESSAGES_PER_DAY} operator messages in the last 24 hours: no more today.` }]),
    );
    const queued = async (customerid: number) =>
      Number((await t.db.query(`SELECT count(*)::int AS n FROM sms_messages WHERE customer_id = $1 AND kind = 'OPERATOR'`, [customerid]))[0].n);
    expect(await queued(one)).toBe(OPERATOR_MESSAGES_PER_DAY);
    // another customer is another count
    await send(other, 0).expect(201);
    // and a day later the customer may be written to again
    await t.db.query(`UPDATE sms_messages SET created_at = created_at - interval '24 hours' WHERE customer_id = $1`, [one]);
    await send(one, 99).expect(201);
  });
});
