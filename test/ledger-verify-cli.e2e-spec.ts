import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Role } from '../src/common/auth/role.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { startTestApp, TestApp } from './support/test-app.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');

describe('npm run ledger:verify', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: new Date() });
  });
  afterAll(() => t.close());

  const verify = () =>
    run(process.execPath, ['dist/src/cli/ledger-verify.js'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', DATABASE_URL: t.databaseUrl } }).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }),
    );

  it('reports agreement with exit 0, and a tampered deal with exit 1', async () => {
    const deal = await createDeal(t);
    const c = await registerCustomer(t, deal.dealid);
    await t.http.post('/finance/payments/load').set('x-access-token', await t.token(Role.OPERATOR)).send({ customerid: c.customerid, amount: 45000, reference: 'V-1', narration: 'cash' }).expect(201);
    const ok = await verify();
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out.split('\n')[0])).toEqual({ deals: 1, payments: 2, ledgertotal: '105000.00', differences: 0 });
    await t.db.query('UPDATE customer_deals SET amountpaid = amountpaid + 5, balance = balance - 5');
    const bad = await verify();
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('"field":"amountpaid"');
  });
});
