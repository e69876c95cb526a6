import { Role } from '../src/common/auth/role.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { startTestApp, TestApp } from './support/test-app.js';

describe('Feedback', () => {
  let t: TestApp;
  let operator: string;
  let collector: string;
  let dealid: number;
  beforeAll(async () => {
    t = await startTestApp();
    operator = await t.token(Role.OPERATOR);
    collector = await t.token(Role.COLLECTOR);
    dealid = (await createDeal(t)).dealid;
  });
  afterAll(() => t.close());

  const create = (body: object, token = operator) => t.http.post('/finance/feedback/create').set('x-access-token', token).send(body);

  it('records feedback: 201 with the stored record, OTHER when no category is given', async () => {
    const c = await registerCustomer(t, dealid);
    const res = await create({ customerid: c.customerid, message: 'The phone does not unlock after paying.', category: 'DEVICE' }).expect(201);
    expect(res.body).toEqual({ feedbackid: expect.any(Number), customerid: c.customerid, category: 'DEVICE', message: 'The phone does not unlock after paying.', createdby: expect.any(Number), createdat: expect.any(String) });
    const plain = await create({ customerid: c.customerid, message: 'Thank you for the quick service.' }, collector).expect(201);
    expect(plain.body.category).toBe('OTHER');
  });

  it('lists feedback newest first, for one customer when asked', async () => {
    const a = await registerCustomer(t, dealid);
    const b = await registerCustomer(t, dealid);
    await create({ customerid: a.customerid, message: 'first' }).expect(201);
    await create({ customerid: b.customerid, message: 'other customer' }).expect(201);
    await create({ customerid: a.customerid, message: 'second', category: 'PAYMENT' }).expect(201);
    const res = await t.http.get(`/finance/feedback?customerid=${a.customerid}`).set('x-access-token', collector).expect(200);
    expect(res.body).toMatchObject({ total: 2, page: 1, limit: 20 });
    expect(res.body.items.map((f: { message: string }) => f.message)).toEqual(['second', 'first']);
    const all = await t.http.get('/finance/feedback?limit=2').set('x-access-token', operator).expect(200);
    expect(all.body.items).toHaveLength(2);
    expect(all.body.total).toBeGreaterThanOrEqual(3);
  });

  it('answers 404 for an unknown customer, in create and in the filter, and stores nothing', async () => {
    const [{ n: before }] = await t.db.query('SELECT count(*)::int AS n FROM feedback');
    expect((await create({ customerid: 987654, message: 'hello' }).expect(404)).body).toEqual({ message: 'Customer 987654 not found.' });
    expect((await t.http.get('/finance/feedback?customerid=987654').set('x-access-token', operator).expect(404)).body).toEqual({ message: 'Customer 987654 not found.' });
    const [{ n: after }] = await t.db.query('SELECT count(*)::int AS n FROM feedback');
    expect(after).toBe(before);
  });

  it.each([
    [{ message: 'no customer' }, 'customerid'],
    [{ customerid: 1 }, 'message'],
    [{ customerid: 1, message: '   ' }, 'message should not be empty'],
    [{ customerid: 1, message: 'x'.repeat(256) }, 'message must be shorter than or equal to 255 characters'],
    [{ customerid: 1, message: 'hi', category: 'PRAISE' }, 'category must be one of PAYMENT, DEVICE, SERVICE, COMPLAINT, OTHER'],
    [{ customerid: '1', message: 'hi' }, 'customerid must be an integer'],
    [{ customerid: 1, message: 'hi', rating: 5 }, 'property rating should not exist'],
  ])('refuses %p with 400', async (body, message) => {
    expect((await create(body).expect(400)).body.message).toContain(message);
  });

  it('is for OPERATOR, COLLECTOR and ADMIN only', async () => {
    const c = await registerCustomer(t, dealid);
    await t.http.post('/finance/feedback/create').send({ customerid: c.customerid, message: 'x' }).expect(401);
    const provider = await t.token(Role.PROVIDER);
    expect((await create({ customerid: c.customerid, message: 'x' }, provider).expect(403)).body).toEqual({ message: 'Forbidden.' });
    await t.http.get('/finance/feedback').set('x-access-token', provider).expect(403);
    await create({ customerid: c.customerid, message: 'x' }, await t.token(Role.ADMIN)).expect(201);
    await t.http.get('/finance/feedback?customerid=abc').set('x-access-token', operator).expect(400);
  });
});
