import { Role } from '../src/common/auth/role.js';
import { ProviderSimulator, startProviderSimulator } from '../tools/simulators/provider-simulator.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('Mobile money', () => {
  let t: TestApp;
  let sim: ProviderSimulator;
  let provider: string;
  let operator: string;
  let dealid: number;
  beforeAll(async () => {
    sim = await startProviderSimulator({ apiKey: 'test-provider-key' });
    t = await startTestApp({ now: new Date('2026-03-10T08:00:00Z'), env: { MOBILE_MONEY_API_URL: sim.url, MOBILE_MONEY_API_KEY: 'test-provider-key' } });
    provider = await t.token(Role.PROVIDER);
    operator = await t.token(Role.OPERATOR);
    dealid = (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
  });
  afterAll(async () => {
    try {
      await expectLedgerConsistent(t);
    } finally {
      await t.close();
      await sim.close();
    }
  });
  beforeEach(() => sim.reset());

  let n = 0;
  const txid = () => `MP${Date.now()}.${++n}`;
  const callback = (transaction: object, token = provider) => t.http.post('/finance/amlogs/callback').set('x-access-token', token).send({ transaction });
  const paymentsFor = async (id: string) => (await t.db.query('SELECT count(*)::int AS n FROM payments WHERE reference = $1', [id]))[0].n as number;
  const dealOf = async (customerid: number) => (await t.http.get(`/finance/customers/${customerid}`).set('x-access-token', operator)).body.deal;

  describe('POST /finance/amlogs/callback', () => {
    it('applies a payment whose tag is a customer’s PAYG code', async () => {
      const c = await registerCustomer(t, dealid);
      const id = txid();
      const res = await callback({ id, amount: 45000, tag: c.payg }).expect(200);
      expect(res.body).toEqual({ message: 'Payment applied.', status: 'APPLIED', customerid: c.customerid });
      expect(await dealOf(c.customerid)).toMatchObject({ status: 'UNLOCKED', amountpaid: 105000 });
      const [p] = await t.db.query('SELECT type, amount FROM payments WHERE reference = $1', [id]);
      expect(p).toEqual({ type: 'MOBILE_MONEY', amount: '45000.00' });
    });

    it('keeps an unknown tag as unmatched', async () => {
      const res = await callback({ id: txid(), amount: 1000, tag: 'NOBODY-HAS-THIS' }).expect(200);
      expect(res.body).toMatchObject({ status: 'UNMATCHED' });
      expect(res.body.message).toContain('NOBODY-HAS-THIS');
    });

    it('answers DUPLICATE for the same id and amount, 409 for the same id with another amount, crediting once', async () => {
      const c = await registerCustomer(t, dealid);
      const id = txid();
      await callback({ id, amount: 5000, tag: c.payg }).expect(200);
      const again = await callback({ id, amount: 5000, tag: c.payg }).expect(200);
      expect(again.body).toMatchObject({ status: 'DUPLICATE', customerid: c.customerid });
      const other = await callback({ id, amount: 6000, tag: c.payg }).expect(409);
      expect(other.body).toEqual({ message: `Transaction ${id} was already received with amount 5000.00, not 6000.00.` });
      expect(await paymentsFor(id)).toBe(1);
      expect((await dealOf(c.customerid)).amountpaid).toBe(65000);
    });

    it('credits 25 concurrent copies of one notification exactly once', async () => {
      const c = await registerCustomer(t, dealid);
      const id = txid();
      const results = await Promise.all(Array.from({ length: 25 }, () => callback({ id, amount: 45000, tag: c.payg })));
      expect(results.map((r) => r.status)).toEqual(Array(25).fill(200));
      const statuses = results.map((r) => r.body.status).sort();
      expect(statuses.filter((s) => s === 'APPLIED')).toHaveLength(1);
      expect(statuses.filter((s) => s === 'DUPLICATE')).toHaveLength(24);
      expect(await paymentsFor(id)).toBe(1);
      expect((await dealOf(c.customerid)).amountpaid).toBe(105000);
    });

    it('credits a transaction id that equals an operator’s receipt: references live in one namespace per source', async () => {
      const c = await registerCustomer(t, dealid);
      const id = txid();
      await t.http.post('/finance/payments/load').set('x-access-token', operator).send({ customerid: c.customerid, amount: 3000, reference: id, narration: 'receipt' }).expect(201);
      const res = await callback({ id, amount: 3000, tag: c.payg }).expect(200);
      expect(res.body.status).toBe('APPLIED');
      expect(await paymentsFor(id)).toBe(2);
    });

    it('answers 400 for a malformed notification and stores nothing', async () => {
      for (const bad of [{}, { id: 'x' }, { id: 'x', amount: -1, tag: 'T' }, { id: '', amount: 1, tag: 'T' }, { id: 'x', amount: 1.001, tag: 'T' }]) {
        const res = await callback(bad).expect(400);
        expect(res.body.message).toMatch(/transaction/);
      }
      await t.http.post('/finance/amlogs/callback').set('x-access-token', provider).send({}).expect(400);
      await t.http.post('/finance/amlogs/callback').set('x-access-token', provider).send({ transaction: 'x' }).expect(400);
      expect((await t.db.query(`SELECT count(*)::int AS n FROM mobile_money_transactions WHERE id = 'x'`))[0].n).toBe(0);
    });

    it('is for PROVIDER and ADMIN only', async () => {
      await callback({ id: txid(), amount: 1, tag: 'T' }, operator).expect(403);
      await callback({ id: txid(), amount: 1, tag: 'T' }, await t.token(Role.COLLECTOR)).expect(403);
      await callback({ id: txid(), amount: 1, tag: 'T' }, await t.token(Role.ADMIN)).expect(200);
      const none = await t.http.post('/finance/amlogs/callback').send({ transaction: { id: 'x', amount: 1, tag: 'T' } }).expect(401);
      expect(none.body).toEqual({ message: 'No token provided.' });
    });
  });

  describe('suspense: unmatched and assign', () => {
    it('lists unmatched payments and assigns one to a customer; 409 once applied; 404 unknown', async () => {
      const c = await registerCustomer(t, dealid);
      const id = txid();
      await callback({ id, amount: 45000, tag: 'TYPO-PAYG' }).expect(200);
      const list = await t.http.get('/finance/amlogs/unmatched?limit=100').set('x-access-token', operator).expect(200);
      expect(list.body.items).toContainEqual({ transactionid: id, amount: 45000, tag: 'TYPO-PAYG', source: 'CALLBACK', status: 'UNMATCHED', reason: null, receivedat: expect.any(String) });
      const res = await t.http.post('/finance/amlogs/assign').set('x-access-token', operator).send({ transactionid: id, customerid: c.customerid }).expect(200);
      expect(res.body).toMatchObject({ message: 'Payment applied.', transactionid: id, customerid: c.customerid, deal: { status: 'UNLOCKED', amountpaid: 105000 } });
      const again = await t.http.post('/finance/amlogs/assign').set('x-access-token', operator).send({ transactionid: id, customerid: c.customerid }).expect(409);
      expect(again.body).toEqual({ message: `Transaction ${id} is already applied.` });
      await t.http.post('/finance/amlogs/assign').set('x-access-token', operator).send({ transactionid: 'NO-SUCH-TX', customerid: c.customerid }).expect(404);
      const other = txid();
      await callback({ id: other, amount: 10, tag: 'TYPO-2' }).expect(200);
      await t.http.post('/finance/amlogs/assign').set('x-access-token', operator).send({ transactionid: other, customerid: 999999 }).expect(404);
      await t.http.post('/finance/amlogs/assign').set('x-access-token', await t.token(Role.COLLECTOR)).send({ transactionid: other, customerid: c.customerid }).expect(403);
      await t.http.get('/finance/amlogs/unmatched').set('x-access-token', provider).expect(403);
      expect(await paymentsFor(id)).toBe(1);
    });

    it('keeps a payment that came without a PAYG code as unmatched, for an operator to assign', async () => {
      const c = await registerCustomer(t, dealid);
      const [blank, spaces, looked] = [txid(), txid(), txid()];
      for (const [id, tag] of [[blank, ''], [spaces, '   ']]) {
        const res = await callback({ id, amount: 45000, tag }).expect(200);
        expect(res.body).toEqual({ message: 'The payer gave no PAYG code; the payment is kept unmatched.', status: 'UNMATCHED' });
      }
      // a waiting payment that has become matchable is not touched by reconciling the blank one
      const waiting = txid();
      await callback({ id: waiting, amount: 700, tag: `LATER-${waiting}` }).expect(200);
      await t.db.query('UPDATE customers SET payg = $1 WHERE id = $2', [`LATER-${waiting}`, c.customerid]);
      const recon = await t.http.post('/finance/payments/recon').set('x-access-token', operator).send({ reference: blank }).expect(200);
      expect(recon.body).toEqual({ reference: blank, status: 'UNMATCHED', message: 'The payer gave no PAYG code: assign it to a customer.' });
      expect(await paymentsFor(waiting)).toBe(0);
      await t.http.post('/finance/amlogs/assign').set('x-access-token', operator).send({ transactionid: waiting, customerid: c.customerid }).expect(200);
      // a provider listing may carry no tag at all for such a payment
      sim.addTransaction({ id: looked, amount: 500, tag: '', status: 'SUCCESS', timestamp: '2026-03-09T10:00:00Z' });
      const lookup = await t.http.post('/finance/amlogs/lookup').set('x-access-token', operator).send({ startdate: '2026-03-09', enddate: '2026-03-09' }).expect(200);
      expect(lookup.body).toMatchObject({ checked: 1, unmatched: 1, applied: 0 });
      const list = (await t.http.get('/finance/amlogs/unmatched?limit=100').set('x-access-token', operator).expect(200)).body.items;
      for (const id of [blank, spaces, looked]) expect(list).toContainEqual(expect.objectContaining({ transactionid: id, tag: '' }));
      await t.http.post('/finance/amlogs/assign').set('x-access-token', operator).send({ transactionid: blank, customerid: c.customerid }).expect(200);
      expect(await paymentsFor(blank)).toBe(1);
      expect(await paymentsFor(spaces)).toBe(0);
      expect((await dealOf(c.customerid)).amountpaid).toBe(105700);
    });
  });

  describe('provider look-up and reconciliation (against the simulator)', () => {
    it('applies successful transactions not yet recorded, only once, and counts what it saw', async () => {
      const c = await registerCustomer(t, dealid);
      const seen = txid();
      await callback({ id: seen, amount: 1000, tag: c.payg }).expect(200);
      sim.addTransaction({ id: seen, amount: 1000, tag: c.payg, status: 'SUCCESS', timestamp: '2026-03-09T10:00:00Z' });
      const missed = txid();
      sim.addTransaction({ id: missed, amount: 45000, tag: c.payg, status: 'SUCCESS', timestamp: '2026-03-09T11:00:00Z' });
      sim.addTransaction({ id: txid(), amount: 45000, tag: c.payg, status: 'FAILED', timestamp: '2026-03-09T12:00:00Z' });
      sim.addTransaction({ id: txid(), amount: 45000, tag: c.payg, status: 'PENDING', timestamp: '2026-03-09T12:00:00Z' });
      const stranger = txid();
      sim.addTransaction({ id: stranger, amount: 700, tag: 'NOT-A-CUSTOMER', status: 'SUCCESS', timestamp: '2026-03-09T13:00:00Z' });
      sim.addTransaction({ id: txid(), amount: 45000, tag: c.payg, status: 'SUCCESS', timestamp: '2026-02-01T13:00:00Z' });
      const res = await t.http.post('/finance/amlogs/lookup').set('x-access-token', operator).send({ startdate: '2026-03-08', enddate: '2026-03-10' }).expect(200);
      expect(res.body).toEqual({ checked: 5, applied: 1, duplicates: 1, unmatched: 1 });
      expect(await paymentsFor(missed)).toBe(1);
      expect((await dealOf(c.customerid)).amountpaid).toBe(106000);
      const again = await t.http.post('/finance/amlogs/lookup').set('x-access-token', operator).send({ startdate: '2026-03-08', enddate: '2026-03-10' }).expect(200);
      expect(again.body).toEqual({ checked: 5, applied: 0, duplicates: 3, unmatched: 0 });
      expect((await dealOf(c.customerid)).amountpaid).toBe(106000);
    });

    it('knows a transaction by one id whether it came by callback, look-up or recon: spaces around it do not make a second payment', async () => {
      const c = await registerCustomer(t, dealid);
      const [first, second] = [txid(), txid()];
      expect((await callback({ id: `${first} `, amount: 1000, tag: c.payg }).expect(200)).body.status).toBe('APPLIED');
      sim.addTransaction({ id: `${first} `, amount: 1000, tag: c.payg, status: 'SUCCESS', timestamp: '2026-03-09T10:00:00Z' });
      sim.addTransaction({ id: ` ${second}\u00a0`, amount: 2000, tag: c.payg, status: 'SUCCESS', timestamp: '2026-03-09T11:00:00Z' });
      const res = await t.http.post('/finance/amlogs/lookup').set('x-access-token', operator).send({ startdate: '2026-03-09', enddate: '2026-03-09' }).expect(200);
      expect(res.body).toEqual({ checked: 2, applied: 1, duplicates: 1, unmatched: 0 });
      expect(await paymentsFor(first)).toBe(1);
      expect(await paymentsFor(second)).toBe(1);
      const recon = await t.http.post('/finance/payments/recon').set('x-access-token', operator).send({ reference: second }).expect(200);
      expect(recon.body.status).toBe('ALREADY_APPLIED');
      expect((await dealOf(c.customerid)).amountpaid).toBe(63000);
    });

    it('holds for an operator a listed payment above MAX_AMOUNT or finer than a cent, by look-up and by recon alike', async () => {
      const c = await registerCustomer(t, dealid);
      const [big, fine, bigRecon, fineRecon, tiny] = [txid(), txid(), txid(), txid(), txid()];
      sim.addTransaction({ id: big, amount: 2_000_000_000, tag: c.payg, status: 'SUCCESS', timestamp: '2026-03-09T10:00:00Z' });
      sim.addTransaction({ id: fine, amount: 10.005, tag: c.payg, status: 'SUCCESS', timestamp: '2026-03-09T10:00:00Z' });
      sim.addTransaction({ id: tiny, amount: 0.001, tag: c.payg, status: 'SUCCESS', timestamp: '2026-03-09T10:00:00Z' });
      const res = await t.http.post('/finance/amlogs/lookup').set('x-access-token', operator).send({ startdate: '2026-03-09', enddate: '2026-03-09' }).expect(200);
      expect(res.body).toEqual({ checked: 3, applied: 0, duplicates: 0, unmatched: 2 });
      sim.addTransaction({ id: bigRecon, amount: 2_000_000_000, tag: c.payg, status: 'SUCCESS' });
      sim.addTransaction({ id: fineRecon, amount: 10.019, tag: c.payg, status: 'SUCCESS' });
      const recon = (reference: string) => t.http.post('/finance/payments/recon').set('x-access-token', operator).send({ reference }).expect(200);
      expect((await recon(bigRecon)).body).toEqual({
        reference: bigRecon,
        status: 'UNMATCHED',
        message: 'Kept for an operator to assign: Amount 2000000000 is above the 1000000000 credited automatically: an operator must check it.',
      });
      expect((await recon(fineRecon)).body).toMatchObject({ status: 'UNMATCHED' });
      expect((await recon(tiny)).body).toEqual({ reference: tiny, status: 'FAILED', message: 'The provider reports it SUCCESS, but its amount 0.001 is less than a cent: nothing to credit.' });
      const held = await t.db.query(`SELECT id, amount, status, source FROM mobile_money_transactions WHERE id = ANY($1) ORDER BY id`, [[big, fine, bigRecon, fineRecon, tiny]]);
      expect(held).toEqual(
        [
          { id: big, amount: '2000000000.00', status: 'HELD', source: 'LOOKUP' },
          { id: fine, amount: '10.00', status: 'HELD', source: 'LOOKUP' },
          { id: bigRecon, amount: '2000000000.00', status: 'HELD', source: 'RECON' },
          { id: fineRecon, amount: '10.01', status: 'HELD', source: 'RECON' },
        ].sort((a, b) => (a.id < b.id ? -1 : 1)),
      );
      // an operator decides: assigning credits what was kept
      await t.http.post('/finance/amlogs/assign').set('x-access-token', operator).send({ transactionid: fine, customerid: c.customerid }).expect(200);
      expect((await dealOf(c.customerid)).amountpaid).toBe(60010);
      expect((await recon(bigRecon)).body.status).toBe('UNMATCHED');
    });

    it('answers 502 when the provider is down and applies nothing', async () => {
      const c = await registerCustomer(t, dealid);
      const id = txid();
      sim.addTransaction({ id, amount: 45000, tag: c.payg, status: 'SUCCESS', timestamp: '2026-03-09T10:00:00Z' });
      sim.setDown(true);
      const res = await t.http.post('/finance/amlogs/lookup').set('x-access-token', operator).send({ startdate: '2026-03-08', enddate: '2026-03-10' }).expect(502);
      expect(res.body).toEqual({ message: 'Mobile-money provider failed: HTTP 503.' });
      expect(await paymentsFor(id)).toBe(0);
      const recon = await t.http.post('/finance/payments/recon').set('x-access-token', operator).send({ reference: id }).expect(502);
      expect(recon.body.message).toContain('Mobile-money provider failed');
    });

    it('validates the date range', async () => {
      const post = (body: object) => t.http.post('/finance/amlogs/lookup').set('x-access-token', operator).send(body);
      expect((await post({ startdate: '2026-03-10', enddate: '2026-03-01' }).expect(400)).body).toEqual({ message: 'startdate must not be after enddate' });
      expect((await post({ startdate: '2026-01-01', enddate: '2026-03-01' }).expect(400)).body).toEqual({ message: 'the range must not span more than 31 days' });
      expect((await post({ startdate: '2026-02-30', enddate: '2026-03-01' }).expect(400)).body.message).toContain('startdate must be a real calendar date');
      expect((await post({ startdate: '10/03/2026' }).expect(400)).body.message).toContain('enddate');
      expect(sim.requests).toBe(0);
    });

    it('reconciles one reference: local first, then the provider', async () => {
      const c = await registerCustomer(t, dealid);
      const recon = (reference: string) => t.http.post('/finance/payments/recon').set('x-access-token', operator).send({ reference }).expect(200);
      const applied = txid();
      await callback({ id: applied, amount: 100, tag: c.payg }).expect(200);
      expect((await recon(applied)).body).toMatchObject({ reference: applied, status: 'ALREADY_APPLIED' });
      expect(sim.requests).toBe(0);
      const remote = txid();
      sim.addTransaction({ id: remote, amount: 200, tag: c.payg, status: 'SUCCESS' });
      expect((await recon(remote)).body).toMatchObject({ reference: remote, status: 'APPLIED' });
      expect(await paymentsFor(remote)).toBe(1);
      expect((await recon(remote)).body.status).toBe('ALREADY_APPLIED');
      expect((await recon('UNKNOWN-REF')).body).toMatchObject({ status: 'NOT_FOUND' });
      const failed = txid();
      sim.addTransaction({ id: failed, amount: 200, tag: c.payg, status: 'FAILED' });
      expect((await recon(failed)).body).toMatchObject({ status: 'FAILED' });
      const orphan = txid();
      sim.addTransaction({ id: orphan, amount: 300, tag: 'ORPHAN-TAG', status: 'SUCCESS' });
      expect((await recon(orphan)).body).toMatchObject({ status: 'UNMATCHED' });
      expect((await recon(orphan)).body).toMatchObject({ status: 'UNMATCHED' });
      await t.http.post('/finance/payments/recon').set('x-access-token', operator).send({}).expect(400);
      await t.http.post('/finance/payments/recon').set('x-access-token', await t.token(Role.COLLECTOR)).send({ reference: 'x' }).expect(403);
    });
  });
});

describe('Mobile money without a provider configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 503 naming the provider for look-up and for a reference it does not know', async () => {
    const operator = await t.token(Role.OPERATOR);
    const lookup = await t.http.post('/finance/amlogs/lookup').set('x-access-token', operator).send({ startdate: '2026-03-01', enddate: '2026-03-02' }).expect(503);
    expect(lookup.body).toEqual({ message: 'Mobile-money provider is not configured (MOBILE_MONEY_API_URL).' });
    await t.http.post('/finance/payments/recon').set('x-access-token', operator).send({ reference: 'ANY' }).expect(503);
  });
});
