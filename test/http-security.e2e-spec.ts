import { Role } from '../src/common/auth/role.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { ADMIN, startTestApp, TestApp } from './support/test-app.js';

/** What an outside penetration tester probes over HTTP: caching of personal data, and the like. */
describe('HTTP security', () => {
  let t: TestApp;
  let admin: string;
  let customerid: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token(Role.ADMIN);
    const deal = await createDeal(t);
    customerid = (await registerCustomer(t, deal.dealid)).customerid;
  });
  afterAll(() => t.close());

  it('tells every cache not to keep the API’s answers: tokens, personal data, CSV exports, refusals', async () => {
    const answers = [
      await t.http.post('/api/auth/signin').send(ADMIN).expect(200),
      await t.http.get(`/finance/customers/${customerid}`).set('x-access-token', admin).expect(200),
      await t.http.get('/finance/customers').set('x-access-token', admin).expect(200),
      await t.http.post('/finance/payments/recent').set('x-access-token', admin).send({ customerid }).expect(200),
      await t.http.get('/finance/exports/customers.csv').set('x-access-token', admin).expect(200),
      await t.http.get('/finance/exports/payments.csv').set('x-access-token', admin).expect(200),
      await t.http.get('/finance/customers/999999').set('x-access-token', admin).expect(404),
      await t.http.get('/finance/customers').expect(401),
      await t.http.get('/docs-json').expect(200),
    ];
    expect(answers.map((res) => res.headers['cache-control'])).toEqual(answers.map(() => 'no-store'));
    // the web client's files keep their own caching: hashed assets for good, index.html revalidated
    const index = await t.http.get('/customers/42').expect(200);
    expect(index.headers['cache-control']).toBe('no-cache');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(index.text)![1];
    expect((await t.http.get(asset).expect(200)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
