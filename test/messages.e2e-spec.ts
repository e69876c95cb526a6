import { jest } from '@jest/globals';
import pg from 'pg';
import { Role } from '../src/common/auth/role.js';
import { ContractJobs } from '../src/modules/contracts/application/contract-jobs.js';
import { DealEvents } from '../src/modules/contracts/application/deal-events.js';
import { MessagesService } from '../src/modules/messages/application/messages.service.js';
import { SmsDeliveryWorker } from '../src/modules/messages/application/sms-delivery.worker.js';
import { MessagesRepository } from '../src/modules/messages/infrastructure/messages.repository.js';
import { SmsSimulator, startSmsSimulator } from '../tools/simulators/sms-simulator.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { startTestApp, TestApp } from './support/test-app.js';

const CALLBACK_KEY = 'sms-callback-key-0123456789';
const INSTRUCTIONS = 'Pay with MTN MoMo to merchant 123456, your PAYG code as reference.';
const smsEnv = (url: string) => ({ SMS_API_URL: url, SMS_USERNAME: 'sandbox', SMS_API_KEY: 'at-key', SMS_SENDER_ID: 'PAYGCO', SMS_CALLBACK_KEY: CALLBACK_KEY, PAYMENT_INSTRUCTIONS: INSTRUCTIONS });

interface Msg {
  messageid: number;
  kind: string;
  status: string;
  text: string;
  language: string;
  encoding: string;
  segments: number;
  attempts: number;
  lasterror: string | null;
  failurereason: string | null;
  gatewaymessageid: string | null;
  telephone: string | null;
}

