import { Role } from '../src/common/auth/role.js';
import { ContractJobs } from '../src/modules/contracts/application/contract-jobs.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * A book of 14 deals moved through the first quarter of 2026 with the injectable clock, and every
 * figure collectors and investors act on worked out by hand below.
 *
 * Deal: total 600,000, deposit 60,000, monthly 45,000 — 1,500 a day; 540,000 to repay in 12
 * instalments, instalment k due on start + 30 × (k − 1). The ledger and repossession times are
 * stamped by the database's clock, which the service's clock cannot move, so each is re-stamped
 * to the day the service's clock showed when it was made (`stamp`).
 *
 *   deal start   what happens                                          paid-up date
 *   A    Jan 1   pays 45,000 Jan 1, Jan 31 and Mar 2                   Jan 31 → Mar 2 → Apr 1
 *   B    Jan 1   pays 45,000 Jan 1; on Feb 28 pays its call's arrears  Jan 31 → Mar 1
 *   C    Jan 1   never repays                                          Jan 1
 *   D    Jan 1   pays 540,000 Jan 15                                   PAID_OFF
 *   E    Jan 1   pays 45,000 Jan 1; repossessed Feb 20; pays 10,000 Mar 20
 *   F    Jan 10  pays 90,000 Jan 10                                    Mar 11
 *   G    Jan 10  pays 22,500 Jan 10 and Feb 1                          Jan 25 → Feb 9
 *   H    Jan 20  never repays; repossessed Mar 10                      Jan 20
 *   I    Feb 1   pays 45,000 Feb 1 and Mar 3                           Mar 3 → Apr 2
 *   J    Feb 1   pays 45,000 Feb 10                                    Mar 3
 *   K    Feb 15  never repays                                          Feb 15
 *   L    Mar 1   pays 45,000 Mar 1                                     Mar 31
 *   M    Mar 1   10 bonus days Mar 1                                   Mar 11
 *   N    Jan 5   pays 45,000 Jan 5 and Feb 4; repossessed Mar 15       Feb 4 → Mar 6
 */
