import { Role } from '../src/common/auth/role.js';
import { Money } from '../src/common/money/money.js';
import { addDays, businessDay } from '../src/common/time/business-date.js';
import { amountInArrears } from '../src/modules/contracts/domain/credit-policy.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * A portfolio seeded through the API with figures worked out by hand. Payments are stamped by the
 * database clock, so the service clock is set to the real day for them and the report: the
 * customers' start dates are placed in the past by registering them with the clock moved back.
 * Deal: total 600,000, deposit 60,000, monthly 45,000 (1,500 a day). T = today.
 *
 * Arrears are what unlocks the device again: the days from the start to T inclusive, at 1,500 a day,
 * less what was repaid.
 *
 *   P1 starts T−40, pays 45,000      → paid up to T−10: LOCKED,   balance 495,000, arrears  16,500 (41 days − 30)
 *   P2 starts T−70, pays nothing     → paid up to T−70: LOCKED,   balance 540,000, arrears 106,500 (71 days; PAR30)
 *   P3 starts T−5,  pays 90,000      → paid up to T+55: UNLOCKED, balance 450,000, arrears       0
 *   P4 starts T−20, pays 540,000     → PAID_OFF
 *   P5 starts T−35, repossessed      → REPOSSESSED (not active), balance 540,000 on its own line
 *   P6 starts T,    pays nothing     → paid up to T:    LOCKED,   balance 540,000, arrears   1,500 (1 day)
 */