describe('Customer messages by SMS', () => {
  let t: TestApp;
  let sms: SmsSimulator;
  let operator: string;
  let provider: string;
  let dealid: number;
  let worker: SmsDeliveryWorker;
  let service: MessagesService;
  /** more instances on the same database, closed last: closing one while another runs breaks that one's entity repositories (TypeORM shares them within a process) */
  const instances: TestApp[] = [];
  const startInstance = async (options: { now: Date; env?: Record<string, string> }) => {
    const instance = await startTestApp({ databaseUrl: t.databaseUrl, ...options });
    instances.push(instance);
    return instance;
  };

  beforeAll(async () => {
    sms = await startSmsSimulator({ apiKey: 'at-key', username: 'sandbox' });
    t = await startTestApp({
      now: new Date('2026-03-10T08:00:00Z'),
      env: smsEnv(sms.url),
    });
    sms.setCallbackUrl(`${t.baseUrl}/sms/delivery-reports?key=${CALLBACK_KEY}`);
    sms.setReportDelay(5, 3, 100); // every third report comes later
    operator = await t.token(Role.OPERATOR);
    provider = await t.token(Role.PROVIDER);
    dealid = (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
    worker = t.app.get(SmsDeliveryWorker);
    service = t.app.get(MessagesService);
  });
  afterAll(async () => {
    try {
      t.clock.set(new Date('2026-04-09T08:00:00Z'));
      await expectLedgerConsistent(t);
    } finally {
      for (const instance of instances) await instance.close();
      await t.close();
      await sms.close();
    }
  });
  beforeEach(() => t.clock.set(new Date('2026-03-10T08:00:00Z')));

  const post = (path: string, body: object, token = operator) => t.http.post(path).set('x-access-token', token).send(body);
  const pay = (customerid: number, amount: number, reference = `P-${Math.random()}`) => post('/finance/payments/load', { customerid, amount, reference, narration: 'cash' });
  const messagesOf = async (customerid: number, query = ''): Promise<Msg[]> =>
    (await t.http.get(`/finance/messages?customerid=${customerid}&limit=100${query}`).set('x-access-token', operator).expect(200)).body.items.reverse();
  const settle = async () => {
    await worker.drain();
    await sms.reportsSettled();
  };
  const report = (fields: Record<string, string>, key = CALLBACK_KEY) =>
    t.http.post(`/sms/delivery-reports?key=${encodeURIComponent(key)}`).type('form').send(new URLSearchParams(fields).toString());

  it('sends one message per event with the figures of the event, and records delivery', async () => {
    const c = await registerCustomer(t, dealid);
    await pay(c.customerid, 45000).expect(201);
    t.clock.set(new Date('2026-04-09T06:00:00Z')); // within quiet hours: only reminders wait
    await t.app.get(ContractJobs).lockOverdue();
    await pay(c.customerid, 495000, 'FINAL-1').expect(201);
    await settle();
    const texts = sms.sentTo(c.telephone).map((m) => m.message);
    const [{ accountnumber }] = (await t.db.query(`SELECT a.accountnumber FROM customers c JOIN accounts a ON a.id = c.account_id WHERE c.id = $1`, [c.customerid])) as Array<{ accountnumber: string }>;
    expect(texts).toEqual([
      expect.stringMatching(new RegExp(`^Welcome! Your device is registered\\. PAYG code: ${c.payg}\\. Account: ${accountnumber}\\. Deposit received: UGX 60,000\\. Pay with MTN MoMo`)),
      'We received your payment of UGX 45,000, thank you. Balance: UGX 495,000. Your device is paid up to 9 April 2026.',
      `Your device is locked: payment was due on 9 April 2026. Pay UGX 1,500 to unlock it. PAYG code: ${c.payg}. ${INSTRUCTIONS}`,
      // the days bought end with the term (DESIGN part 5)
      'We received your payment of UGX 495,000, thank you. Balance: UGX 0. Your device is paid up to 5 March 2027.',
      'Congratulations! You have paid UGX 600,000 in full. The device is yours now and will not lock again. Thank you!',
    ]);
    expect(sms.sentTo(c.telephone).every((m) => m.from === 'PAYGCO' && m.username === 'sandbox')).toBe(true);
    const list = await messagesOf(c.customerid);
    expect(list.map((m) => `${m.kind}:${m.status}`)).toEqual(['REGISTERED:DELIVERED', 'PAYMENT_RECEIVED:DELIVERED', 'LOCKED:DELIVERED', 'PAYMENT_RECEIVED:DELIVERED', 'PAID_OFF:DELIVERED']);
    expect(list[0]).toMatchObject({ encoding: 'GSM-7', segments: 2, language: 'en', telephone: c.telephone, attempts: 1, gatewaymessageid: expect.stringMatching(/^ATXid_/) });
    expect(list[1]).toMatchObject({ segments: 1 });
    // nothing is sent twice, whatever runs again
    await t.app.get(ContractJobs).lockOverdue();
    await settle();
    expect(sms.sentTo(c.telephone)).toHaveLength(5);
  });

  it('sends one receipt for a duplicated callback, for 50 concurrent copies, and none for a refused or rolled-back payment', async () => {
    const c = await registerCustomer(t, dealid);
    const callback = (id: string) => post('/finance/amlogs/callback', { transaction: { id, amount: 45000, tag: c.payg } }, provider);
    expect((await callback('MM-DUP-1').expect(200)).body.status).toBe('APPLIED');
    expect((await callback('MM-DUP-1').expect(200)).body.status).toBe('DUPLICATE');
    const answers = await Promise.all(Array.from({ length: 50 }, () => callback('MM-DUP-50')));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(answers.filter((a) => a.body.status === 'APPLIED')).toHaveLength(1);
    // a payment that fails (reference used) rolls back with its receipt
    await pay(c.customerid, 1000, 'REF-ONCE').expect(201);
    await pay(c.customerid, 1000, 'REF-ONCE').expect(409);
    // and so does one whose transaction fails after the statement that wrote the receipt (the callback holds it)
    let failOnce = true;
    t.app.get(DealEvents).subscribe(async () => {
      if (failOnce) {
        failOnce = false;
        throw new Error('injected failure after the payment');
      }
    });
    expect((await callback('MM-ROLLED-BACK').expect(200)).body.status).toBe('UNMATCHED');
    expect(failOnce).toBe(false);
    await settle();
    expect((await messagesOf(c.customerid)).map((m) => m.kind)).toEqual(['REGISTERED', 'PAYMENT_RECEIVED', 'PAYMENT_RECEIVED', 'PAYMENT_RECEIVED']);
    expect(sms.sentTo(c.telephone)).toHaveLength(4);
  });

  it('writes the receipt inside the payment’s statement: no round trip of its own', async () => {
    const c = await registerCustomer(t, dealid);
    await pay(c.customerid, 45000).expect(201); // unlocked: the next payment only moves the paid-up date (a SYNC)
    const sent: Array<{ client: pg.Client; text: string }> = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const q = args[0] as string | { text: string };
      sent.push({ client: this, text: typeof q === 'string' ? q : q.text });
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      await post('/finance/amlogs/callback', { transaction: { id: 'MM-ROUND-TRIPS', amount: 45000, tag: c.payg } }, provider).expect(200);
    } finally {
      pg.Client.prototype.query = query;
    }
    const start = sent.findIndex((q) => q.text === 'START TRANSACTION');
    const transaction = sent.slice(start).filter((q) => q.client === sent[start].client);
    const statements = transaction.slice(0, transaction.findIndex((q) => q.text === 'COMMIT') + 1);
    // notification stored and deal locked; ledger row, deal and receipt; the device's new paid-up date
    expect(statements.map((q) => q.text.replace(/\s+/g, ' ').slice(0, 30))).toEqual(['START TRANSACTION', expect.stringMatching(/^WITH /), expect.stringMatching(/^WITH p AS/), expect.stringMatching(/^INSERT INTO device_commands/), 'COMMIT']);
    expect(statements.filter((q) => q.text.includes('sms_messages')).map((q) => q.text)).toEqual([expect.stringMatching(/^WITH p AS[^]*INSERT INTO sms_messages/)]);
    expect((await messagesOf(c.customerid)).map((m) => m.kind)).toEqual(['REGISTERED', 'PAYMENT_RECEIVED', 'PAYMENT_RECEIVED']);
  });

  it('queues reminders once per due date and offset, holds them through quiet hours, in the customer’s language, not to opted-out customers', async () => {
    const [a, b, out] = [await registerCustomer(t, dealid), await registerCustomer(t, dealid), await registerCustomer(t, dealid)];
    for (const c of [a, b, out]) await pay(c.customerid, 45000).expect(201); // paid up to 9 April
    expect((await post('/finance/customers/preferences', { customerid: b.customerid, language: 'sw', smsoptout: false }).expect(200)).body).toEqual({ customerid: b.customerid, language: 'sw', smsoptout: false });
    await post('/finance/customers/preferences', { customerid: out.customerid, language: 'en', smsoptout: true }).expect(200);
    await settle();
    const before = sms.messages.length;

    t.clock.set(new Date('2026-04-06T22:00:00Z')); // three days before, at night
    await Promise.all([service.queueReminders(), service.queueReminders()]);
    await service.queueReminders();
    const reminders = async (c: { customerid: number }) => (await messagesOf(c.customerid)).filter((m) => m.kind === 'REMINDER');
    expect((await reminders(a)).map((m) => m.status)).toEqual(['PENDING']);
    expect(await reminders(out)).toEqual([]);
    await settle();
    expect(sms.messages.length).toBe(before); // quiet hours
    t.clock.set(new Date('2026-04-07T06:59:00Z'));
    await settle();
    expect(sms.messages.length).toBe(before);
    t.clock.set(new Date('2026-04-07T07:00:00Z'));
    await settle();
    expect(sms.sentTo(a.telephone).at(-1)!.message).toBe(
      `Reminder: your device is paid up to 9 April 2026. Pay UGX 45,000 before then to keep it unlocked. PAYG code: ${a.payg}. ${INSTRUCTIONS}`,
    );
    expect(sms.sentTo(b.telephone).at(-1)!.message).toMatch(/^Kumbusho: kifaa chako kimelipiwa hadi 9 Aprili 2026\. Lipa UGX 45,000 kabla/);
    expect((await reminders(b))[0]).toMatchObject({ language: 'sw', status: 'DELIVERED' });

    // the day before: the 1-day reminder, once; one customer pays before it goes
    t.clock.set(new Date('2026-04-08T08:00:00Z'));
    await service.queueReminders();
    await service.queueReminders();
    await pay(a.customerid, 45000).expect(201);
    await settle();
    expect((await reminders(a)).map((m) => `${m.status}:${m.failurereason ?? ''}`)).toEqual(['DELIVERED:', 'CANCELLED:no longer due: the deal is UNLOCKED, paid up to 2026-05-09']);
    expect((await reminders(b)).map((m) => m.status)).toEqual(['DELIVERED', 'DELIVERED']);
    expect(sms.sentTo(out.telephone).map((m) => m.message.slice(0, 9))).not.toContain('Reminder:');
  });

  it('keeps messages while the gateway is down and delivers each once after', async () => {
    const c = await registerCustomer(t, dealid);
    sms.setDown(true);
    await pay(c.customerid, 45000).expect(201);
    await worker.runOnce();
    let list = await messagesOf(c.customerid);
    // the receipt is not tried while the welcome before it waits to be tried again: it goes after it
    expect(list.map((m) => `${m.status}:${m.attempts}:${m.lasterror}`)).toEqual(['PENDING:1:HTTP 503', 'PENDING:0:null']);
    await t.db.query(`UPDATE sms_messages SET next_attempt_at = now() WHERE customer_id = $1`, [c.customerid]);
    await worker.runOnce();
    const [{ s }] = await t.db.query(`SELECT extract(epoch FROM next_attempt_at - now()) AS s FROM sms_messages WHERE customer_id = $1 AND kind = 'REGISTERED'`, [c.customerid]);
    expect(Number(s)).toBeGreaterThan(8); // backing off: 5 s, then 10 s
    await worker.runOnce();
    list = await messagesOf(c.customerid);
    expect(list.map((m) => `${m.status}:${m.attempts}:${m.lasterror}`)).toEqual(['PENDING:2:HTTP 503', 'PENDING:0:null']);
    // the receipt is due no sooner than the welcome: no claim looks at it meanwhile
    const due = await t.db.query(`SELECT kind, next_attempt_at FROM sms_messages WHERE customer_id = $1 ORDER BY id`, [c.customerid]);
    expect(new Date(due[1].next_attempt_at).getTime()).toBe(new Date(due[0].next_attempt_at).getTime());
    sms.setDown(false);
    sms.failNext(1, 500);
    await t.db.query(`UPDATE sms_messages SET next_attempt_at = now() WHERE customer_id = $1`, [c.customerid]);
    await settle();
    await t.db.query(`UPDATE sms_messages SET next_attempt_at = now() WHERE customer_id = $1`, [c.customerid]);
    await settle();
    list = await messagesOf(c.customerid);
    expect(list.map((m) => m.status)).toEqual(['DELIVERED', 'DELIVERED']);
    expect(sms.sentTo(c.telephone)).toHaveLength(2);
  });

  it('does not send a message whose lease another instance took over during the send before it, nor the customer’s later ones', async () => {
    const c = await registerCustomer(t, dealid);
    for (const text of ['Second message', 'Third message']) await post('/finance/messages/send', { customerid: c.customerid, text }).expect(201);
    const rows = async () => (await t.db.query(`SELECT id, status, attempts, lease_token FROM sms_messages WHERE customer_id = $1 ORDER BY id`, [c.customerid])) as Array<{ id: string; status: string; attempts: number; lease_token: string | null }>;
    const [, second] = await rows();
    sms.setDelay(1000);
    try {
      const round = worker.drain();
      while ((await rows()).some((m) => m.lease_token === null)) await new Promise((r) => setTimeout(r, 20));
      // while the welcome is at the gateway: the second message's lease is taken over, as by an instance that found it run out
      const other = '00000000-0000-4000-8000-000000000001';
      await t.db.query(`UPDATE sms_messages SET lease_token = $2, attempts = attempts + 1, next_attempt_at = now() + interval '1 minute' WHERE id = $1`, [second.id, other]);
      await round;
      expect(sms.sentTo(c.telephone).map((m) => m.message)).toEqual([expect.stringMatching(/^Welcome!/)]);
      expect((await rows()).map((m) => `${m.status}:${m.attempts}:${m.lease_token === other}`)).toEqual([expect.stringMatching(/^(SENT|DELIVERED):1:false$/), 'PENDING:2:true', 'PENDING:1:false']);
    } finally {
      sms.setDelay(0);
    }
    // the other instance lets them go (a failed send); the next round sends both, in order
    await t.db.query(`UPDATE sms_messages SET lease_token = NULL, next_attempt_at = now() WHERE customer_id = $1 AND status = 'PENDING'`, [c.customerid]);
    await settle();
    expect(sms.sentTo(c.telephone).map((m) => m.message)).toEqual([expect.stringMatching(/^Welcome!/), 'Second message', 'Third message']);
  });

  it('keeps one customer’s messages in the order they were written while a send is retried: no lock notice after the receipt that unlocked', async () => {
    const c = await registerCustomer(t, dealid);
    await pay(c.customerid, 45000).expect(201); // paid up to 9 April
    await settle();
    t.clock.set(new Date('2026-04-09T08:00:00Z'));
    await t.app.get(ContractJobs).lockOverdue();
    sms.setDown(true);
    await worker.runOnce(); // the lock notice fails and backs off
    sms.setDown(false);
    await pay(c.customerid, 90000).expect(201); // the customer pays what unlocks
    await settle(); // the receipt waits for the lock notice before it
    const pending = `UPDATE sms_messages SET next_attempt_at = now() WHERE customer_id = $1 AND status = 'PENDING' AND lease_token IS NULL`;
    await t.db.query(pending, [c.customerid]);
    await settle();
    await t.db.query(pending, [c.customerid]);
    await settle();
    expect(sms.sentTo(c.telephone).map((m) => m.message.split(':')[0].split('!')[0])).toEqual(['Welcome', 'We received your payment of UGX 45,000, thank you. Balance', 'Your device is locked', 'We received your payment of UGX 90,000, thank you. Balance']);
    expect((await messagesOf(c.customerid)).map((m) => `${m.kind}:${m.status}:${m.attempts}`)).toEqual(['REGISTERED:DELIVERED:1', 'PAYMENT_RECEIVED:DELIVERED:1', 'LOCKED:DELIVERED:2', 'PAYMENT_RECEIVED:DELIVERED:1']);
  });

  it('fails a rejected number with the gateway’s reason, and an undelivered one with the report’s', async () => {
    const rejected = await registerCustomer(t, dealid);
    const undelivered = await registerCustomer(t, dealid);
    sms.reject(rejected.telephone);
    sms.undeliverable(undelivered.telephone, 'UserInBlackList');
    await settle();
    expect((await messagesOf(rejected.customerid))[0]).toMatchObject({ status: 'FAILED', failurereason: '403 InvalidPhoneNumber', attempts: 1 });
    expect((await messagesOf(undelivered.customerid))[0]).toMatchObject({ status: 'FAILED', failurereason: 'UserInBlackList' });
    const failed = (await t.http.get('/finance/messages?status=FAILED').set('x-access-token', await t.token(Role.COLLECTOR)).expect(200)).body;
    expect(failed.items.map((m: { customerid: number }) => m.customerid)).toEqual(expect.arrayContaining([rejected.customerid, undelivered.customerid]));
  });

  it('waits as long as the gateway asks (429 with Retry-After) before sending a message again', async () => {
    const c = await registerCustomer(t, dealid);
    sms.failNext(1, 429, 600);
    await worker.runOnce();
    const [welcome] = await messagesOf(c.customerid);
    expect(welcome).toMatchObject({ status: 'PENDING', attempts: 1, lasterror: 'HTTP 429' });
    const [{ s }] = await t.db.query(`SELECT extract(epoch FROM next_attempt_at - now()) AS s FROM sms_messages WHERE customer_id = $1`, [c.customerid]);
    expect(Number(s)).toBeGreaterThan(590);
    expect(Number(s)).toBeLessThanOrEqual(601);
    await settle();
    expect(sms.sentTo(c.telephone)).toEqual([]);
    await t.db.query(`UPDATE sms_messages SET next_attempt_at = now() WHERE customer_id = $1`, [c.customerid]);
    await settle();
    expect(sms.sentTo(c.telephone)).toHaveLength(1);
  });

  it('keeps messages PENDING while the gateway refuses the sender id, and sends them once it is approved', async () => {
    // a sender id not approved yet (or mistyped in SMS_SENDER_ID) fails every message alike: a setting to fix, not a number to give up on
    const c = await registerCustomer(t, dealid);
    sms.setSenderIds(['OTHERCO']);
    try {
      await settle();
      expect((await messagesOf(c.customerid)).map((m) => `${m.status}:${m.attempts}:${m.lasterror}:${m.failurereason}`)).toEqual(['PENDING:1:InvalidSenderId:null']);
    } finally {
      sms.setSenderIds(null);
    }
    await t.db.query(`UPDATE sms_messages SET next_attempt_at = now() WHERE customer_id = $1 AND status = 'PENDING'`, [c.customerid]);
    await settle();
    expect((await messagesOf(c.customerid)).map((m) => `${m.status}:${m.attempts}`)).toEqual(['DELIVERED:2']);
    expect(sms.sentTo(c.telephone).map((m) => m.from)).toEqual(['PAYGCO']);
  });

  it('keeps messages PENDING while SMS_API_URL points where no gateway answers (404), and sends them once it is fixed', async () => {
    const misrouted = await startInstance({ now: new Date('2026-03-10T08:00:00Z'), env: smsEnv(`${sms.url}/version1`) });
    const c = await registerCustomer(misrouted, dealid);
    await misrouted.app.get(SmsDeliveryWorker).drain();
    expect((await messagesOf(c.customerid)).map((m) => `${m.status}:${m.attempts}:${m.lasterror}:${m.failurereason}`)).toEqual(['PENDING:1:HTTP 404:null']);
    // the instance with the right address sends it
    await t.db.query(`UPDATE sms_messages SET next_attempt_at = now() WHERE customer_id = $1 AND status = 'PENDING'`, [c.customerid]);
    await settle();
    expect((await messagesOf(c.customerid)).map((m) => `${m.status}:${m.attempts}`)).toEqual(['DELIVERED:2']);
  });

  it('takes delivery reports as forms or JSON behind the key; a wrong key or an unknown id changes nothing', async () => {
    const c = await registerCustomer(t, dealid);
    sms.setCallbackUrl(null);
    await settle();
    const [sent] = await messagesOf(c.customerid);
    expect(sent.status).toBe('SENT');
    const id = sent.gatewaymessageid!;
    expect((await report({ id, status: 'Success' }, 'wrong-key').expect(401)).body).toEqual({ message: 'Invalid delivery-report key.' });
    await t.http.post(`/sms/delivery-reports`).send({ id, status: 'Success' }).expect(401);
    expect((await report({ id: 'ATXid_no-such-message', status: 'Success', phoneNumber: c.telephone }).expect(200)).body.message).toMatch(/nothing changed/);
    expect((await report({ id, status: 'Buffered', networkCode: '64101', retryCount: '0' }).expect(200)).body.message).toMatch(/not a final status/);
    expect((await messagesOf(c.customerid))[0]).toMatchObject({ status: 'SENT' });
    await t.http.post(`/sms/delivery-reports?key=${CALLBACK_KEY}`).send({ id, status: 'Success', phoneNumber: c.telephone, networkCode: '64101', retryCount: 0 }).expect(200);
    expect((await messagesOf(c.customerid))[0]).toMatchObject({ status: 'DELIVERED' });
    await report({ id, status: 'Failed', failureReason: 'DeliveryFailure' }).expect(200);
    expect((await messagesOf(c.customerid))[0]).toMatchObject({ status: 'DELIVERED', failurereason: null });
    // forms are taken on this route only
    await t.http.post('/finance/messages/send').set('x-access-token', operator).type('form').send(`customerid=${c.customerid}&text=hi`).expect(415);
    await report({ status: 'Success' }).expect(400);
    sms.setCallbackUrl(`${t.baseUrl}/sms/delivery-reports?key=${CALLBACK_KEY}`);
  });

  it('applies a report that overtook the record of its send, also when the send is recorded right after its first look', async () => {
    const c = await registerCustomer(t, dealid);
    sms.setCallbackUrl(null);
    await settle();
    sms.setCallbackUrl(`${t.baseUrl}/sms/delivery-reports?key=${CALLBACK_KEY}`);
    const [sent] = await messagesOf(c.customerid);
    const id = sent.gatewaymessageid!;
    // as the worker has it between the gateway's answer and its record: PENDING, leased, no gateway id yet
    await t.db.query(`UPDATE sms_messages SET status = 'PENDING', gateway_message_id = NULL, sent_at = NULL, lease_token = gen_random_uuid(), next_attempt_at = now() + interval '1 minute' WHERE id = $1`, [sent.messageid]);
    const repository = t.app.get(MessagesRepository);
    const inFlight = repository.sendInFlight.bind(repository);
    // the worker records the send between the report's first look for the id and its look for a send in flight
    const spy = jest.spyOn(repository, 'sendInFlight').mockImplementationOnce(async () => {
      await repository.markSent(String(sent.messageid), c.telephone, id, null);
      return inFlight();
    });
    try {
      expect((await report({ id, status: 'Success' }).expect(200)).body.message).toBe('Message delivered.');
    } finally {
      spy.mockRestore();
    }
    expect((await messagesOf(c.customerid))[0]).toMatchObject({ status: 'DELIVERED', gatewaymessageid: id });
  });

  it('takes a failed report whatever the length of its reason, and keeps the reason cut to fit', async () => {
    // a refused report is posted again and again, and the message never leaves SENT
    const c = await registerCustomer(t, dealid);
    sms.setCallbackUrl(null);
    await settle();
    const [sent] = await messagesOf(c.customerid);
    expect(sent.status).toBe('SENT');
    const reason = `Undelivered: ${'the handset was switched off and the network gave up '.repeat(6)}😀`;
    expect((await report({ id: sent.gatewaymessageid!, status: 'Failed', failureReason: reason }).expect(200)).body.message).toBe('Message failed.');
    const [failed] = await messagesOf(c.customerid);
    expect(failed.status).toBe('FAILED');
    expect([...failed.failurereason!]).toHaveLength(255);
    expect(reason.startsWith(failed.failurereason!)).toBe(true);
    sms.setCallbackUrl(`${t.baseUrl}/sms/delivery-reports?key=${CALLBACK_KEY}`);
  });

  it('takes a failed report whose reason holds line breaks or control characters, and keeps the reason as one line', async () => {
    const c = await registerCustomer(t, dealid);
    sms.setCallbackUrl(null);
    await settle();
    const [sent] = await messagesOf(c.customerid);
    expect(sent.status).toBe('SENT');
    expect((await report({ id: sent.gatewaymessageid!, status: 'Rejected', failureReason: 'Rejected by operator:\r\n\tblacklisted\u0000' }).expect(200)).body.message).toBe('Message failed.');
    const [failed] = await messagesOf(c.customerid);
    expect(failed).toMatchObject({ status: 'FAILED', failurereason: 'Rejected by operator: blacklisted' });
    sms.setCallbackUrl(`${t.baseUrl}/sms/delivery-reports?key=${CALLBACK_KEY}`);
  });

  it('keeps messages PENDING while no gateway is configured and says so on /health; a receipt is worded in the customer’s language when sent', async () => {
    // a second instance on the same database, without the gateway's settings
    const bare = await startInstance({ now: new Date('2026-03-10T08:00:00Z') });
    const bareOperator = await bare.token(Role.OPERATOR);
    const c = await registerCustomer(bare, dealid);
    await bare.http.post('/finance/customers/preferences').set('x-access-token', bareOperator).send({ customerid: c.customerid, language: 'sw', smsoptout: true }).expect(200);
    await bare.http.post('/finance/payments/load').set('x-access-token', bareOperator).send({ customerid: c.customerid, amount: 45000, reference: `P-${Math.random()}`, narration: 'cash' }).expect(201);
    expect(await bare.app.get(SmsDeliveryWorker).drain()).toBe(0);
    expect((await bare.http.get('/health').expect(200)).body).toMatchObject({ status: 'ok', sms: 'not configured' });
    const receipt = 'Tumepokea malipo yako ya UGX 45,000, asante. Salio: UGX 495,000. Kifaa chako kimelipiwa hadi 9 Aprili 2026.';
    const waiting = await messagesOf(c.customerid);
    expect(waiting.map((m) => `${m.kind}:${m.status}:${m.attempts}`)).toEqual(['REGISTERED:PENDING:0', 'PAYMENT_RECEIVED:PENDING:0']);
    // stored as figures, listed worded in the customer's language (the opt-out concerns reminders only)
    expect(waiting[1]).toMatchObject({ language: 'sw', encoding: 'GSM-7', segments: 1, text: receipt });
    const receiptRow = `SELECT language, text, encoding, segments, amount, balance, paid_up_to FROM sms_messages WHERE customer_id = $1 AND kind = 'PAYMENT_RECEIVED'`;
    expect(await t.db.query(receiptRow, [c.customerid])).toEqual([{ language: null, text: null, encoding: null, segments: null, amount: '45000.00', balance: '495000.00', paid_up_to: '2026-04-09' }]);
    expect(sms.sentTo(c.telephone)).toEqual([]);
    // an instance with the gateway sends them, once, the receipt worded and stored as sent
    await settle();
    await settle();
    expect(sms.sentTo(c.telephone).map((m) => m.message)).toEqual([expect.stringMatching(/^Welcome!/), receipt]);
    expect(await t.db.query(receiptRow, [c.customerid])).toEqual([{ language: 'sw', text: receipt, encoding: 'GSM-7', segments: 1, amount: '45000.00', balance: '495000.00', paid_up_to: '2026-04-09' }]);
  });

  it('sends at most SMS_RATE_PER_MINUTE messages in a minute of the clock, the rest after it', async () => {
    await settle(); // nothing left over from the other tests
    const capped = await startInstance({ now: new Date('2026-03-10T09:00:00Z'), env: { ...smsEnv(sms.url), SMS_RATE_PER_MINUTE: '3' } });
    const c = await registerCustomer(capped, dealid);
    for (let i = 1; i <= 4; i++) {
      await capped.http.post('/finance/messages/send').set('x-access-token', await capped.token(Role.OPERATOR)).send({ customerid: c.customerid, text: `Burst ${i}` }).expect(201);
    }
    const cappedWorker = capped.app.get(SmsDeliveryWorker);
    expect(await cappedWorker.drain()).toBe(3);
    capped.clock.set(new Date('2026-03-10T09:00:59Z'));
    expect(await cappedWorker.drain()).toBe(0);
    expect(sms.sentTo(c.telephone)).toHaveLength(3);
    capped.clock.set(new Date('2026-03-10T09:01:00Z'));
    expect(await cappedWorker.drain()).toBe(2);
    expect(sms.sentTo(c.telephone).map((m) => m.message)).toEqual([expect.stringMatching(/^Welcome!/), 'Burst 1', 'Burst 2', 'Burst 3', 'Burst 4']);
  });

  it('sends an operator’s own message, lists by customer and status, and refuses what it cannot send', async () => {
    const c = await registerCustomer(t, dealid);
    const res = await post('/finance/messages/send', { customerid: c.customerid, text: 'Habari! Fundi atakuja Ijumaa – karibu.' }).expect(201);
    expect(res.body).toMatchObject({ kind: 'OPERATOR', status: 'PENDING', encoding: 'UCS-2', segments: 1, customerid: c.customerid });
    await post('/finance/messages/send', { customerid: c.customerid, text: 'x'.repeat(459) }).expect(201);
    expect((await post('/finance/messages/send', { customerid: c.customerid, text: 'x'.repeat(460) }).expect(400)).body.message).toMatch(/text/);
    await post('/finance/messages/send', { customerid: 999999, text: 'hello' }).expect(404);
    await post('/finance/customers/preferences', { customerid: 999999, language: 'en', smsoptout: false }).expect(404);
    await post('/finance/customers/preferences', { customerid: c.customerid, language: 'fr', smsoptout: 'no' }).expect(400);
    await t.http.get('/finance/messages?customerid=999999').set('x-access-token', operator).expect(404);
    await settle();
    const list = await messagesOf(c.customerid);
    expect(list.map((m) => `${m.kind}:${m.segments}`)).toEqual(['REGISTERED:2', 'OPERATOR:1', 'OPERATOR:3']);
    expect(sms.sentTo(c.telephone).map((m) => m.message)).toContain('Habari! Fundi atakuja Ijumaa – karibu.');
    const pending = (await t.http.get(`/finance/messages?customerid=${c.customerid}&status=PENDING`).set('x-access-token', operator).expect(200)).body;
    expect(pending).toEqual({ items: [], total: 0, page: 1, limit: 20 });
    expect((await t.http.get('/health').expect(200)).body).toMatchObject({ sms: 'configured' });
  });

  it('reads a customer’s preferences: the defaults until set, then what was set', async () => {
    const c = await registerCustomer(t, dealid);
    const read = (customerid: number | string, token = operator) => t.http.get(`/finance/customers/preferences?customerid=${customerid}`).set('x-access-token', token);
    expect((await read(c.customerid).expect(200)).body).toEqual({ customerid: c.customerid, language: 'en', smsoptout: false });
    await post('/finance/customers/preferences', { customerid: c.customerid, language: 'sw', smsoptout: true }).expect(200);
    expect((await read(c.customerid, await t.token(Role.COLLECTOR)).expect(200)).body).toEqual({ customerid: c.customerid, language: 'sw', smsoptout: true });
    await read(999999).expect(404);
    expect((await read('x').expect(400)).body.message).toMatch(/^customerid /);
    await t.http.get('/finance/customers/preferences').set('x-access-token', operator).expect(400);
    await t.http.get(`/finance/customers/preferences?customerid=${c.customerid}`).expect(401);
    await read(c.customerid, provider).expect(403);
  });
});
