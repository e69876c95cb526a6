import { Role } from '../src/common/auth/role.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('Manual payments', () => {
  let t: TestApp;
  let operator: string;
  let dealid: number;
  beforeAll(async () => {
    t = await startTestApp({ now: new Date('2026-03-10T08:00:00Z') });
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

  let refs = 0;
  const load = (customerid: number, amount: unknown, over: object = {}, token = operator) =>
    t.http.post('/finance/payments/load').set('x-access-token', token).send({ customerid, amount, reference: `CASH-${Date.now()}-${++refs}`, narration: 'Cash at branch', ...over });

  it('records the payment and unlocks the device when it buys days past today (201, payment and deal)', async () => {
    const c = await registerCustomer(t, dealid);
    const res = await load(c.customerid, 45000, { reference: 'CASH-UNLOCK-1' }).expect(201);
    expect(res.body).toEqual({
      message: 'Payment recorded.',
      payment: { paymentid: expect.any(Number), customerid: c.customerid, amount: 45000, reference: 'CASH-UNLOCK-1', narration: 'Cash at branch', type: 'MANUAL', createdat: expect.any(String) },
      deal: expect.objectContaining({ status: 'UNLOCKED', amountpaid: 105000, balance: 495000, overpaid: 0, nextpaymentdate: '2026-04-09' }),
    });
  });

  it('keeps the device locked when the payment does not reach past today', async () => {
    const c = await registerCustomer(t, dealid);
    const res = await load(c.customerid, 1499.99).expect(201);
    expect(res.body.deal).toMatchObject({ status: 'LOCKED', nextpaymentdate: '2026-03-10', amountpaid: 61499.99 });
  });

  it('pays off at a zero balance and keeps the excess as overpaid', async () => {
    const c = await registerCustomer(t, dealid);
    const res = await load(c.customerid, 540100.5).expect(201);
    expect(res.body.deal).toMatchObject({ status: 'PAID_OFF', balance: 0, overpaid: 100.5, amountpaid: 600100.5 });
  });

  it('answers 409 for a used reference and changes nothing', async () => {
    const c = await registerCustomer(t, dealid);
    await load(c.customerid, 1000, { reference: 'CASH-DUP-1' }).expect(201);
    const res = await load(c.customerid, 2000, { reference: 'CASH-DUP-1' }).expect(409);
    expect(res.body).toEqual({ message: 'Reference CASH-DUP-1 is already used by another payment.' });
    const view = (await t.http.get(`/finance/customers/${c.customerid}`).set('x-access-token', operator)).body;
    expect(view.deal.amountpaid).toBe(61000);
  });

  it('answers 404 for an unknown customer and 400 for bad amounts', async () => {
    expect((await load(999999, 1000).expect(404)).body).toEqual({ message: 'Customer 999999 not found.' });
    const c = await registerCustomer(t, dealid);
    for (const bad of [0, -5, 1.234, '100', null, 1e10]) await load(c.customerid, bad).expect(400);
    const missing = await t.http.post('/finance/payments/load').set('x-access-token', operator).send({ customerid: c.customerid }).expect(400);
    for (const field of ['amount', 'reference', 'narration']) expect(missing.body.message).toContain(field);
  });

  it('loses nothing when two operators load on one deal at the same moment', async () => {
    const c = await registerCustomer(t, dealid);
    const second = (await t.user(Role.OPERATOR)).token;
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => load(c.customerid, 1000 + i, {}, i % 2 ? second : operator)));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
    const view = (await t.http.get(`/finance/customers/${c.customerid}`).set('x-access-token', operator)).body;
    const expected = 60000 + Array.from({ length: 12 }, (_, i) => 1000 + i).reduce((a, b) => a + b, 0);
    expect(view.deal.amountpaid).toBe(expected);
  });

  it('records the money on a repossessed deal but unlocks nothing', async () => {
    const c = await registerCustomer(t, dealid);
    await t.db.query(`UPDATE customer_deals SET status = 'REPOSSESSED' WHERE customer_id = $1`, [c.customerid]);
    const res = await load(c.customerid, 90000).expect(201);
    expect(res.body.deal).toMatchObject({ status: 'REPOSSESSED', amountpaid: 150000 });
  });

  it('lists recent payments newest first, at most limit; 404 unknown customer; limit 1–100', async () => {
    const c = await registerCustomer(t, dealid);
    await load(c.customerid, 1000, { reference: 'R-1' }).expect(201);
    await load(c.customerid, 2000, { reference: 'R-2' }).expect(201);
    const res = await t.http.post('/finance/payments/recent').set('x-access-token', await t.token(Role.COLLECTOR)).send({ customerid: c.customerid, limit: 2 }).expect(200);
    expect(res.body.map((p: { reference: string }) => p.reference)).toEqual(['R-2', 'R-1']);
    const all = await t.http.post('/finance/payments/recent').set('x-access-token', operator).send({ customerid: c.customerid, limit: 100 }).expect(200);
    expect(all.body.map((p: { type: string }) => p.type)).toEqual(['MANUAL', 'MANUAL', 'DEPOSIT']);
    await t.http.post('/finance/payments/recent').set('x-access-token', operator).send({ customerid: 999999, limit: 5 }).expect(404);
    await t.http.post('/finance/payments/recent').set('x-access-token', operator).send({ customerid: c.customerid, limit: 0 }).expect(400);
    await t.http.post('/finance/payments/recent').set('x-access-token', operator).send({ customerid: c.customerid, limit: 101 }).expect(400);
    await t.http.post('/finance/payments/recent').set('x-access-token', operator).send({ customerid: c.customerid, limit: null }).expect(200);
  });

  it('gives the 20 newest payments when no limit is sent', async () => {
    const c = await registerCustomer(t, dealid);
    for (let i = 1; i <= 21; i++) await load(c.customerid, 100, { reference: `D20-${c.customerid}-${i}` }).expect(201);
    const res = await t.http.post('/finance/payments/recent').set('x-access-token', operator).send({ customerid: c.customerid }).expect(200);
    expect(res.body).toHaveLength(20);
    expect(res.body[0].reference).toBe(`D20-${c.customerid}-21`);
    expect(res.body[19].reference).toBe(`D20-${c.customerid}-2`);
  });

  it('keeps payment rows immutable in the database itself', async () => {
    await expect(t.db.query(`UPDATE payments SET amount = amount + 1`)).rejects.toThrow(/immutable ledger/);
    await expect(t.db.query(`DELETE FROM payments`)).rejects.toThrow(/immutable ledger/);
  });

  it('lets OPERATOR load, not COLLECTOR or PROVIDER; no token 401', async () => {
    const c = await registerCustomer(t, dealid);
    await load(c.customerid, 1000, {}, await t.token(Role.COLLECTOR)).expect(403);
    await load(c.customerid, 1000, {}, await t.token(Role.PROVIDER)).expect(403);
    await t.http.post('/finance/payments/load').send({ customerid: c.customerid, amount: 1, reference: 'x', narration: 'y' }).expect(401);
    await t.http.post('/finance/payments/recent').set('x-access-token', await t.token(Role.PROVIDER)).send({ customerid: c.customerid, limit: 1 }).expect(403);
  });

  it('detects a deal that disagrees with its ledger', async () => {
    const c = await registerCustomer(t, dealid);
    await t.db.query('UPDATE customer_deals SET amountpaid = amountpaid + 1, balance = balance - 1 WHERE customer_id = $1', [c.customerid]);
    const { LedgerVerifier } = await import('../src/modules/contracts/application/ledger-verifier.js');
    const report = await t.app.get(LedgerVerifier).verify('2026-03-10');
    expect(report.differences.map((d) => d.field).sort()).toEqual(['amountpaid', 'balance']);
    await t.db.query('UPDATE customer_deals SET amountpaid = amountpaid - 1, balance = balance + 1 WHERE customer_id = $1', [c.customerid]);
  });
});
