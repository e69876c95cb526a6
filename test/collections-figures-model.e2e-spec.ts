import fc from 'fast-check';
import { Role } from '../src/common/auth/role.js';
import { Money } from '../src/common/money/money.js';
import { addDays, businessDay } from '../src/common/time/business-date.js';
import { ContractJobs } from '../src/modules/contracts/application/contract-jobs.js';
import { amountInArrears } from '../src/modules/contracts/domain/credit-policy.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * Random books moved through business days in a time zone that is not UTC, checking that the
 * collections and portfolio figures fit together after every step: a call's arrears is exactly what
 * unlocks the device (that amount unlocks and resolves the call, a cent less does not), the calls
 * listed page by page are the calls counted by stats and exported in collections.csv with the same
 * figures, portfolio.csv gives the report's figures, and a range of days that is over keeps its
 * collection rate whatever happens after it.
 *
 * PAYG_FIGURES_RUNS (default 6), PAYG_FIGURES_TZ (default Africa/Kampala) vary a run;
 * PAYG_FIGURES_TRACE=1 prints each step.
 */
const TZ = process.env.PAYG_FIGURES_TZ ?? 'Africa/Kampala';
const RUNS = Number(process.env.PAYG_FIGURES_RUNS) || 6;
const HOUR = 3_600_000;

interface Call {
  callid: number;
  customerid: number;
  status: string;
  amountinarrears: number;
  daysoverdue: number;
  nextpaymentdate: string;
}

