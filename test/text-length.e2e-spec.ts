import { Role } from '../src/common/auth/role.js';
import { createDeal, registerCustomer, uniqueImei, uniqueTelephone } from './support/fixtures.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * DESIGN part 4: strings ≤ 255 characters; part 10: no value the validator accepts may break a
 * later step. A text column is varchar(255), which PostgreSQL measures in characters (code points),
 * as JSON Schema's maxLength does: the validator must count the same way.
 *
 * - A variation selector (U+FE0F, "show as emoji") after each letter is one more code point each:
 *   "a\uFE0F" × 200 is 400 characters, which the validator used to count as 200, and PostgreSQL
 *   refused (500, on the provider's callback too).
 * - An emoji outside the BMP is one character but two UTF-16 units: 255 of them were accepted by the
 *   API, then refused by the import of the service's own export (it counted UTF-16 units).
 */
describe('Text length is counted in characters, as PostgreSQL and the OpenAPI schema count it', () => {
  let t: TestApp;
  let admin: string;
  let customerid: number;
  const selectors = (n: number) => 'a\uFE0F'.repeat(n);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token(Role.ADMIN);
    const { dealid } = await createDeal(t);
    ({ customerid } = await registerCustomer(t, dealid));
  });
  afterAll(() => t.close());

  const post = (path: string, body: object) => t.http.post(path).set('x-access-token', admin).send(body);

  it('refuses with 400, never 500, a text of 400 characters written as 200 letters with variation selectors', async () => {
    const long = selectors(200);
    const bodies: Array<[string, object]> = [
      ['/finance/amlogs/callback', { transaction: { id: long, amount: 10, tag: 'PAYG-X' } }],
      ['/finance/amlogs/callback', { transaction: { id: 'TX-SELECTORS', amount: 10, tag: long } }],
      ['/finance/payments/load', { customerid, amount: 10, reference: long, narration: 'x' }],
      ['/finance/payments/load', { customerid, amount: 10, reference: 'R-SELECTORS', narration: long }],
      ['/finance/feedback/create', { customerid, message: long }],
      ['/finance/inventory/add', { itemname: long, quantity: 1, unitcost: 1, supplier: 's' }],
      ['/finance/deals/create', { dealname: long, totalamount: 100, deposit: 10, monthly: 10, months: 10 }],
      ['/finance/device/lock-update', { customerid, payg: 'PAYG-X1', serialnumber: long }],
      ['/finance/contracts/repossess', { customerid, reason: long }],
    ];
    const answers = [];
    for (const [path, body] of bodies) {
      const res = await post(path, body);
      answers.push({ path, status: res.status, message: res.body.message });
    }
    expect(answers).toEqual(bodies.map(([path]) => ({ path, status: 400, message: expect.stringMatching(/must be shorter than or equal to 255 characters/) })));
  });

  it('takes 255 characters with variation selectors, and stores them whole', async () => {
    const name = `${selectors(127)}b`;
    expect([...name]).toHaveLength(255);
    const { dealid } = await createDeal(t);
    const registered = await registerCustomer(t, dealid, { fullname: name });
    const [row] = await t.db.query('SELECT fullname FROM customers WHERE id = $1', [registered.customerid]);
    expect(row.fullname).toBe(name);
  });

  it('re-imports an export holding a name of 255 emoji, which the API accepted', async () => {
    const name = '😀'.repeat(255);
    const { dealid } = await createDeal(t);
    const registered = await registerCustomer(t, dealid, { fullname: name, telephone: uniqueTelephone(), imei: uniqueImei() });
    const csv = (await t.http.get('/finance/exports/customers.csv').set('x-access-token', admin).expect(200)).text;
    const checked = await t.http
      .post('/finance/imports')
      .set('x-access-token', admin)
      .field('kind', 'customers')
      .field('mode', 'validate')
      .field('source', 'emoji-round-trip')
      .attach('file', Buffer.from(csv), { filename: 'customers.csv', contentType: 'text/csv' });
    expect(checked.status).toBe(200);
    // every row is in this database already (duplicates are expected); the name itself must be fine
    const row = (csv.split('\r\n').findIndex((line) => line.includes(registered.telephone)) + 1) as number;
    expect(row).toBeGreaterThan(1);
    expect(checked.body.errors.filter((e: { row: number; field: string }) => e.row === row && e.field === 'fullname')).toEqual([]);
  });
});
