import { Role } from '../src/common/auth/role.js';
import { VALIDATES_AT_ONCE } from '../src/modules/imports/application/imports.service.js';
import { createDeal, registerCustomer, uniqueImei } from './support/fixtures.js';
import { startTestApp, TestApp } from './support/test-app.js';

const HEADER = 'externalid,fullname,telephone,guarantorname,guarantorcontact,imei,payg,serialnumber,dealid,depositpaid,amountpaid,startdate';

/**
 * Many validates sent at once (a script, a stolen admin token, an impatient double-click loop) must
 * not take the database connections everyone else needs: the others keep being served, and the
 * validates beyond what the instance runs at once are answered 429, never a 5xx.
 */
describe('Imports: many validates at once', () => {
  let t: TestApp;
  let admin: string;
  let customerid: number;
  let file: Buffer;

  beforeAll(async () => {
    // a small pool, as an instance's pool is small beside the number of requests a script can send
    t = await startTestApp({ env: { DB_POOL_SIZE: '4' } });
    admin = await t.token(Role.ADMIN);
    const deal = await createDeal(t);
    customerid = (await registerCustomer(t, deal.dealid)).customerid;
    const lines = Array.from({ length: 6000 }, (_, i) =>
      `V${i},Person ${i},+25670${String(1000000 + i)},Guarantor ${i},+256772555002,${uniqueImei()},PGV${i},SN${i},${deal.dealid},${deal.deposit},${deal.deposit},2026-01-01`,
    );
    file = Buffer.from(`${[HEADER, ...lines].join('\r\n')}\r\n`);
  });
  afterAll(() => t.close());

  it(`runs ${VALIDATES_AT_ONCE} at once, answers 429 to the rest, and keeps serving everyone else`, async () => {
    const validate = () =>
      t.http.post('/finance/imports').set('x-access-token', admin).field('kind', 'customers').field('mode', 'validate').attach('file', file, { filename: 'book.csv', contentType: 'text/csv' });
    let sending = true;
    const others: number[] = [];
    const operator = await t.token(Role.OPERATOR);
    const reading = (async () => {
      while (sending) others.push((await t.http.get(`/finance/customers/${customerid}`).set('x-access-token', operator)).status);
    })();
    const answers = await Promise.all(Array.from({ length: 12 }, () => validate()));
    sending = false;
    await reading;
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(VALIDATES_AT_ONCE);
    for (const res of answers.filter((r) => r.status === 200)) expect(res.body).toMatchObject({ rows: 6000, valid: 6000, errorcount: 0 });
    for (const res of answers.filter((r) => r.status === 429)) expect(res.body).toEqual({ message: `${VALIDATES_AT_ONCE} validations are already running: try again when one has finished.` });
    expect(others.length).toBeGreaterThan(0);
    expect(others.filter((s) => s !== 200)).toEqual([]);
    // and a validate sent once the others are done is served
    const after = await validate();
    expect(after.status).toBe(200);
  }, 120_000);
});
