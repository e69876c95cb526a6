import { Role } from '../src/common/auth/role.js';
import { DealsOpenedRepossessed1766880000000 } from '../src/database/migrations/1766880000000-DealsOpenedRepossessed.js';
import { createDeal, registerCustomer, uniqueImei, uniqueTelephone } from './support/fixtures.js';
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

  it('expects nothing, in any range, of a deal the imported book had already repossessed', async () => {
    // B starts Jan 10 and pays nothing: instalments due Jan 10, Feb 9, Mar 11.
    const b = await register('2026-01-10');
    // C starts Feb 20 and is repossessed the same day
    const c = await register('2026-02-20');
    await t.http.post('/finance/contracts/repossess').set('x-access-token', operator).send({ customerid: c, reason: 'Stopped paying' }).expect(200);
    await t.db.query(`UPDATE customer_deals SET repossessed_at = $1 WHERE customer_id = $2`, [new Date('2026-02-20T15:00:00Z'), c]);
    t.clock.set(at('2026-03-01'));
    const february = await rate('2026-02-01', '2026-02-28');
    const before = await rate('2026-02-15', '2026-03-01');
    expect(february).toMatchObject({ due: 90000 }); // B's 2nd, C's 1st
    // Mar 1: the book of the old platform comes in. Its customer started Jan 10 like B, paid the deposit alone, and
    // the old platform took the device back: nothing was expected of that deal in February, nor since.
    const header = 'externalid,fullname,telephone,guarantorname,guarantorcontact,imei,payg,serialnumber,dealid,depositpaid,amountpaid,startdate,dealstatus';
    const row = ['OLD-1', 'Migrated Customer', uniqueTelephone(), 'Joseph Okello', '+256701987654', uniqueImei(), 'OLD-PAYG-1', 'SN-OLD-1', String(dealid), '60000.00', '60000.00', '2026-01-10', 'REPOSSESSED'].join(',');
    const applied = await t.http.post('/finance/imports').set('x-access-token', admin).field('kind', 'customers').field('mode', 'apply')
      .attach('file', Buffer.from(`${header}\r\n${row}\r\n`, 'utf8'), { filename: 'book.csv', contentType: 'text/csv' });
    expect(applied.status).toBe(202);
    for (let i = 0; ; i++) {
      const record = (await t.http.get(`/finance/imports/${applied.body.importid}`).set('x-access-token', admin).expect(200)).body;
      if (record.status === 'DONE') break;
      expect(record.status).not.toBe('FAILED');
      if (i > 300) throw new Error('import did not finish');
      await new Promise((r) => setTimeout(r, 100));
    }
    // the upgrade marks a book imported before it alike, and no deal repossessed here (C)
    const marked = async () => (await t.db.query(`SELECT customer_id, opened_repossessed FROM customer_deals WHERE opened_repossessed`)).map((r: { customer_id: number }) => r.customer_id);
    const imported = await marked();
    expect(imported).toHaveLength(1);
    const runner = t.db.createQueryRunner();
    try {
      await new DealsOpenedRepossessed1766880000000().down(runner);
      await new DealsOpenedRepossessed1766880000000().up(runner);
    } finally {
      await runner.release();
    }
    expect(await marked()).toEqual(imported);
    expect(imported).not.toContain(c);
    await stamp();
    // stamped at the service clock's time of the import, as the database clock would have it
    await t.db.query(`UPDATE customer_deals SET repossessed_at = $1 WHERE opened_repossessed`, [t.clock.now()]);
    const [{ status }] = await t.db.query(`SELECT cd.status FROM customer_deals cd JOIN customers c ON c.id = cd.customer_id WHERE c.payg = 'OLD-PAYG-1'`);
    expect(status).toBe('REPOSSESSED');
    expect(await rate('2026-02-01', '2026-02-28')).toEqual(february);
    expect(await rate('2026-02-15', '2026-03-01')).toEqual(before);
    expect(b).toBeGreaterThan(0);
  });
});
