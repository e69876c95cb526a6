import { Role } from '../src/common/auth/role.js';
import { createDeal, dealBody } from './support/fixtures.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('Deals', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token(Role.ADMIN);
  });
  afterAll(() => t.close());

  it('creates a deal: 201 with dealid and the terms as numbers', async () => {
    const body = dealBody({ totalamount: 600000.5, deposit: 60000.25, monthly: 45000.1, months: 12 });
    const res = await t.http.post('/finance/deals/create').set('x-access-token', admin).send(body).expect(201);
    expect(res.body).toEqual({ message: 'Deal created.', dealid: expect.any(Number), dealname: body.dealname, totalamount: 600000.5, deposit: 60000.25, monthly: 45000.1, months: 12, active: true });
  });

  it.each([
    [{ deposit: 700000 }, 'deposit must not exceed totalamount'],
    [{ monthly: 1000 }, 'deposit + monthly × months must be at least totalamount'],
    [{ totalamount: 0 }, 'totalamount must be a positive number'],
    [{ monthly: -5 }, 'monthly must be a positive number'],
    [{ deposit: 10.123 }, 'deposit must be a number with at most 2 decimal places'],
    [{ months: 0 }, 'months must not be less than 1'],
    [{ months: 121 }, 'months must not be greater than 120'],
    [{ months: 1.5 }, 'months must be an integer number'],
    [{ totalamount: '600000' }, 'totalamount must be a number with at most 2 decimal places'],
    [{ dealname: '' }, 'dealname should not be empty'],
    [{ totalamount: 1e21 }, 'totalamount must not exceed 1000000000'],
  ])('refuses %p with 400 naming the rule', async (over, message) => {
    const res = await t.http.post('/finance/deals/create').set('x-access-token', admin).send(dealBody(over)).expect(400);
    expect(res.body.message).toContain(message);
  });

  it('deactivates a deal, idempotently; 404 for an unknown deal', async () => {
    const deal = await createDeal(t);
    const first = await t.http.post('/finance/deals/deactivate').set('x-access-token', admin).send({ dealid: deal.dealid }).expect(200);
    expect(first.body).toMatchObject({ dealid: deal.dealid, active: false });
    const again = await t.http.post('/finance/deals/deactivate').set('x-access-token', admin).send({ dealid: deal.dealid }).expect(200);
    expect(again.body).toEqual(first.body);
    const missing = await t.http.post('/finance/deals/deactivate').set('x-access-token', admin).send({ dealid: 987654 }).expect(404);
    expect(missing.body).toEqual({ message: 'Deal 987654 not found.' });
  });

  it('lists deals, paged, with the active filter', async () => {
    const active = await createDeal(t);
    const inactive = await createDeal(t);
    await t.http.post('/finance/deals/deactivate').set('x-access-token', admin).send({ dealid: inactive.dealid }).expect(200);
    const onlyActive = await t.http.get('/finance/deals?active=true&limit=100').set('x-access-token', await t.token(Role.OPERATOR)).expect(200);
    const ids = onlyActive.body.items.map((d: { dealid: number }) => d.dealid);
    expect(ids).toContain(active.dealid);
    expect(ids).not.toContain(inactive.dealid);
    const onlyInactive = await t.http.get('/finance/deals?active=false').set('x-access-token', admin).expect(200);
    expect(onlyInactive.body.items.every((d: { active: boolean }) => !d.active)).toBe(true);
    const paged = await t.http.get('/finance/deals?page=1&limit=1').set('x-access-token', admin).expect(200);
    expect(paged.body).toMatchObject({ page: 1, limit: 1, total: expect.any(Number) });
    expect(paged.body.items).toHaveLength(1);
    await t.http.get('/finance/deals?active=maybe').set('x-access-token', admin).expect(400);
  });

  it('lets only ADMIN create and deactivate; OPERATOR may list; COLLECTOR and PROVIDER may not', async () => {
    for (const role of [Role.OPERATOR, Role.COLLECTOR, Role.PROVIDER]) {
      await t.http.post('/finance/deals/create').set('x-access-token', await t.token(role)).send(dealBody()).expect(403);
      await t.http.post('/finance/deals/deactivate').set('x-access-token', await t.token(role)).send({ dealid: 1 }).expect(403);
    }
    await t.http.get('/finance/deals').set('x-access-token', await t.token(Role.COLLECTOR)).expect(403);
    await t.http.get('/finance/deals').set('x-access-token', await t.token(Role.PROVIDER)).expect(403);
    await t.http.get('/finance/deals').expect(401);
    await t.http.post('/finance/deals/create').send(dealBody()).expect(401);
  });
});
