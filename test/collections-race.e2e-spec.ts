import pg from 'pg';
import { Role } from '../src/common/auth/role.js';
import { CollectionsService } from '../src/modules/collections/application/collections.service.js';
import { ContractJobs } from '../src/modules/contracts/application/contract-jobs.js';
import { seedOverdueDeals } from './support/faults.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { lockWaits } from './support/lock-waits.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * Collections generation next to a payment that brings an overdue deal up to date. The payment closes
 * the deal's open call in its transaction; a generation that read the deal as overdue before the
 * payment committed opened a new call for it right after (its insert waited for the payment's change
 * of the old call, then found no open call): a PENDING call on a deal paid up, which nothing closes
 * again (a payment closes a call only when it brings the deal up to date). In the chaos runs (three
 * instances, a payments import, generation pressed now and then) hundreds were left so.
 */
describe('Collections generation while payments bring overdue deals up to date', () => {
  let t: TestApp;
  let admin: string;
  let blocker: pg.Client;
  beforeAll(async () => {
    t = await startTestApp({ now: new Date('2026-03-10T08:00:00Z') });
    admin = await t.token(Role.ADMIN);
    blocker = new pg.Client({ connectionString: t.databaseUrl });
    await blocker.connect();
  });
  afterAll(async () => {
    await blocker?.end();
    await t.close();
  });

  const waiting = () => lockWaits(t);
  const until = async (what: string, done: () => Promise<boolean>) => {
    for (const deadline = Date.now() + 20_000; !(await done()); await new Promise((r) => setTimeout(r, 20))) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    }
  };
  const openCalls = async (customerid: number) =>
    (await t.db.query(`SELECT status FROM collection_calls WHERE customer_id = $1 AND status <> 'RESOLVED'`, [customerid])) as unknown[];

  it('leaves no open call on a deal a payment brought up to date while generation ran', async () => {
    const dealid = (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
    const x = await registerCustomer(t, dealid);
    const y = await registerCustomer(t, dealid);
    t.clock.set(new Date('2026-03-20T08:00:00Z')); // both paid up to 2026-03-10: ten days overdue
    const first = await t.http.post('/finance/collections/generate').set('x-access-token', admin).send({}).expect(200);
    expect(first.body).toMatchObject({ opened: 2 });

    // a payments import pays x, then waits for y's deal (held here), its transaction open with x's call closed in it
    await blocker.query('BEGIN');
    await blocker.query('SELECT 1 FROM customer_deals WHERE customer_id = $1 FOR UPDATE', [y.customerid]);
    const file = `externalid,amount,reference,date,customerid\r\nR-X,45000,RACE-X,2026-03-20,${x.customerid}\r\nR-Y,45000,RACE-Y,2026-03-20,${y.customerid}\r\n`;
    const submitted = await t.http.post('/finance/imports').set('x-access-token', admin)
      .field('kind', 'payments').field('mode', 'apply').field('source', 'race')
      .attach('file', Buffer.from(file), { filename: 'race.csv', contentType: 'text/csv' }).expect(202);
    await until('the import waits for y', async () => (await waiting()) >= 1);

    // generation runs meanwhile (the daily job, another instance's, or an operator's button)
    let generated: { status: number; body: { opened: number } } | undefined;
    const generation = t.http.post('/finance/collections/generate').set('x-access-token', admin).send({}).then((r) => (generated = r));
    await until('generation has read the deals', async () => generated !== undefined || (await waiting()) >= 2);
    await blocker.query('COMMIT');
    await generation;
    expect(generated!.status).toBe(200);
    await until('the import done', async () => (await t.http.get(`/finance/imports/${submitted.body.importid}`).set('x-access-token', admin)).body.status === 'DONE');

    const view = (await t.http.get(`/finance/customers/${x.customerid}`).set('x-access-token', admin).expect(200)).body;
    expect(view.deal).toMatchObject({ status: 'UNLOCKED', nextpaymentdate: '2026-04-09' });
    expect(await openCalls(x.customerid)).toEqual([]);
    expect(await openCalls(y.customerid)).toEqual([]);
    // and the next generation, with nothing in flight, opens nothing for them either
    expect((await t.http.post('/finance/collections/generate').set('x-access-token', admin).send({}).expect(200)).body).toMatchObject({ opened: 0 });
  });
});

/**
 * The overdue run skips deals a change holds (a payment decides their state). Collections generation
 * read every overdue deal under a share lock, which the overdue run took for such a change: the two
 * start together 30 s after start (SOON_AFTER_START_MS), and the deals generation was reading waited
 * a whole OVERDUE_CHECK_MINUTES for their lock.
 */
describe('The overdue run next to collections generation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: new Date() }); // the seeded deals fell due ten days before the real today
  });
  afterAll(() => t.close());

  it('locks every overdue deal, also those generation is reading at that moment', async () => {
    const dealid = (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
    const overdue = await seedOverdueDeals(t.databaseUrl, dealid, 4000, 'OVG');
    const generation = t.app.get(CollectionsService).generate();
    await new Promise((resolve) => setTimeout(resolve, 30)); // generation's statement under way
    await t.app.get(ContractJobs).lockOverdue();
    await generation;
    const [{ locked }] = await t.db.query(`SELECT count(*)::int AS locked FROM customer_deals WHERE customer_id = ANY($1) AND status = 'LOCKED'`, [overdue.map((c) => c.customerid)]);
    expect(locked).toBe(overdue.length);
  });
});