describe(`Collections and portfolio figures through business days in ${TZ}`, () => {
  let t: TestApp;
  let operator: string;
  let admin: string;
  let collector: string;
  const dealIds: number[] = [];
  const customers: number[] = [];
  let lastPaymentId = 0;
  /** Collection rates of ranges that were over when first asked: they must never change. */
  const pastRates = new Map<string, unknown>();

  beforeAll(async () => {
    t = await startTestApp({ now: new Date('2026-02-01T06:00:00Z'), env: { BUSINESS_TIMEZONE: TZ } });
    operator = await t.token(Role.OPERATOR);
    admin = await t.token(Role.ADMIN);
    collector = await t.token(Role.COLLECTOR);
    dealIds.push((await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid);
    dealIds.push((await createDeal(t, { totalamount: 100000, deposit: 1, monthly: 3333.33, months: 30 })).dealid);
    dealIds.push((await createDeal(t, { totalamount: 100, deposit: 10, monthly: 10, months: 9 })).dealid);
  });
  afterAll(async () => {
    try {
      await expectLedgerConsistent(t);
    } finally {
      await t.close();
    }
  });

  const today = () => businessDay(t.clock.now(), TZ);
  const stamp = async () => {
    await t.db.transaction(async (em) => {
      await em.query('ALTER TABLE payments DISABLE TRIGGER payments_immutable');
      await em.query('UPDATE payments SET created_at = $1 WHERE id > $2', [t.clock.now(), lastPaymentId]);
      await em.query('ALTER TABLE payments ENABLE TRIGGER payments_immutable');
      const [{ max }] = await em.query('SELECT COALESCE(max(id), 0)::int AS max FROM payments');
      lastPaymentId = max;
    });
  };
  const pay = async (customerid: number, amount: number) => {
    const res = await t.http.post('/finance/payments/load').set('x-access-token', operator).send({ customerid, amount, reference: `FIG-${Math.random()}`, narration: 'cash' });
    expect(res.status).toBe(201);
    await stamp();
    return res.body.deal as { status: string; nextpaymentdate: string };
  };
  const allCalls = async (): Promise<{ items: Call[]; total: number }> => {
    const items: Call[] = [];
    let total = -1;
    for (let page = 1; ; page++) {
      const body = (await t.http.get(`/finance/collections/calls?limit=7&page=${page}`).set('x-access-token', collector).expect(200)).body;
      if (total === -1) total = body.total;
      expect(body.total).toBe(total);
      items.push(...body.items);
      if (body.items.length < 7) break;
    }
    return { items, total };
  };
  const csv = async (name: string) => {
    const text = (await t.http.get(`/finance/exports/${name}`).set('x-access-token', admin).expect(200)).text;
    const [head, ...rows] = text.trim().split('\r\n');
    const columns = head.split(',');
    // the rows read here hold no comma inside a cell (names are "Customer …", notes are plain words)
    return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [columns[i], v])));
  };
  const cents = (n: number | string) => Math.round(Number(n) * 100);

  async function check() {
    await t.app.get(ContractJobs).lockOverdue();
    const day = today();
    // calls: paging, stats, export and live arrears
    const { items, total } = await allCalls();
    expect(items.length).toBe(total);
    expect(new Set(items.map((c) => c.callid)).size).toBe(total);
    const stats = (await t.http.get('/finance/collections/stats').set('x-access-token', collector).expect(200)).body;
    expect(stats).toEqual({
      PENDING: items.filter((c) => c.status === 'PENDING').length,
      CALLED: items.filter((c) => c.status === 'CALLED').length,
      RESOLVED: items.filter((c) => c.status === 'RESOLVED').length,
    });
    const exported = await csv('collections.csv');
    expect(exported.map((r) => [Number(r.callid), r.status, cents(r.amountinarrears), Number(r.daysoverdue), r.nextpaymentdate]).sort((a, b) => (a[0] as number) - (b[0] as number))).toEqual(
      items.map((c) => [c.callid, c.status, cents(c.amountinarrears), c.daysoverdue, c.nextpaymentdate]).sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    const deals = (await t.db.query(
      `SELECT customer_id, status, totalamount, monthly, depositpaid, amountpaid, balance, bonusdays, startdate, nextpaymentdate FROM customer_deals`,
    )) as Array<Record<string, string>>;
    const dealOf = new Map(deals.map((d) => [Number(d.customer_id), d]));
    const arrearsOf = (d: Record<string, string>) =>
      amountInArrears({ totalamount: Money.of(d.totalamount), monthly: Money.of(d.monthly), depositpaid: Money.of(d.depositpaid), startdate: d.startdate }, Money.of(d.amountpaid), Number(d.bonusdays), day);
    const open = items.filter((c) => c.status !== 'RESOLVED');
    for (const call of open) {
      const d = dealOf.get(call.customerid)!;
      expect({ customer: call.customerid, status: d.status, arrears: cents(call.amountinarrears), npd: call.nextpaymentdate }).toEqual({
        customer: call.customerid,
        status: 'LOCKED',
        arrears: cents(arrearsOf(d).toNumber()),
        npd: d.nextpaymentdate,
      });
    }
    expect(new Set(open.map((c) => c.customerid)).size).toBe(open.length);

    // the report and the loan tape
    const report = (await t.http.get('/finance/reports/portfolio').set('x-access-token', admin).expect(200)).body;
    const tape = await csv('portfolio.csv');
    const active = tape.filter((r) => r.status === 'LOCKED' || r.status === 'UNLOCKED');
    const sum = (rows: Array<Record<string, string>>) => rows.reduce((s, r) => s + cents(r.balance), 0);
    expect({
      asof: report.asof,
      activedeals: report.activedeals,
      outstanding: cents(report.outstandingbalance),
      par30: cents(report.par30balance),
      repossessed: cents(report.repossessedbalance),
      book: cents(report.bookbalance),
      bystatus: report.dealsbystatus,
      arrears: cents(report.amountinarrears),
    }).toEqual({
      asof: day,
      activedeals: active.length,
      outstanding: sum(active),
      par30: sum(active.filter((r) => ['31-60', '61-90', '90+'].includes(r.bucket))),
      repossessed: sum(tape.filter((r) => r.status === 'REPOSSESSED')),
      book: sum(tape),
      bystatus: Object.fromEntries(['LOCKED', 'UNLOCKED', 'PAID_OFF', 'REPOSSESSED'].map((s) => [s, tape.filter((r) => r.status === s).length])),
      arrears: deals.filter((d) => d.status === 'LOCKED' || d.status === 'UNLOCKED').reduce((s, d) => s + cents(arrearsOf(d).toNumber()), 0),
    });
    for (const r of active) expect(Number(r.daysoverdue)).toBe(Math.max(0, Math.round((Date.parse(day) - Date.parse(r.nextpaymentdate)) / 86_400_000)));

    // ranges that are over keep their rate
    for (const back of [1, 7, 30]) {
      const enddate = addDays(day, -back);
      const startdate = addDays(enddate, -9);
      const key = `${startdate}/${enddate}`;
      const rate = (await t.http.get(`/finance/reports/portfolio?startdate=${startdate}&enddate=${enddate}`).set('x-access-token', admin).expect(200)).body.collection;
      if (pastRates.has(key)) expect({ key, rate }).toEqual({ key, rate: pastRates.get(key) });
      else pastRates.set(key, rate);
    }
  }

  class Register {
    constructor(readonly deal: number) {}
    check = () => customers.length < 25;
    async run() {
      const deposit = [60000, 1, 10][this.deal];
      customers.push((await registerCustomer(t, dealIds[this.deal], { deposit })).customerid);
      await stamp();
    }
    toString = () => `register(${this.deal})`;
  }
  class Pay {
    constructor(readonly who: number, readonly amount: number) {}
    check = () => customers.length > 0;
    async run() {
      await pay(customers[this.who % customers.length], this.amount);
    }
    toString = () => `pay(${this.who}, ${this.amount})`;
  }
  /** Pays an open call's arrears, a cent short first when `short`: that leaves it locked and the call open. */
  class PayArrears {
    constructor(readonly which: number, readonly short: boolean) {}
    check = () => customers.length > 0;
    async run() {
      await t.app.get(ContractJobs).lockOverdue();
      const open = (await allCalls()).items.filter((c) => c.status !== 'RESOLVED');
      if (!open.length) return;
      const call = open[this.which % open.length];
      const status = async () => (await t.db.query('SELECT status FROM customer_deals WHERE customer_id = $1', [call.customerid]))[0].status;
      if (call.status === 'PENDING' && (await status()) !== 'LOCKED') return;
      let arrears = call.amountinarrears;
      if (this.short && arrears > 0.01) {
        const deal = await pay(call.customerid, Math.round((arrears - 0.01) * 100) / 100);
        expect({ call: call.callid, status: deal.status }).toEqual({ call: call.callid, status: 'LOCKED' });
        const still = (await t.http.get(`/finance/collections/calls?customerid=${call.customerid}&limit=100`).set('x-access-token', collector).expect(200)).body.items.find((c: Call) => c.callid === call.callid);
        expect({ call: call.callid, status: still.status, arrears: still.amountinarrears }).toEqual({ call: call.callid, status: call.status, arrears: 0.01 });
        arrears = 0.01;
      }
      const deal = await pay(call.customerid, arrears);
      expect(['UNLOCKED', 'PAID_OFF']).toContain(deal.status);
      if (deal.status === 'UNLOCKED') expect(deal.nextpaymentdate > today()).toBe(true);
      const after = (await t.http.get(`/finance/collections/calls?customerid=${call.customerid}&limit=100`).set('x-access-token', collector).expect(200)).body.items.find((c: Call) => c.callid === call.callid);
      expect({ call: call.callid, status: after.status }).toEqual({ call: call.callid, status: 'RESOLVED' });
    }
    toString = () => `payArrears(${this.which}, ${this.short})`;
  }
  class Bonus {
    constructor(readonly who: number, readonly days: number) {}
    check = () => customers.length > 0;
    async run() {
      const res = await t.http.post('/finance/customers/bonus').set('x-access-token', operator).send({ customerid: customers[this.who % customers.length], days: this.days });
      expect([200, 409]).toContain(res.status);
    }
    toString = () => `bonus(${this.who}, ${this.days})`;
  }
  class TempUnlock {
    constructor(readonly who: number, readonly hours: number) {}
    check = () => customers.length > 0;
    async run() {
      const res = await t.http.post('/finance/device/unlock-temp').set('x-access-token', operator).send({ customerid: customers[this.who % customers.length], hours: this.hours });
      expect([200, 409]).toContain(res.status);
    }
    toString = () => `tempUnlock(${this.who}, ${this.hours})`;
  }
  class Repossess {
    constructor(readonly who: number) {}
    check = () => customers.length > 0;
    async run() {
      const customerid = customers[this.who % customers.length];
      const res = await t.http.post('/finance/contracts/repossess').set('x-access-token', operator).send({ customerid, reason: 'Stopped paying' });
      expect([200, 409]).toContain(res.status);
      if (res.status === 200) await t.db.query('UPDATE customer_deals SET repossessed_at = $1 WHERE customer_id = $2', [t.clock.now(), customerid]);
    }
    toString = () => `repossess(${this.who})`;
  }
  class Work {
    constructor(readonly which: number) {}
    check = () => true;
    async run() {
      const open = (await allCalls()).items.filter((c) => c.status !== 'RESOLVED');
      if (!open.length) return;
      const call = open[this.which % open.length];
      await t.http.post('/finance/collections/update').set('x-access-token', operator).send({ callid: call.callid, status: call.status === 'PENDING' ? 'CALLED' : 'RESOLVED', notes: 'Spoke to them' }).expect(200);
    }
    toString = () => `work(${this.which})`;
  }
  class Generate {
    check = () => true;
    async run() {
      await t.app.get(ContractJobs).lockOverdue();
      await t.http.post('/finance/collections/generate').set('x-access-token', collector).send({}).expect(200);
    }
    toString = () => 'generate';
  }
  class Step {
    constructor(readonly hours: number) {}
    check = () => true;
    async run() {
      t.clock.advance(this.hours * HOUR);
    }
    toString = () => `step(${this.hours}h)`;
  }

  const index = fc.integer({ min: 0, max: 30 });
  const commands = [
    fc.integer({ min: 0, max: 2 }).map((d) => new Register(d)),
    fc.integer({ min: 0, max: 2 }).map((d) => new Register(d)),
    fc.tuple(index, fc.oneof(fc.constantFrom(0.01, 10, 1500, 3333.33, 45000, 540000), fc.integer({ min: 1, max: 10_000_000 }).map((c) => c / 100))).map(([w, a]) => new Pay(w, a)),
    fc.tuple(index, fc.boolean()).map(([w, s]) => new PayArrears(w, s)),
    fc.tuple(index, fc.boolean()).map(([w, s]) => new PayArrears(w, s)),
    fc.tuple(index, fc.integer({ min: 1, max: 20 })).map(([w, d]) => new Bonus(w, d)),
    fc.tuple(index, fc.integer({ min: 1, max: 24 })).map(([w, h]) => new TempUnlock(w, h)),
    index.map((w) => new Repossess(w)),
    index.map((w) => new Work(w)),
    fc.constant(null).map(() => new Generate()),
    fc.constant(null).map(() => new Generate()),
    fc.integer({ min: 1, max: 80 }).map((h) => new Step(h)),
    fc.integer({ min: 1, max: 80 }).map((h) => new Step(h)),
    fc.integer({ min: 24 * 5, max: 24 * 40 }).map((h) => new Step(h)),
  ];

  it(
    'keeps arrears, calls, stats, exports and past collection rates in step',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 40, size: 'large' }), async (cmds) => {
          const wrapped = [...cmds].map((cmd) => ({
            check: (model: object) => cmd.check(model),
            run: async (model: object, real: object) => {
              if (process.env.PAYG_FIGURES_TRACE) console.log(`${t.clock.now().toISOString()} ${today()} ${cmd.toString()}`);
              await cmd.run(model, real);
              await check();
            },
            toString: () => cmd.toString(),
          }));
          await fc.asyncModelRun(() => ({ model: {}, real: {} }), wrapped);
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
    },
    600_000,
  );
});
