import { Role } from '../src/common/auth/role.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * The portfolio report at the edges of its range of days. Deal: total 600,000, deposit 60,000,
 * monthly 45,000 (1,500 a day); instalment k due on start + 30 × (k − 1). Ledger rows and
 * repossessions are re-stamped to the service clock's time (the database's clock cannot be moved).
 */
describe('Portfolio report at the edges of its range', () => {
  let t: TestApp;
  let operator: string;
  let admin: string;
  let dealid: number;
  let lastPaymentId = 0;
  const at = (day: string) => new Date(`${day}T09:00:00Z`);

  beforeAll(async () => {
    t = await startTestApp({ now: at('2026-01-01') });
    operator = await t.token(Role.OPERATOR);
    admin = await t.token(Role.ADMIN);
    dealid = (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
  });
  afterAll(async () => {
    try {
      await expectLedgerConsistent(t);
    } finally {
      await t.close();
    }
  });

  const stamp = async () => {
    await t.db.transaction(async (em) => {
      await em.query('ALTER TABLE payments DISABLE TRIGGER payments_immutable');
      await em.query('UPDATE payments SET created_at = $1 WHERE id > $2', [t.clock.now(), lastPaymentId]);
      await em.query('ALTER TABLE payments ENABLE TRIGGER payments_immutable');
      const [{ max }] = await em.query('SELECT COALESCE(max(id), 0)::int AS max FROM payments');
      lastPaymentId = max;
    });
  };
  const register = async (day: string) => {
    t.clock.set(at(day));
    const { customerid } = await registerCustomer(t, dealid);
    await stamp();
    return customerid;
  };
  const pay = async (customerid: number, day: string, amount: number) => {
    t.clock.set(at(day));
    await t.http.post('/finance/payments/load').set('x-access-token', operator).send({ customerid, amount, reference: `EDGE-${customerid}-${day}-${amount}`, narration: 'cash' }).expect(201);
    await stamp();
  };
  const rate = async (startdate: string, enddate: string) =>
    (await t.http.get(`/finance/reports/portfolio?startdate=${startdate}&enddate=${enddate}`).set('x-access-token', admin).expect(200)).body.collection;

  it('counts as due only what has fallen due by today when the range runs past today', async () => {
    // A starts Jan 1 and pays its first instalment; its second falls due on Jan 31, its third on Mar 2.
    const a = await register('2026-01-01');
    await pay(a, '2026-01-01', 45000);
    // On Jan 20 nothing of A's has fallen due since Jan 15: the instalment of Jan 31 is still ahead.
    t.clock.set(at('2026-01-20'));
    expect(await rate('2026-01-15', '2026-02-10')).toEqual({ startdate: '2026-01-15', enddate: '2026-02-10', due: 0, collected: 0, rate: null });
    // The customer pays the coming instalment early: collected, and still nothing has fallen due.
    await pay(a, '2026-01-20', 45000);
    expect(await rate('2026-01-15', '2026-02-10')).toMatchObject({ due: 0, collected: 45000, rate: null });
    // Once the range is over, what fell due in it is the instalment of Jan 31, covered in advance by the payment of
    // Jan 20 made inside the range.
    t.clock.set(at('2026-02-11'));
    expect(await rate('2026-01-15', '2026-02-10')).toMatchObject({ due: 45000, collected: 45000, rate: 1 });
    // A range wholly ahead of today: nothing has fallen due in it yet.
    expect(await rate('2026-02-20', '2026-03-10')).toMatchObject({ due: 0, collected: 0, rate: null });
  });
});
