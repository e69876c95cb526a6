import pg from 'pg';
import { createTestDatabase, dropTestDatabase } from './support/test-app.js';
import { ADMIN } from './support/test-app.js';
import { uniqueImei, uniqueTelephone } from './support/fixtures.js';
import { api, Instance, signIn, startInstance } from './support/instances.js';

describe('Two service processes on one database', () => {
  let databaseUrl: string;
  let instances: Instance[] = [];
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    instances = await Promise.all([startInstance(databaseUrl), startInstance(databaseUrl)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
    await dropTestDatabase(databaseUrl);
  });

  it('credits concurrent copies of each notification exactly once across both', async () => {
    const [a, b] = instances;
    const admin = await signIn(a.url, ADMIN.username, ADMIN.password);
    await api(a.url, '/finance/users/create', admin, { username: 'provider-x', password: 'provider-pass', role: 'PROVIDER' });
    const providerTokens = [await signIn(a.url, 'provider-x', 'provider-pass'), await signIn(b.url, 'provider-x', 'provider-pass')];
    const deal = await api(a.url, '/finance/deals/create', admin, { dealname: 'Solar kit', totalamount: 900000, deposit: 100000, monthly: 50000, months: 18 });
    const customers: Array<{ customerid: number; payg: string }> = [];
    for (let i = 0; i < 4; i++) {
      const payg = `MI-PAYG-${i}`;
      const res = await api(b.url, '/finance/customers/register', admin, {
        fullname: `Multi ${i}`, telephone: uniqueTelephone(), dealid: deal.body.dealid, deposit: 100000,
        guarantorname: 'G', guarantorcontact: '+256700000999', imei: uniqueImei(), payg,
      });
      expect(res.status).toBe(201);
      customers.push({ customerid: res.body.customerid, payg });
    }
    const notifications = Array.from({ length: 20 }, (_, i) => ({ id: `MI-TX-${i}`, amount: 1000 + i, tag: customers[i % 4].payg }));
    const requests = notifications.flatMap((n) =>
      Array.from({ length: 10 }, (_, copy) => api(instances[copy % 2].url, '/finance/amlogs/callback', providerTokens[copy % 2], { transaction: n })),
    );
    const results = await Promise.all(requests);
    expect(results.filter((r) => r.status !== 200)).toEqual([]);
    expect(results.filter((r) => r.body.status === 'APPLIED')).toHaveLength(20);

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT reference, count(*)::int AS n FROM payments WHERE type = 'MOBILE_MONEY' GROUP BY reference`);
      expect(rows).toHaveLength(20);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      for (const [i, c] of customers.entries()) {
        const expected = notifications.filter((_, j) => j % 4 === i).reduce((sum, n) => sum + n.amount, 100000);
        const { rows: [deal] } = await client.query('SELECT amountpaid FROM customer_deals WHERE customer_id = $1', [c.customerid]);
        expect(Number(deal.amountpaid)).toBe(expected);
      }
    } finally {
      await client.end();
    }
  }, 120_000);
});
