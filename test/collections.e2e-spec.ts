import { Role } from '../src/common/auth/role.js';
import { Money } from '../src/common/money/money.js';
import { amountInArrears } from '../src/modules/contracts/domain/credit-policy.js';
import { ContractJobs } from '../src/modules/contracts/application/contract-jobs.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { startTestApp, TestApp } from './support/test-app.js';

const TODAY = '2026-03-10';
const at = (day: string) => new Date(`${day}T09:00:00Z`);

interface Call {
  callid: number;
  customerid: number;
  status: string;
  amountinarrears: number;
  daysoverdue: number;
  nextpaymentdate: string;
  assignedto: number | null;
  resolution: string | null;
  notes: string | null;
  promisedate: string | null;
}

describe('Collections', () => {
  let t: TestApp;
  let collector: { id: number; token: string };
  let operator: string;
  let dealid: number;
  beforeAll(async () => {
    t = await startTestApp({ now: at(TODAY) });
    collector = await t.user(Role.COLLECTOR);
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
  beforeEach(() => t.clock.set(at(TODAY)));

  const post = (path: string, body: object, token = collector.token) => t.http.post(`/finance/collections/${path}`).set('x-access-token', token).send(body);
  const generate = async () => (await post('generate', {}).expect(200)).body as { opened: number; refreshed: number; today: string };
  const calls = async (query = 'limit=100'): Promise<Call[]> => (await t.http.get(`/finance/collections/calls?${query}`).set('x-access-token', collector.token).expect(200)).body.items;
  const openCallOf = async (customerid: number) => (await calls()).find((c) => c.customerid === customerid && c.status !== 'RESOLVED');
  const pay = (customerid: number, amount: number) =>
    t.http.post('/finance/payments/load').set('x-access-token', operator).send({ customerid, amount, reference: `C-${Math.random()}`, narration: 'cash' }).expect(201);
  /** A customer registered on `day` (the deposit buys no days: their paid-up date is that day). */
  const customerFrom = async (day: string) => {
    t.clock.set(at(day));
    const c = await registerCustomer(t, dealid);
    t.clock.set(at(TODAY));
    return c;
  };
  /** A collector works only on calls assigned to them: the test collector claims the call first. */
  const claim = (callid: number) => post('assign', { callid, userid: collector.id }).expect(200);
  const stats = async () => (await t.http.get('/finance/collections/stats').set('x-access-token', collector.token).expect(200)).body;

  it('opens one PENDING call per overdue deal with its arrears and days overdue, and nothing on a second run', async () => {
    const none = await generate();
    expect(none).toEqual({ opened: 0, refreshed: 0, today: TODAY });

    const a = await customerFrom('2026-01-10'); // nothing paid since: 59 days overdue, two periods due
    const c = await customerFrom('2026-02-01');
    await pay(c.customerid, 45000); // paid up to 2026-03-03: 7 days overdue
    const paidOff = await customerFrom('2026-01-01');
    await pay(paidOff.customerid, 540000);
    const repossessed = await customerFrom('2026-01-01');
    await t.http.post('/finance/contracts/repossess').set('x-access-token', operator).send({ customerid: repossessed.customerid, reason: 'gone' }).expect(200);
    const dueToday = await customerFrom(TODAY); // paid-up date is today: locked today, so overdue too
    const ahead = await customerFrom('2026-03-01');
    await pay(ahead.customerid, 45000);

    expect(await generate()).toEqual({ opened: 3, refreshed: 0, today: TODAY });
    const open = await calls('status=PENDING&limit=100');
    expect(open.map((x) => x.customerid).sort()).toEqual([a.customerid, c.customerid, dueToday.customerid].sort());
    // Arrears unlock the device: the days from the start to today inclusive at 1,500 a day, less what was repaid.
    expect(await openCallOf(a.customerid)).toMatchObject({ status: 'PENDING', amountinarrears: 90000, daysoverdue: 59, nextpaymentdate: '2026-01-10', assignedto: null, resolution: null, fullname: a.fullname, telephone: a.telephone });
    expect(await openCallOf(c.customerid)).toMatchObject({ amountinarrears: 12000, daysoverdue: 7, nextpaymentdate: '2026-03-03' }); // 38 days to buy − 30 bought
    expect(await openCallOf(dueToday.customerid)).toMatchObject({ amountinarrears: 1500, daysoverdue: 0, nextpaymentdate: TODAY });
    // The SQL that opened them agrees with the credit policy's own function.
    const terms = { totalamount: Money.of(600000), monthly: Money.of(45000), depositpaid: Money.of(60000), startdate: '2026-02-01' };
    expect(amountInArrears(terms, Money.of(105000), 0, TODAY).toNumber()).toBe(12000);
    for (const skipped of [paidOff, repossessed, ahead]) expect(await openCallOf(skipped.customerid)).toBeUndefined();

    expect(await generate()).toEqual({ opened: 0, refreshed: 0, today: TODAY });
    expect(await stats()).toEqual({ PENDING: 3, CALLED: 0, RESOLVED: 0 });

    // A day later the open calls' figures follow the calendar; still no second call.
    t.clock.set(at('2026-03-11'));
    expect(await generate()).toEqual({ opened: 0, refreshed: 3, today: '2026-03-11' });
    expect(await openCallOf(a.customerid)).toMatchObject({ daysoverdue: 60, amountinarrears: 91500 });
    expect(await openCallOf(dueToday.customerid)).toMatchObject({ daysoverdue: 1, amountinarrears: 3000 });
  });

  it('asks for exactly what unlocks the device: paying the call’s arrears unlocks the deal and resolves the call', async () => {
    // Lock day (0 days past due) and the 30th and 60th days past due: where the old figure was an instalment short.
    for (const [start, paid, expected] of [
      ['2026-02-08', 45000, 1500], // paid up to today, the lock day: 31 days to buy, 30 bought
      ['2026-01-09', 45000, 46500], // paid up to 2026-02-08, 30 days past due: 61 days to buy, 30 bought
      ['2025-12-10', 45000, 91500], // paid up to 2026-01-09, 60 days past due: 91 days to buy, 30 bought
      ['2026-01-09', 0, 91500], // never repaid: 61 days to buy
    ] as const) {
      const c = await customerFrom(start);
      if (paid) {
        t.clock.set(at(start));
        await pay(c.customerid, paid);
        t.clock.set(at(TODAY));
      }
      await t.app.get(ContractJobs).lockOverdue();
      await generate();
      const call = (await openCallOf(c.customerid))!;
      expect(call.amountinarrears).toBe(expected);
      await pay(c.customerid, call.amountinarrears);
      const deal = (await t.http.get(`/finance/customers/${c.customerid}`).set('x-access-token', operator).expect(200)).body.deal;
      expect(deal).toMatchObject({ status: 'UNLOCKED', nextpaymentdate: '2026-03-11' });
      expect((await calls()).find((x) => x.callid === call.callid)).toMatchObject({ status: 'RESOLVED', resolution: 'PAYMENT' });
    }
  });

  it('shows an open call’s figures as of today, before generation runs: the amount asked still unlocks after midnight', async () => {
    const c = await customerFrom('2026-01-09');
    await t.app.get(ContractJobs).lockOverdue();
    await generate();
    expect(await openCallOf(c.customerid)).toMatchObject({ amountinarrears: 91500, daysoverdue: 60 });
    // the next business day: nobody has generated calls yet
    t.clock.set(at('2026-03-11'));
    const call = (await openCallOf(c.customerid))!;
    expect(call).toMatchObject({ amountinarrears: 93000, daysoverdue: 61, nextpaymentdate: '2026-01-09' });
    const exported = (await t.http.get('/finance/exports/collections.csv').set('x-access-token', await t.token(Role.ADMIN)).expect(200)).text;
    expect(exported.split('\r\n').find((line) => line.startsWith(`${call.callid},`))).toContain(',93000.00,61,2026-01-09,');
    await pay(c.customerid, call.amountinarrears);
    expect((await t.http.get(`/finance/customers/${c.customerid}`).set('x-access-token', operator).expect(200)).body.deal).toMatchObject({ status: 'UNLOCKED', nextpaymentdate: '2026-03-12' });
    // resolved: the figures it was closed with stay
    expect((await calls()).find((x) => x.callid === call.callid)).toMatchObject({ status: 'RESOLVED', resolution: 'PAYMENT', amountinarrears: 91500, daysoverdue: 60 });
  });

  it('closes a repossessed deal’s open call (REPOSSESSED) and never refreshes or reopens it', async () => {
    const c = await customerFrom('2026-02-01');
    await generate();
    const call = (await openCallOf(c.customerid))!;
    await claim(call.callid);
    await post('update', { callid: call.callid, status: 'CALLED', notes: 'No answer' }).expect(200);
    await t.http.post('/finance/contracts/repossess').set('x-access-token', operator).send({ customerid: c.customerid, reason: 'Stopped paying' }).expect(200);
    const closed = (await calls()).find((x) => x.callid === call.callid)!;
    expect(closed).toMatchObject({ status: 'RESOLVED', resolution: 'REPOSSESSED', notes: 'No answer', resolvedat: expect.any(String), amountinarrears: call.amountinarrears });

    t.clock.set(at('2026-03-20'));
    await generate();
    const after = (await calls()).filter((x) => x.customerid === c.customerid);
    expect(after).toEqual([closed]);
    await pay(c.customerid, 45000); // a payment on a repossessed deal is recorded, and reopens nothing
    await generate();
    expect((await calls()).filter((x) => x.customerid === c.customerid)).toEqual([closed]);
  });

  it('never opens two calls for one deal, even when generation runs on several instances at once', async () => {
    const customers = [];
    for (let i = 0; i < 5; i++) customers.push(await customerFrom('2026-02-15'));
    const runs = await Promise.all(Array.from({ length: 4 }, () => generate()));
    expect(runs.reduce((sum, r) => sum + r.opened, 0)).toBe(5);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM collection_calls WHERE customer_id = ANY($1) AND status <> 'RESOLVED'`, [customers.map((c) => c.customerid)]);
    expect(n).toBe(5);
  });

  it('moves a call only PENDING → CALLED → RESOLVED, keeping notes and the promise to pay; 409 for anything else', async () => {
    const c = await customerFrom('2026-02-20');
    await generate();
    const call = (await openCallOf(c.customerid))!;
    await claim(call.callid);
    const update = (body: object) => post('update', { callid: call.callid, notes: 'note', ...body });

    expect((await update({ status: 'RESOLVED' }).expect(409)).body).toEqual({ message: `Call ${call.callid} is PENDING; it can only move to CALLED, not to RESOLVED.` });
    expect((await update({ status: 'PENDING' }).expect(409)).body.message).toContain('it can only move to CALLED');
    expect((await update({ status: 'CALLED', promisedate: '2026-03-09' }).expect(400)).body).toEqual({ message: 'promisedate 2026-03-09 is before today (2026-03-10).' });

    const called = await update({ status: 'CALLED', notes: 'Will pay on Friday', promisedate: '2026-03-13' }).expect(200);
    expect(called.body).toMatchObject({ callid: call.callid, status: 'CALLED', notes: 'Will pay on Friday', promisedate: '2026-03-13', calledat: expect.any(String), resolvedat: null });
    expect((await update({ status: 'CALLED' }).expect(409)).body.message).toBe(`Call ${call.callid} is CALLED; it can only move to RESOLVED, not to CALLED.`);
    await update({ status: 'PENDING' }).expect(409);

    const resolved = await update({ status: 'RESOLVED', notes: 'Customer returned the phone to the shop' }).expect(200);
    expect(resolved.body).toMatchObject({ status: 'RESOLVED', resolution: 'COLLECTOR', promisedate: '2026-03-13', notes: 'Customer returned the phone to the shop', resolvedat: expect.any(String) });
    for (const status of ['PENDING', 'CALLED', 'RESOLVED']) {
      expect((await update({ status }).expect(409)).body.message).toBe(`Call ${call.callid} is RESOLVED; it can no longer change, not to ${status}.`);
    }

    // Still overdue: the next run opens a new call for the deal.
    const again = await generate();
    expect(again.opened).toBeGreaterThanOrEqual(1);
    expect((await openCallOf(c.customerid))!.callid).not.toBe(call.callid);
  });

  it('refuses bad updates: 404 unknown call, 400 bad status, missing notes or bad date', async () => {
    expect((await post('update', { callid: 987654, status: 'CALLED', notes: 'x' }).expect(404)).body).toEqual({ message: 'Call 987654 not found.' });
    expect((await post('update', { callid: 1, status: 'DONE', notes: 'x' }).expect(400)).body.message).toContain('status must be one of PENDING, CALLED, RESOLVED');
    expect((await post('update', { callid: 1, status: 'CALLED' }).expect(400)).body.message).toContain('notes');
    expect((await post('update', { callid: 1, status: 'CALLED', notes: 'x', promisedate: '2026-02-30' }).expect(400)).body.message).toContain('promisedate must be a real calendar date');
    expect((await post('update', { callid: 1, status: 'CALLED', notes: 'x', extra: 1 }).expect(400)).body.message).toContain('property extra should not exist');
  });

  it('resolves the open call when a payment brings the deal up to date, not before', async () => {
    const c = await customerFrom('2026-02-01');
    await generate();
    const call = (await openCallOf(c.customerid))!;
    await claim(call.callid);
    await pay(c.customerid, 1500); // one more day: paid up to 2026-02-02, still overdue
    expect(await openCallOf(c.customerid)).toMatchObject({ callid: call.callid, status: 'PENDING' });
    await post('update', { callid: call.callid, status: 'CALLED', notes: 'Promised to pay today' }).expect(200);
    await pay(c.customerid, 90000); // paid up to 2026-04-03
    expect(await openCallOf(c.customerid)).toBeUndefined();
    const closed = (await calls()).find((x) => x.callid === call.callid)!;
    expect(closed).toMatchObject({ status: 'RESOLVED', resolution: 'PAYMENT', notes: 'Promised to pay today' });
    expect((await generate()).opened).toBe(0);
  });

  it('resolves the open call when bonus days bring the deal up to date', async () => {
    const c = await customerFrom('2026-03-05');
    await generate();
    expect(await openCallOf(c.customerid)).toBeDefined();
    await t.http.post('/finance/customers/bonus').set('x-access-token', operator).send({ customerid: c.customerid, days: 10 }).expect(200);
    expect(await openCallOf(c.customerid)).toBeUndefined();
    expect((await calls()).find((x) => x.customerid === c.customerid)).toMatchObject({ status: 'RESOLVED', resolution: 'BONUS_DAYS' });
  });

  it('assigns open calls to active collectors and lists them by assignee', async () => {
    const c = await customerFrom('2026-02-25');
    await generate();
    const call = (await openCallOf(c.customerid))!;
    const other = await t.user(Role.COLLECTOR);
    const assigned = await post('assign', { callid: call.callid, userid: other.id }, operator).expect(200);
    expect(assigned.body).toMatchObject({ callid: call.callid, assignedto: other.id, status: 'PENDING' });
    const mine = await calls(`assignedto=${other.id}`);
    expect(mine.map((x) => x.callid)).toEqual([call.callid]);

    const op = await t.user(Role.OPERATOR);
    expect((await post('assign', { callid: call.callid, userid: op.id }, operator).expect(409)).body).toEqual({ message: `User ${op.id} is not an active collector.` });
    expect((await post('assign', { callid: call.callid, userid: 987654 }, operator).expect(404)).body).toEqual({ message: 'User 987654 not found.' });
    expect((await post('assign', { callid: 987654, userid: other.id }, operator).expect(404)).body).toEqual({ message: 'Call 987654 not found.' });
    expect((await post('assign', { callid: 987654, userid: collector.id }).expect(404)).body).toEqual({ message: 'Call 987654 not found.' });
    await t.http.post('/finance/users/disable').set('x-access-token', await t.token(Role.ADMIN)).send({ id: other.id }).expect(200);
    await post('assign', { callid: call.callid, userid: other.id }, operator).expect(409);

    await post('update', { callid: call.callid, status: 'CALLED', notes: 'x' }, operator).expect(200);
    await post('update', { callid: call.callid, status: 'RESOLVED', notes: 'x' }, await t.token(Role.ADMIN)).expect(200);
    expect((await post('assign', { callid: call.callid, userid: collector.id }, operator).expect(409)).body).toEqual({ message: `Call ${call.callid} is resolved.` });
    await post('assign', { callid: call.callid, userid: 'me' }).expect(400);
  });

  it('lists calls paged with filters, and counts them by status with all three keys', async () => {
    const all = await t.http.get('/finance/collections/calls?page=1&limit=2').set('x-access-token', collector.token).expect(200);
    expect(all.body).toMatchObject({ page: 1, limit: 2, total: expect.any(Number) });
    expect(all.body.items.length).toBeLessThanOrEqual(2);
    const counts = await stats();
    expect(Object.keys(counts).sort()).toEqual(['CALLED', 'PENDING', 'RESOLVED']);
    const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM collection_calls');
    expect(counts.PENDING + counts.CALLED + counts.RESOLVED).toBe(n);
    expect((await calls('status=RESOLVED&limit=100')).every((x) => x.status === 'RESOLVED')).toBe(true);
    await t.http.get('/finance/collections/calls?status=OPEN').set('x-access-token', collector.token).expect(400);
    await t.http.get('/finance/collections/calls?assignedto=x').set('x-access-token', collector.token).expect(400);
  });

  it('lists one customer’s calls with customerid', async () => {
    const [a, b] = [await customerFrom('2026-02-14'), await customerFrom('2026-02-15')];
    await generate();
    const mine = await calls(`customerid=${a.customerid}`);
    expect(mine).toEqual([expect.objectContaining({ customerid: a.customerid, status: 'PENDING', assignedto: null, promisedate: null })]);
    expect((await calls(`customerid=${b.customerid}&status=PENDING`)).map((c) => c.customerid)).toEqual([b.customerid]);
    expect(await calls(`customerid=${b.customerid}&status=RESOLVED`)).toEqual([]);
    expect(await calls('customerid=2147483647')).toEqual([]);
    for (const bad of ['customerid=x', 'customerid=0', 'customerid=2147483648']) {
      const res = await t.http.get(`/finance/collections/calls?${bad}`).set('x-access-token', collector.token).expect(400);
      expect(res.body.message).toMatch(/^customerid /);
    }
    await t.http.get(`/finance/collections/calls?customerid=${a.customerid}`).expect(401);
    await t.http.get(`/finance/collections/calls?customerid=${a.customerid}`).set('x-access-token', await t.token(Role.PROVIDER)).expect(403);
  });

  it('lets a collector update only the calls assigned to them; ADMIN and OPERATOR update any', async () => {
    const [c1, c2, c3] = [await customerFrom('2026-02-10'), await customerFrom('2026-02-11'), await customerFrom('2026-02-12')];
    await generate();
    const [mine, theirs, nobodys] = [(await openCallOf(c1.customerid))!, (await openCallOf(c2.customerid))!, (await openCallOf(c3.customerid))!];
    const other = await t.user(Role.COLLECTOR);
    await post('assign', { callid: mine.callid, userid: collector.id }).expect(200); // claiming a free call for oneself
    await post('assign', { callid: theirs.callid, userid: other.id }, operator).expect(200);

    const update = (callid: number, token: string) => post('update', { callid, status: 'CALLED', notes: 'Spoke to them' }, token);
    expect((await update(theirs.callid, collector.token).expect(403)).body).toEqual({ message: 'Forbidden.' });
    expect((await update(nobodys.callid, collector.token).expect(403)).body).toEqual({ message: 'Forbidden.' });
    // Nor may a collector take another's call, or hand calls out.
    expect((await post('assign', { callid: theirs.callid, userid: collector.id }).expect(403)).body).toEqual({ message: 'Forbidden.' });
    expect((await post('assign', { callid: nobodys.callid, userid: other.id }).expect(403)).body).toEqual({ message: 'Forbidden.' });
    // whoever else is named, existing or not, collector or not: a collector learns nothing about the staff (ADMIN lists users)
    for (const userid of [987654, 1, (await t.user(Role.OPERATOR)).id])
      expect({ userid, ...(await post('assign', { callid: nobodys.callid, userid })).body }).toEqual({ userid, message: 'Forbidden.' });
    expect((await calls()).find((x) => x.callid === theirs.callid)).toMatchObject({ status: 'PENDING', assignedto: other.id, notes: null });

    await update(mine.callid, collector.token).expect(200);
    await update(theirs.callid, other.token).expect(200);
    await update(nobodys.callid, operator).expect(200);
    await post('update', { callid: theirs.callid, status: 'RESOLVED', notes: 'Paid at the shop' }, await t.token(Role.ADMIN)).expect(200);
    expect((await update(987654, collector.token).expect(404)).body).toEqual({ message: 'Call 987654 not found.' });
  });

  it('is for COLLECTOR, OPERATOR (calls, assign, update) and ADMIN: 401 without a token, 403 otherwise', async () => {
    expect((await t.http.get('/finance/collections/stats').expect(401)).body).toEqual({ message: 'No token provided.' });
    const provider = await t.token(Role.PROVIDER);
    for (const token of [provider, operator]) {
      expect((await t.http.get('/finance/collections/stats').set('x-access-token', token).expect(403)).body).toEqual({ message: 'Forbidden.' });
      expect((await post('generate', {}, token).expect(403)).body).toEqual({ message: 'Forbidden.' });
    }
    await t.http.get('/finance/collections/calls').set('x-access-token', provider).expect(403);
    expect((await post('update', { callid: 1, status: 'CALLED', notes: 'x' }, provider).expect(403)).body).toEqual({ message: 'Forbidden.' });
    await t.http.get('/finance/collections/calls').set('x-access-token', operator).expect(200);
    await post('generate', {}, await t.token(Role.ADMIN)).expect(200);
  });
});