describe('Portfolio report', () => {
  let t: TestApp;
  let operator: string;
  let admin: string;
  const T = businessDay(new Date(), 'UTC');
  const at = (day: string) => new Date(`${day}T12:00:00Z`);
  const customers: Record<string, { customerid: number }> = {};

  beforeAll(async () => {
    t = await startTestApp({ now: new Date() });
    operator = await t.token(Role.OPERATOR);
    admin = await t.token(Role.ADMIN);
    const { dealid } = await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 });
    const starts: Record<string, number> = { P1: -40, P2: -70, P3: -5, P4: -20, P5: -35, P6: 0 };
    for (const [name, offset] of Object.entries(starts)) {
      t.clock.set(at(addDays(T, offset)));
      customers[name] = await registerCustomer(t, dealid);
    }
    t.clock.set(new Date());
    const pay = (name: string, amount: number) =>
      t.http.post('/finance/payments/load').set('x-access-token', operator).send({ customerid: customers[name].customerid, amount, reference: `R-${name}-${Math.random()}`, narration: 'cash' }).expect(201);
    await pay('P1', 45000);
    await pay('P3', 90000);
    await pay('P4', 540000);
    await t.http.post('/finance/contracts/repossess').set('x-access-token', operator).send({ customerid: customers.P5.customerid, reason: 'Customer moved away' }).expect(200);
  });
  afterAll(async () => {
    try {
      await expectLedgerConsistent(t);
    } finally {
      await t.close();
    }
  });

  const report = async (query = '') => (await t.http.get(`/finance/reports/portfolio${query}`).set('x-access-token', admin).expect(200)).body;

  it('gives active deals, outstanding balance, arrears, PAR30 and counts by status as worked out by hand', async () => {
    const r = await report(`?startdate=${addDays(T, -30)}&enddate=${T}`);
    expect(r).toMatchObject({
      asof: T,
      currency: 'UGX',
      activedeals: 4,
      outstandingbalance: 2025000, // 495,000 + 540,000 + 450,000 + 540,000
      amountinarrears: 124500, // 16,500 + 106,500 + 1,500
      par30balance: 540000, // P2 alone is more than 30 days past its paid-up date
      par30: 0.2667, // 540,000 ÷ 2,025,000
      repossesseddeals: 1,
      repossessedbalance: 540000, // P5: outside the active portfolio, but not dropped
      writtenoffbalance: 0,
      bookbalance: 2565000, // 2,025,000 + 540,000 (+ P4's 0)
      dealsbystatus: { LOCKED: 3, UNLOCKED: 1, PAID_OFF: 1, REPOSSESSED: 1 },
    });
  });

  it('agrees with the credit policy’s arrears function deal by deal', async () => {
    const rows = await t.db.query(`SELECT customer_id, totalamount, monthly, depositpaid, amountpaid, bonusdays, startdate FROM customer_deals WHERE status IN ('LOCKED', 'UNLOCKED')`);
    const sum = rows.reduce(
      (acc: Money, d: Record<string, string>) =>
        acc.plus(amountInArrears({ totalamount: Money.of(d.totalamount), monthly: Money.of(d.monthly), depositpaid: Money.of(d.depositpaid), startdate: d.startdate }, Money.of(d.amountpaid), Number(d.bonusdays), T)),
      Money.zero(),
    );
    expect(sum.toNumber()).toBe((await report()).amountinarrears);
  });

  it('gives the collection rate of a range: repayments received ÷ repayments that fell due and were not already covered', async () => {
    // Instalment k falls due on start + 30 × (k − 1). Range T−30…T. Due: P1 45,000 (its 2nd, on T−10), P2 45,000 (its
    // 3rd, T−10), P3 45,000 (its 1st, T−5), P4 45,000 (its 1st, T−20), P5 45,000 (its 2nd, T−5: repossessed today, after
    // the instalment fell due, so it still counts), P6 45,000 (its 1st, T).
    // Collected (deposits excluded): 45,000 + 90,000 + 540,000.
    const r = await report(`?startdate=${addDays(T, -30)}&enddate=${T}`);
    expect(r.collection).toEqual({ startdate: addDays(T, -30), enddate: T, due: 270000, collected: 675000, rate: 2.5 });
    // Range T−60…T−31: P1 (1st, T−40), P2 (2nd, T−40) and P5 (1st, T−35, repossessed after the range) were due, nothing paid then.
    const earlier = await report(`?startdate=${addDays(T, -60)}&enddate=${addDays(T, -31)}`);
    expect(earlier.collection).toEqual({ startdate: addDays(T, -60), enddate: addDays(T, -31), due: 135000, collected: 0, rate: 0 });
    // Before anyone started, nothing was due: no rate rather than a division by zero.
    const before = await report(`?startdate=${addDays(T, -120)}&enddate=${addDays(T, -100)}`);
    expect(before.collection).toMatchObject({ due: 0, collected: 0, rate: null });
  });

  it('defaults the range to the 31 days up to today, or 31 days from a given start', async () => {
    const r = await report();
    expect(r.collection).toMatchObject({ startdate: addDays(T, -30), enddate: T });
    const fromStart = await report(`?startdate=${addDays(T, -90)}`);
    expect(fromStart.collection).toMatchObject({ startdate: addDays(T, -90), enddate: addDays(T, -60) });
    // and the document says so: an integrator reading "enddate default: today" would expect T here
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    const enddate = doc.paths['/finance/reports/portfolio'].get.parameters.find((p: { name: string }) => p.name === 'enddate');
    expect(enddate.description).toContain('when only startdate is given, 30 days after it');
  });

  it('refuses bad ranges with 400', async () => {
    const bad = async (query: string, message: string) =>
      expect((await t.http.get(`/finance/reports/portfolio${query}`).set('x-access-token', admin).expect(400)).body.message).toContain(message);
    await bad(`?startdate=${T}&enddate=${addDays(T, -1)}`, 'startdate must not be after enddate');
    await bad(`?startdate=${addDays(T, -31)}&enddate=${T}`, 'the range must not span more than 31 days');
    await bad('?startdate=2026-02-30', 'startdate must be a real calendar date');
    await bad('?enddate=yesterday', 'enddate must be a real calendar date');
    // its default start would be in year 0: refused, not a 500
    await bad('?enddate=0001-01-01', 'enddate must be a real calendar date written YYYY-MM-DD, from 1900-01-01');
    await bad('?currency=USD', 'property currency should not exist');
  });

  it('is for OPERATOR and ADMIN', async () => {
    await t.http.get('/finance/reports/portfolio').expect(401);
    for (const role of [Role.OPERATOR, Role.COLLECTOR, Role.PROVIDER]) await t.http.get('/finance/reports/portfolio').set('x-access-token', await t.token(role)).expect(403);
    await t.http.get('/finance/reports/portfolio').set('x-access-token', await t.token(Role.ADMIN)).expect(200);
  });

  it('keeps a past range’s figures when a deal is repossessed today, and keeps its cash in collected', async () => {
    const range = `?startdate=${addDays(T, -60)}&enddate=${addDays(T, -31)}`;
    const current = `?startdate=${addDays(T, -30)}&enddate=${T}`;
    const [before, beforeNow] = [(await report(range)).collection, (await report(current)).collection];
    await t.http.post('/finance/contracts/repossess').set('x-access-token', operator).send({ customerid: customers.P1.customerid, reason: 'Stopped paying' }).expect(200);
    expect((await report(range)).collection).toEqual(before);
    // P1's 45,000 paid in this range stays collected; its instalment due on T−10 stays due.
    expect((await report(current)).collection).toEqual(beforeNow);
    const r = await report();
    expect(r).toMatchObject({ activedeals: 3, outstandingbalance: 1530000, repossesseddeals: 2, repossessedbalance: 1035000, bookbalance: 2565000 });
  });

  it('charts the cash received per business day as the ledger has it, an imported opening balance left out', async () => {
    // what was paid before an import is not cash received on the day of the import
    // (as an import writes it: the ledger row and the deal's figures that include it)
    const [{ id: dealId, customer_id: customerId }] = await t.db.query(`SELECT id, customer_id FROM customer_deals ORDER BY id DESC LIMIT 1`);
    await t.db.query(`INSERT INTO payments (customer_id, customer_deal_id, amount, reference, type) VALUES ($1, $2, 1, 'OPENING-CHART', 'OPENING')`, [customerId, dealId]);
    await t.db.query(`UPDATE customer_deals SET amountpaid = amountpaid + 1, balance = balance - 1 WHERE id = $1`, [dealId]);
    const perDay = async (days: number) => (await t.http.get(`/finance/reports/payments-per-day?days=${days}`).set('x-access-token', admin).expect(200)).body;
    const chart = await perDay(7);
    expect(chart.days).toHaveLength(7);
    expect(chart.days.map((d: { date: string }) => d.date)).toEqual([6, 5, 4, 3, 2, 1, 0].map((n) => addDays(T, -n)));
    const ledger = (await t.db.query(
      `SELECT to_char((created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS date, count(*)::int AS payments, sum(amount)::float AS amount
       FROM payments WHERE type <> 'OPENING' AND (created_at AT TIME ZONE 'UTC')::date > $1::date GROUP BY 1`,
      [addDays(T, -7)],
    )) as Array<{ date: string; payments: number; amount: number }>;
    for (const day of chart.days) {
      const row = ledger.find((l) => l.date === day.date);
      expect(day).toEqual({ date: day.date, payments: row?.payments ?? 0, amount: row?.amount ?? 0 });
    }
    for (const days of [0, 91, 1.5]) await t.http.get(`/finance/reports/payments-per-day?days=${days}`).set('x-access-token', admin).expect(400);
    expect((await perDay(90)).days).toHaveLength(90);
  });
});