describe('A book of 14 deals moved through time', () => {
  let t: TestApp;
  let operator: string;
  let admin: string;
  let collector: string;
  let dealid: number;
  let lastPaymentId = 0;
  const ids: Record<string, number> = {};
  const at = (day: string) => new Date(`${day}T12:00:00Z`);

  beforeAll(async () => {
    t = await startTestApp({ now: at('2026-01-01') });
    operator = await t.token(Role.OPERATOR);
    admin = await t.token(Role.ADMIN);
    collector = await t.token(Role.COLLECTOR);
    dealid = (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
  });
  afterAll(async () => {
    try {
      await expectLedgerConsistent(t);
    } finally {
      await t.close();
    }
  });

  const day = () => t.clock.now().toISOString().slice(0, 10);
  /** Ledger rows and repossessions made since the last call get the service clock's day. */
  const stamp = async () => {
    await t.db.transaction(async (em) => {
      await em.query('ALTER TABLE payments DISABLE TRIGGER payments_immutable');
      await em.query('UPDATE payments SET created_at = $1 WHERE id > $2', [at(day()), lastPaymentId]);
      await em.query('ALTER TABLE payments ENABLE TRIGGER payments_immutable');
      const [{ max }] = await em.query('SELECT COALESCE(max(id), 0)::int AS max FROM payments');
      lastPaymentId = max;
    });
  };
  const on = async (d: string, ...actions: Array<() => Promise<unknown>>) => {
    t.clock.set(at(d));
    for (const action of actions) {
      await action();
      await stamp();
    }
  };
  const register = (...names: string[]) => async () => {
    for (const name of names) ids[name] = (await registerCustomer(t, dealid)).customerid;
  };
  const pay = (name: string, amount: number) => () =>
    t.http.post('/finance/payments/load').set('x-access-token', operator).send({ customerid: ids[name], amount, reference: `BOOK-${name}-${day()}`, narration: 'cash' }).expect(201);
  const repossess = (name: string) => async () => {
    await t.http.post('/finance/contracts/repossess').set('x-access-token', operator).send({ customerid: ids[name], reason: 'Stopped paying' }).expect(200);
    await t.db.query('UPDATE customer_deals SET repossessed_at = $1 WHERE customer_id = $2', [at(day()), ids[name]]);
  };
  const bonus = (name: string, days: number) => () => t.http.post('/finance/customers/bonus').set('x-access-token', operator).send({ customerid: ids[name], days }).expect(200);
  const report = async (query = '') => (await t.http.get(`/finance/reports/portfolio${query}`).set('x-access-token', admin).expect(200)).body;
  const rate = async (startdate: string, enddate: string) => (await report(`?startdate=${startdate}&enddate=${enddate}`)).collection;
  const generate = async () => {
    await t.app.get(ContractJobs).lockOverdue();
    return (await t.http.post('/finance/collections/generate').set('x-access-token', collector).send({}).expect(200)).body;
  };
  const callsByDeal = async () => {
    const items: Array<{ customerid: number; status: string; resolution: string | null; amountinarrears: number; daysoverdue: number; callid: number }> = (
      await t.http.get('/finance/collections/calls?limit=100').set('x-access-token', collector).expect(200)
    ).body.items;
    const name = (customerid: number) => Object.keys(ids).find((n) => ids[n] === customerid)!;
    return items.map((c) => ({ ...c, name: name(c.customerid) })).sort((a, b) => a.name.localeCompare(b.name) || a.callid - b.callid);
  };
  const open = async () =>
    Object.fromEntries((await callsByDeal()).filter((c) => c.status !== 'RESOLVED').map((c) => [c.name, [c.amountinarrears, c.daysoverdue]]));

  const JAN = { startdate: '2026-01-01', enddate: '2026-01-31' };
  const FEB = { startdate: '2026-02-01', enddate: '2026-02-28' };
  const MAR = { startdate: '2026-03-01', enddate: '2026-03-31' };
  // Due in January: A, B, C, D, E two instalments each (Jan 1, Jan 31); N, F, G, H one each.
  // Collected: A 45,000 + 45,000, B 45,000, E 45,000, N 45,000, F 90,000, G 22,500, D 540,000.
  const JAN_RATE = { ...JAN, due: 630000, collected: 877500, rate: 1.3929 };
  // Due in February: N (2nd, Feb 4), G (2nd, Feb 9), H (2nd, Feb 19), I, J, K (1st each); A's, B's, C's, D's,
  // F's next fall in March or were covered, and E was repossessed (Feb 20) after its 2nd (Jan 31) fell due in January.
  // Collected: G 22,500, I 45,000, N 45,000, J 45,000, B 43,500 (its call's arrears, Feb 28).
  const FEB_RATE = { ...FEB, due: 270000, collected: 201000, rate: 0.7444 };

  it('on Feb 28: calls for the locked deals with what unlocks each, PAR30, balances on their own lines, January’s rate', async () => {
    await on('2026-01-01', register('A', 'B', 'C', 'D', 'E'), pay('A', 45000), pay('B', 45000), pay('E', 45000));
    await on('2026-01-05', register('N'), pay('N', 45000));
    await on('2026-01-10', register('F', 'G'), pay('F', 90000), pay('G', 22500));
    await on('2026-01-15', pay('D', 540000));
    await on('2026-01-20', register('H'));
    await on('2026-01-31', pay('A', 45000));
    await on('2026-02-01', register('I', 'J'), pay('I', 45000), pay('G', 22500));
    const january = await rate(JAN.startdate, JAN.enddate);
    expect(january).toEqual(JAN_RATE);
    await on('2026-02-04', pay('N', 45000));
    await on('2026-02-10', pay('J', 45000));
    await on('2026-02-15', register('K'));
    await on('2026-02-20', repossess('E'));
    await on('2026-02-28');

    expect(await generate()).toEqual({ opened: 5, refreshed: 0, today: '2026-02-28' });
    // [arrears, days overdue]: the days from the start to Feb 28 inclusive at 1,500, less what was repaid.
    expect(await open()).toEqual({
      B: [43500, 28], // 59 days − 30 bought
      C: [88500, 58], // 59 days
      G: [30000, 19], // 50 days − 30 bought
      H: [60000, 39], // 40 days
      K: [21000, 13], // 14 days
    });
    expect(await report()).toMatchObject({
      asof: '2026-02-28',
      activedeals: 10,
      outstandingbalance: 4950000, // A 450,000, B 495,000, C 540,000, F 450,000, G 495,000, H 540,000, I 495,000, J 495,000, K 540,000, N 450,000
      amountinarrears: 243000, // the five calls
      par30balance: 1080000, // C (58 days past due) and H (39)
      par30: 0.2182,
      repossesseddeals: 1,
      repossessedbalance: 495000, // E
      writtenoffbalance: 0,
      bookbalance: 5445000,
      dealsbystatus: { LOCKED: 5, UNLOCKED: 5, PAID_OFF: 1, REPOSSESSED: 1 },
    });

    // B pays exactly what the collector asked: unlocked (paid up to Mar 1), call resolved.
    const bCall = (await callsByDeal()).find((c) => c.name === 'B' && c.status === 'PENDING')!;
    await on('2026-02-28', pay('B', bCall.amountinarrears));
    const b = (await t.http.get(`/finance/customers/${ids.B}`).set('x-access-token', operator).expect(200)).body.deal;
    expect(b).toMatchObject({ status: 'UNLOCKED', nextpaymentdate: '2026-03-01', balance: 451500 });
    expect((await callsByDeal()).find((c) => c.callid === bCall.callid)).toMatchObject({ status: 'RESOLVED', resolution: 'PAYMENT' });

    expect(await rate(FEB.startdate, FEB.enddate)).toEqual(FEB_RATE);
    expect(await rate(JAN.startdate, JAN.enddate)).toEqual(JAN_RATE);
  });

  it('through March: repossessions close their calls and are never refreshed; past months’ rates stay; lock-day calls', async () => {
    await on('2026-03-01', register('L', 'M'), pay('L', 45000), bonus('M', 10));
    await on('2026-03-02', pay('A', 45000));
    await on('2026-03-03', pay('I', 45000));
    await on('2026-03-10', repossess('H'));
    const hCall = (await callsByDeal()).find((c) => c.name === 'H')!;
    expect(hCall).toMatchObject({ status: 'RESOLVED', resolution: 'REPOSSESSED', amountinarrears: 60000, daysoverdue: 39 });

    await on('2026-03-12');
    // Opened: B (paid up to Mar 1), F (Mar 11), J (Mar 3), M (Mar 11), N (Mar 6); refreshed: C, G, K. Not H.
    expect(await generate()).toEqual({ opened: 5, refreshed: 3, today: '2026-03-12' });
    await on('2026-03-15', repossess('N'));
    await on('2026-03-20', pay('E', 10000)); // cash on a repossessed deal: recorded, reopens nothing
    await on('2026-03-31');
    // Opened: L, locked today (its lock day). Refreshed: B, C, F, G, J, K, M. H and N stay closed as they were.
    expect(await generate()).toEqual({ opened: 1, refreshed: 7, today: '2026-03-31' });
    expect(await open()).toEqual({
      B: [46500, 30], // 90 days − 59 bought
      C: [135000, 89], // 90 days
      F: [31500, 20], // 81 days − 60 bought
      G: [76500, 50], // 81 days − 30 bought
      J: [43500, 28], // 59 days − 30 bought
      K: [67500, 44], // 45 days
      L: [1500, 0], // 31 days − 30 bought: the lock day
      M: [31500, 20], // 31 days − 10 bonus days
    });
    const calls = await callsByDeal();
    expect(calls.filter((c) => c.name === 'H')).toEqual([expect.objectContaining({ callid: hCall.callid, resolution: 'REPOSSESSED', amountinarrears: 60000, daysoverdue: 39 })]);
    expect(calls.filter((c) => c.name === 'N')).toEqual([expect.objectContaining({ status: 'RESOLVED', resolution: 'REPOSSESSED' })]);
    expect(calls.filter((c) => c.name === 'E')).toEqual([]);

    expect(await report()).toMatchObject({
      asof: '2026-03-31',
      activedeals: 10,
      // A 405,000, B 451,500, C 540,000, F 450,000, G 495,000, I 450,000, J 495,000, K 540,000, L 495,000, M 540,000
      outstandingbalance: 4861500,
      amountinarrears: 433500,
      par30balance: 1575000, // C (89 days), G (50), K (44); B is exactly 30 days past due: not more than 30
      par30: 0.324,
      repossesseddeals: 3,
      repossessedbalance: 1475000, // E 485,000 (after its 10,000), H 540,000, N 450,000
      writtenoffbalance: 0,
      bookbalance: 6336500,
      dealsbystatus: { LOCKED: 8, UNLOCKED: 2, PAID_OFF: 1, REPOSSESSED: 3 },
    });

    // H and N were repossessed in March: January's and February's figures are what they were.
    expect(await rate(JAN.startdate, JAN.enddate)).toEqual(JAN_RATE);
    expect(await rate(FEB.startdate, FEB.enddate)).toEqual(FEB_RATE);
    // Due in March: A, B, C, F, G, I, J, K one instalment each; L and M two (Mar 1 and Mar 31); N its 3rd (Mar 6,
    // before its repossession on Mar 15); H nothing (its 3rd, Mar 21, after its repossession); E left out (repossessed
    // in February); D paid off. Collected: L 45,000, A 45,000, I 45,000 and E's 10,000 after its repossession.
    expect(await rate(MAR.startdate, MAR.enddate)).toEqual({ ...MAR, due: 585000, collected: 145000, rate: 0.2479 });
  });
});
