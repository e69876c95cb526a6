import { Role } from '../src/common/auth/role.js';
import { addDays } from '../src/common/time/business-date.js';
import { ContractsService } from '../src/modules/contracts/application/contracts.service.js';
import { MatchWaitingJob } from '../src/modules/payments/application/lookup.job.js';
import { createDeal, registerCustomer, registrationBody } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * Issue 14: the paths on which money was lost or a request answered 500, each reproduced as it was
 * found, and the limits on free credit (DESIGN parts 5, 6, 10).
 */
describe('Payments that are never lost', () => {
  let t: TestApp;
  let provider: string;
  let operator: string;
  let dealid: number;
  beforeAll(async () => {
    t = await startTestApp({ now: new Date('2026-03-10T08:00:00Z') });
    provider = await t.token(Role.PROVIDER);
    operator = await t.token(Role.OPERATOR);
    dealid = (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
  });
  afterAll(async () => {
    try {
      await expectLedgerConsistent(t);
    } finally {
      await t.close();
    }
  });

  let n = 0;
  const txid = (prefix = 'MP') => `${prefix}${Date.now()}.${++n}`;
  const callback = (body: object) => t.http.post('/finance/amlogs/callback').set('x-access-token', provider).send(body);
  const load = (body: object) => t.http.post('/finance/payments/load').set('x-access-token', operator).send(body);
  const dealOf = async (customerid: number) => (await t.http.get(`/finance/customers/${customerid}`).set('x-access-token', operator)).body.deal;
  const notification = async (id: string) => (await t.db.query('SELECT status, customer_id, reason, raw FROM mobile_money_transactions WHERE id = $1', [id]))[0];
  const ledgerRows = async (reference: string) => t.db.query('SELECT customer_id, type, amount FROM payments WHERE reference = $1 ORDER BY id', [reference]);
  const waiting = async () => (await t.http.get('/finance/amlogs/unmatched?limit=100').set('x-access-token', operator).expect(200)).body.items as Array<Record<string, unknown>>;

  describe('references live in one namespace per source', () => {
    it('credits customer B when the transaction id equals customer A’s cash receipt', async () => {
      const a = await registerCustomer(t, dealid);
      const b = await registerCustomer(t, dealid);
      const id = txid('MP-COLLIDE-');
      await load({ customerid: a.customerid, amount: 3000, reference: id, narration: 'cash' }).expect(201);
      const res = await callback({ transaction: { id, amount: 45000, tag: b.payg } }).expect(200);
      expect(res.body).toEqual({ message: 'Payment applied.', status: 'APPLIED', customerid: b.customerid });
      expect(await dealOf(b.customerid)).toMatchObject({ amountpaid: 105000, status: 'UNLOCKED' });
      expect(await ledgerRows(id)).toEqual([
        { customer_id: a.customerid, type: 'MANUAL', amount: '3000.00' },
        { customer_id: b.customerid, type: 'MOBILE_MONEY', amount: '45000.00' },
      ]);
      const recon = await t.http.post('/finance/payments/recon').set('x-access-token', operator).send({ reference: id }).expect(200);
      expect(recon.body).toMatchObject({ reference: id, status: 'ALREADY_APPLIED' });
    });

    it('credits a transaction id that equals the service’s own deposit reference', async () => {
      const a = await registerCustomer(t, dealid);
      const b = await registerCustomer(t, dealid);
      const id = `DEPOSIT-${a.customerid}`;
      const res = await callback({ transaction: { id, amount: 45000, tag: b.payg } }).expect(200);
      expect(res.body.status).toBe('APPLIED');
      expect(await ledgerRows(id)).toEqual([
        { customer_id: a.customerid, type: 'DEPOSIT', amount: '60000.00' },
        { customer_id: b.customerid, type: 'MOBILE_MONEY', amount: '45000.00' },
      ]);
    });

    it('lets a registration through after an operator used the next deposit reference as a receipt', async () => {
      const a = await registerCustomer(t, dealid);
      const [{ next }] = await t.db.query(`SELECT last_value + 1 AS next FROM customers_id_seq`);
      await load({ customerid: a.customerid, amount: 100, reference: `DEPOSIT-${next}`, narration: 'receipt named like a deposit' }).expect(201);
      const res = await t.http.post('/finance/customers/register').set('x-access-token', operator).send(registrationBody(dealid));
      expect(res.status).toBe(201);
      expect(res.body.customerid).toBe(Number(next));
    });

    it('says so in the document: a receipt is unique among operator receipts, not across all payments', async () => {
      const doc = (await t.http.get('/docs-json').expect(200)).body;
      const reference = doc.components.schemas.LoadPaymentRequest.properties.reference.description as string;
      expect(reference).not.toMatch(/across all payments/);
      expect(reference).toContain('Unique among operator receipts');
    });

    it('still refuses an operator receipt used twice (409) and changes nothing', async () => {
      const a = await registerCustomer(t, dealid);
      const reference = txid('CASH-');
      await load({ customerid: a.customerid, amount: 100, reference, narration: 'cash' }).expect(201);
      const res = await load({ customerid: a.customerid, amount: 100, reference, narration: 'cash again' }).expect(409);
      expect(res.body).toEqual({ message: `Reference ${reference} is already used by another payment.` });
      expect(await dealOf(a.customerid)).toMatchObject({ amountpaid: 60100 });
    });
  });

  describe('values at the limits the validator accepts', () => {
    it('credits a 255-character transaction id that unlocks the device, and names the payment in the command by id', async () => {
      const c = await registerCustomer(t, dealid);
      const id = `MP${'9'.repeat(253)}`;
      const res = await callback({ transaction: { id, amount: 45000, tag: c.payg } }).expect(200);
      expect(res.body.status).toBe('APPLIED');
      const [command] = await t.db.query(`SELECT action, reason FROM device_commands WHERE customer_id = $1 ORDER BY id DESC LIMIT 1`, [c.customerid]);
      expect(command.action).toBe('UNLOCK');
      expect(command.reason).toMatch(/^payment #\d+$/);
    });

    it('loads a 255-character reference that unlocks the device', async () => {
      const c = await registerCustomer(t, dealid);
      const res = await load({ customerid: c.customerid, amount: 45000, reference: 'R'.repeat(255), narration: 'N'.repeat(255) }).expect(201);
      expect(res.body.deal.status).toBe('UNLOCKED');
    });

    it('records a payment of 999,999,999: paid off, the excess overpaid, the date at the end of the term', async () => {
      const c = await registerCustomer(t, dealid);
      const res = await load({ customerid: c.customerid, amount: 999_999_999, reference: txid('BIG-'), narration: 'overpayment' }).expect(201);
      expect(res.body.deal).toMatchObject({ status: 'PAID_OFF', balance: 0, overpaid: 999_999_999 + 60000 - 600000, nextpaymentdate: addDays('2026-03-10', 360) });
      const again = await callback({ transaction: { id: txid(), amount: 1_000_000_000, tag: c.payg } }).expect(200);
      expect(again.body.status).toBe('APPLIED');
      expect(await dealOf(c.customerid)).toMatchObject({ status: 'PAID_OFF', nextpaymentdate: addDays('2026-03-10', 360) });
    });
  });

  describe('a notification is durable before anything can fail', () => {
    it('keeps the payment as HELD with the reason when the ledger refuses it, answers 200, and lets an operator assign it later', async () => {
      const c = await registerCustomer(t, dealid);
      const id = txid('MP-FAIL-');
      // a real failure inside crediting: the database refuses this one ledger row
      await t.db.query(`
        CREATE FUNCTION refuse_test_payment() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.reference LIKE 'MP-FAIL-%' THEN RAISE EXCEPTION 'injected ledger failure'; END IF;
          RETURN NEW;
        END $$`);
      await t.db.query(`CREATE TRIGGER refuse_test_payment BEFORE INSERT ON payments FOR EACH ROW EXECUTE FUNCTION refuse_test_payment()`);
      try {
        const res = await callback({ transaction: { id, amount: 45000, tag: c.payg } }).expect(200);
        expect(res.body).toEqual({ message: `Transaction ${id} could not be credited automatically; it is kept for an operator to assign.`, status: 'UNMATCHED' });
        expect(await notification(id)).toMatchObject({ status: 'HELD', customer_id: null, reason: expect.stringContaining('injected ledger failure') });
        expect(await waiting()).toContainEqual(expect.objectContaining({ transactionid: id, status: 'HELD', reason: expect.stringContaining('injected ledger failure') }));
        // a copy of it changes nothing
        expect((await callback({ transaction: { id, amount: 45000, tag: c.payg } }).expect(200)).body.status).toBe('DUPLICATE');
        expect(await dealOf(c.customerid)).toMatchObject({ amountpaid: 60000, status: 'LOCKED' });
        const recon = await t.http.post('/finance/payments/recon').set('x-access-token', operator).send({ reference: id }).expect(200);
        expect(recon.body).toMatchObject({ status: 'UNMATCHED', message: expect.stringContaining('Kept for an operator') });
      } finally {
        await t.db.query('DROP TRIGGER refuse_test_payment ON payments');
        await t.db.query('DROP FUNCTION refuse_test_payment()');
      }
      const assigned = await t.http.post('/finance/amlogs/assign').set('x-access-token', operator).send({ transactionid: id, customerid: c.customerid }).expect(200);
      expect(assigned.body.deal).toMatchObject({ amountpaid: 105000, status: 'UNLOCKED' });
      expect(await notification(id)).toMatchObject({ status: 'APPLIED', customer_id: c.customerid });
    });

    it('keeps the payment when the crediting code itself throws (a bug), and answers 200', async () => {
      const c = await registerCustomer(t, dealid);
      const id = txid();
      const dealState = t.app.get(ContractsService);
      const credit = dealState.credit.bind(dealState);
      dealState.credit = () => Promise.reject(new TypeError('Cannot read properties of undefined'));
      try {
        const res = await callback({ transaction: { id, amount: 45000, tag: c.payg } }).expect(200);
        expect(res.body.status).toBe('UNMATCHED');
      } finally {
        dealState.credit = credit;
      }
      expect(await notification(id)).toMatchObject({ status: 'HELD', reason: expect.stringContaining('Cannot read properties of undefined') });
      expect(await ledgerRows(id)).toEqual([]);
    });
  });

  describe('matching', () => {
    it('matches a tag to a PAYG code ignoring letter case and surrounding spaces', async () => {
      const c = await registerCustomer(t, dealid);
      const res = await callback({ transaction: { id: txid(), amount: 45000, tag: `  ${c.payg.toLowerCase()} ` } }).expect(200);
      expect(res.body).toMatchObject({ status: 'APPLIED', customerid: c.customerid });
    });

    it('matches a tag typed in full-width characters to the PAYG code it spells', async () => {
      const c = await registerCustomer(t, dealid);
      const wide = [...c.payg].map((ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0)).join('');
      const res = await callback({ transaction: { id: txid(), amount: 45000, tag: wide } }).expect(200);
      expect(res.body).toMatchObject({ status: 'APPLIED', customerid: c.customerid });
    });

    it('applies a payment that arrived before its customer was registered, at registration', async () => {
      const body = registrationBody(dealid);
      const id = txid();
      expect((await callback({ transaction: { id, amount: 45000, tag: body.payg } }).expect(200)).body.status).toBe('UNMATCHED');
      const res = await t.http.post('/finance/customers/register').set('x-access-token', operator).send(body).expect(201);
      expect(await dealOf(res.body.customerid)).toMatchObject({ amountpaid: 105000, status: 'UNLOCKED' });
      expect(await notification(id)).toMatchObject({ status: 'APPLIED', customer_id: res.body.customerid });
      expect(await waiting()).not.toContainEqual(expect.objectContaining({ transactionid: id }));
    });

    it('credits payments that arrive while their customer is being registered: none stays unmatched', async () => {
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      for (let round = 0; round < 4; round++) {
        const body = registrationBody(dealid);
        const registering = t.http.post('/finance/customers/register').set('x-access-token', operator).send(body);
        const ids: string[] = [];
        const answers: Array<Promise<unknown>> = [registering.then((r) => r)];
        for (let i = 0; i < 15; i++) {
          const id = txid('RACE');
          ids.push(id);
          answers.push(callback({ transaction: { id, amount: 100, tag: body.payg } }).then((r) => expect(r.status).toBe(200)));
          await sleep(3);
        }
        const [registered] = (await Promise.all(answers)) as [{ status: number; body: { customerid: number } }];
        expect(registered.status).toBe(201);
        const left = await t.db.query(`SELECT id FROM mobile_money_transactions WHERE id = ANY($1) AND status <> 'APPLIED'`, [ids]);
        expect(left).toEqual([]);
        expect(await dealOf(registered.body.customerid)).toMatchObject({ amountpaid: 60000 + 15 * 100 });
      }
    });

    it('credits, in a matching round, a waiting payment whose code has since become a customer’s', async () => {
      // one that slipped between two commits (an import's codes are not locked one by one)
      const c = await registerCustomer(t, dealid);
      const id = txid('SLIPPED');
      await t.db.query(`INSERT INTO mobile_money_transactions (id, amount, tag, status, source) VALUES ($1, 45000, $2, 'UNMATCHED', 'CALLBACK')`, [id, c.payg.toLowerCase()]);
      expect(await t.app.get(MatchWaitingJob).run()).toBeGreaterThanOrEqual(1);
      expect(await notification(id)).toMatchObject({ status: 'APPLIED', customer_id: c.customerid });
      expect(await dealOf(c.customerid)).toMatchObject({ amountpaid: 105000, status: 'UNLOCKED' });
      expect(await t.app.get(MatchWaitingJob).run()).toBe(0);
    });

    it('ignores fields the provider adds, keeps the body as sent, and still validates the fields it uses', async () => {
      const c = await registerCustomer(t, dealid);
      const id = txid();
      const body = { transaction: { id, amount: 45000, tag: c.payg, msisdn: '+256772000111', timestamp: '2026-03-10T08:00:00Z' }, provider: { name: 'MTN', region: 'UG' } };
      const res = await callback(body).expect(200);
      expect(res.body.status).toBe('APPLIED');
      expect((await notification(id)).raw).toEqual(body);
      const bad = await callback({ transaction: { id: txid(), amount: -5, tag: c.payg, msisdn: 'x' } }).expect(400);
      expect(bad.body).toEqual({ message: 'transaction.amount must be a positive number' });
      expect((await callback({ transaction: { amount: 5, tag: c.payg }, extra: 1 }).expect(400)).body.message).toMatch(/transaction\.id/);
    });

    it('credits a notification whose added fields hold text PostgreSQL cannot store, keeping them as U+FFFD', async () => {
      const c = await registerCustomer(t, dealid);
      const id = txid();
      const body = { transaction: { id, amount: 1000, tag: c.payg, note: 'a\u0000b', ['k\ud800']: 'lone \udfff' }, provider: { trace: ['x\u0000'] } };
      expect((await callback(body).expect(200)).body).toMatchObject({ status: 'APPLIED', customerid: c.customerid });
      expect((await notification(id)).raw).toEqual({ transaction: { id, amount: 1000, tag: c.payg, note: 'a\ufffdb', ['k\ufffd']: 'lone \ufffd' }, provider: { trace: ['x\ufffd'] } });
      // the fields it uses are still refused such text
      expect((await callback({ transaction: { id: 'NUL\u0000ID', amount: 1000, tag: c.payg } }).expect(400)).body.message).toMatch(/transaction\.id/);
      expect((await callback({ transaction: { id: txid(), amount: 1000, tag: `${c.payg}\ud800` } }).expect(400)).body.message).toMatch(/transaction\.tag/);
      expect((await callback({ transaction: { id: txid(), amount: 1000, tag: c.payg }, deep: JSON.parse('['.repeat(100) + ']'.repeat(100)) }).expect(400)).body).toEqual({ message: 'Request is nested more than 32 levels deep.' });
    });
  });

  describe('limits on free credit', () => {
    it('grants at most BONUS_DAYS_MAX (90) bonus days in total, on both routes (409 beyond, nothing changed)', async () => {
      const c = await registerCustomer(t, dealid);
      await t.http.post('/finance/customers/bonus').set('x-access-token', operator).send({ customerid: c.customerid, days: 60 }).expect(200);
      await t.http.post('/finance/device/bonus-days').set('x-access-token', operator).send({ customerid: c.customerid, days: 30 }).expect(200);
      const refused = await t.http.post('/finance/device/bonus-days').set('x-access-token', operator).send({ customerid: c.customerid, days: 1 }).expect(409);
      expect(refused.body).toEqual({ message: `Customer ${c.customerid}'s deal has 90 bonus days; at most 90 may be granted in total (BONUS_DAYS_MAX).` });
      await t.http.post('/finance/customers/bonus').set('x-access-token', operator).send({ customerid: c.customerid, days: 365 }).expect(409);
      expect(await dealOf(c.customerid)).toMatchObject({ bonusdays: 90, nextpaymentdate: addDays('2026-03-10', 90) });
    });

    it('refuses a temporary unlock on a paid-off deal (409, nothing queued)', async () => {
      const c = await registerCustomer(t, dealid, { deposit: 600000 });
      const before = await t.db.query('SELECT count(*)::int AS n FROM device_commands WHERE customer_id = $1', [c.customerid]);
      const res = await t.http.post('/finance/device/unlock-temp').set('x-access-token', operator).send({ customerid: c.customerid, hours: 2 }).expect(409);
      expect(res.body).toEqual({ message: `Customer ${c.customerid}'s deal is paid off: the device is released for good, there is nothing to unlock.` });
      expect(await t.db.query('SELECT count(*)::int AS n FROM device_commands WHERE customer_id = $1', [c.customerid])).toEqual(before);
    });

    it('allows at most TEMP_UNLOCK_MAX_HOURS (72) of temporary unlock in any 30 days, so chained unlocks end', async () => {
      const c = await registerCustomer(t, dealid);
      const unlock = (hours: number) => t.http.post('/finance/device/unlock-temp').set('x-access-token', operator).send({ customerid: c.customerid, hours });
      const start = t.clock.now();
      try {
        await unlock(48).expect(200);
        t.clock.set(new Date(start.getTime() + 47 * 3_600_000));
        await unlock(24).expect(200);
        const refused = await unlock(1).expect(409);
        expect(refused.body).toEqual({ message: `Customer ${c.customerid}'s device was unlocked for 72 hours in the last 30 days; at most 72 hours are allowed (TEMP_UNLOCK_MAX_HOURS).` });
        // 30 days after the first grant its 48 hours no longer count
        t.clock.set(new Date(start.getTime() + 30 * 86_400_000 + 3_600_000));
        await unlock(48).expect(200);
        await unlock(1).expect(409);
      } finally {
        t.clock.set(start);
      }
    });
  });
});
