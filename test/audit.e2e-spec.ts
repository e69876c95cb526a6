import { Role } from '../src/common/auth/role.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('GET /finance/audit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lists who did what to a customer, payments included, newest first and paged', async () => {
    const operator = await t.user(Role.OPERATOR, 'cashier9');
    const { dealid } = await createDeal(t);
    const customer = await registerCustomer(t, dealid);
    const other = await registerCustomer(t, dealid);
    const load = await t.http
      .post('/finance/payments/load')
      .set('x-access-token', operator.token)
      .send({ customerid: customer.customerid, amount: 45000, reference: 'CASH-A1', narration: 'cash' });
    expect(load.status).toBe(201);
    await t.http.post('/finance/device/unlock-temp').set('x-access-token', operator.token).send({ customerid: customer.customerid, hours: 2 }).expect(200);

    const admin = await t.token(Role.ADMIN);
    const res = await t.http.get('/finance/audit').query({ customerid: customer.customerid }).set('x-access-token', admin).expect(200);
    expect(res.body.total).toBe(3);
    expect(res.body.items.map((e: { route: string }) => e.route)).toEqual(['/finance/device/unlock-temp', '/finance/payments/load', '/finance/customers/register']);
    expect(res.body.items[0]).toMatchObject({ username: 'cashier9', method: 'POST', status: 200, recordid: String(customer.customerid) });
    // exactly the documented fields: the total is the page's, not each entry's
    expect(Object.keys(res.body.items[0]).sort()).toEqual(['at', 'auditid', 'method', 'recordid', 'requestid', 'route', 'status', 'userid', 'username']);
    expect(res.body.items[1]).toMatchObject({ username: 'cashier9', status: 201, recordid: String(customer.customerid) });
    expect(JSON.stringify(res.body)).not.toContain(`"recordid":"${other.customerid}"`);

    const byUser = await t.http.get('/finance/audit').query({ userid: operator.id, limit: 1 }).set('x-access-token', admin).expect(200);
    expect(byUser.body).toMatchObject({ total: 2, page: 1, limit: 1 });
    const byRoute = await t.http.get('/finance/audit').query({ route: '/finance/payments/load' }).set('x-access-token', admin).expect(200);
    expect(byRoute.body.total).toBe(1);
    const bad = await t.http.get('/finance/audit').query({ startdate: '2026-02-01', enddate: '2026-01-01' }).set('x-access-token', admin).expect(400);
    expect(bad.body).toEqual({ message: 'startdate must not be after enddate' });
  });

  it('reads a date range through the (at, id) index; the indexes nothing read are gone (migration DropUnreadIndexes)', async () => {
    const names = (await t.db.query(`SELECT indexname FROM pg_indexes WHERE tablename IN ('audit_log', 'mobile_money_transactions')`)) as Array<{ indexname: string }>;
    expect(names.map((n) => n.indexname)).not.toEqual(expect.arrayContaining(['audit_log_at_idx']));
    expect(names.map((n) => n.indexname)).not.toEqual(expect.arrayContaining(['mobile_money_received_idx']));
    const plan = await t.db.transaction(async (em) => {
      await em.query('SET LOCAL enable_seqscan = off');
      return (await em.query(`EXPLAIN SELECT id FROM audit_log WHERE at >= now() - interval '7 days' AND at < now() ORDER BY at DESC, id DESC LIMIT 20`)) as Array<{ 'QUERY PLAN': string }>;
    });
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain('audit_log_at_id_idx');
  });
});
