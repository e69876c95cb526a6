import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { Role } from '../src/common/auth/role.js';
import { ProviderSimulator, startProviderSimulator } from '../tools/simulators/provider-simulator.js';
import { createDeal, registrationBody } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { runLedgerVerify } from './support/faults.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * A model-based test (issue 14): random sequences of registrations, cash loads, callbacks (colliding
 * ids and references, 255-character values, letter-case variants of PAYG codes, amounts from 0.01 to
 * 1e9, concurrent copies), provider look-ups, assignments, bonus days, temporary unlocks and
 * repossessions, each checked against a small model, and after every step: no 5xx, every accepted
 * payment either in the ledger for the customer the model expects or waiting for an operator,
 * balances equal to the ledger, every deal what the credit policy derives from its ledger.
 *
 * Each run works in a namespace of its own (a prefix on codes and ids) on one shared database, so
 * the runs also prove that nothing of one run leaks into another. PAYG_LONG_TESTS=1 runs longer.
 */
const LONG = process.env.PAYG_LONG_TESTS === '1';
const RUNS = Number(process.env.PAYG_MODEL_RUNS) || (LONG ? 400 : 30);
const MAX_COMMANDS = LONG ? 60 : 25;
const TODAY = '2026-03-10';

const DEALS = {
  phone: { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 },
  lamp: { totalamount: 100, deposit: 10, monthly: 10, months: 9 },
} as const;
type DealKind = keyof typeof DEALS;
const BONUS_DAYS_MAX = 90;
const TEMP_UNLOCK_MAX_HOURS = 72;

/** Amounts are kept in cents as integers (exact up to 2^53: far beyond what a run can pay). */
const cents = (amount: number) => Math.round(amount * 100);

interface MCustomer {
  customerid: number;
  key: string;
  deal: DealKind;
  paid: number;
  bonus: number;
  unlockHours: number;
  repossessed: boolean;
}
interface MNote {
  amount: number;
  tagKey: string;
  customer?: MCustomer;
}
interface Model {
  prefix: string;
  customers: MCustomer[];
  notes: Map<string, MNote>;
  manualRefs: Set<string>;
}
interface Real {
  t: TestApp;
}

const isPaidOff = (c: MCustomer) => c.paid >= cents(DEALS[c.deal].totalamount);

/** A PAYG code of the run's pool (4 codes), written in one of several letter cases. */
const paygOf = (m: Model, index: number, variant: number) => {
  const code = `${m.prefix}-PAYG-${index}`;
  return [code, code.toLowerCase(), code.replace(/PAYG/, 'payg'), code.toUpperCase()][variant];
};
/** The strings used both as transaction ids and as cash references, so that they collide. */
const idOf = (m: Model, index: number) => {
  if (index === 4 && m.customers.length > 0) return `DEPOSIT-${m.customers[0].customerid}`;
  if (index === 5) return `${m.prefix}-`.padEnd(255, 'Z');
  return `${m.prefix}-T${index}`;
};
const pick = <T>(list: T[], index: number): T | undefined => (list.length ? list[index % list.length] : undefined);

const amountArb = fc.oneof(
  fc.constantFrom(0.01, 1, 10, 45000, 999_999_999, 1_000_000_000),
  fc.integer({ min: 1, max: 100_000_000_000 }).map((c) => c / 100),
);

function expectNo5xx(res: { status: number; body: unknown }, what: string) {
  if (res.status >= 500) throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
}

/** A notification as the model expects it to land: on the customer holding its tag, or waiting. */
function receiveInModel(m: Model, id: string, amount: number, tag: string): 'APPLIED' | 'UNMATCHED' {
  const tagKey = tag.trim().toLowerCase();
  const customer = tagKey ? m.customers.find((c) => c.key === tagKey) : undefined;
  m.notes.set(id, { amount, tagKey, customer });
  if (customer) customer.paid += amount;
  return customer ? 'APPLIED' : 'UNMATCHED';
}

class Register implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly index: number,
    readonly variant: number,
    readonly deal: DealKind,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const payg = paygOf(m, this.index, this.variant);
    const key = payg.toLowerCase();
    const body = registrationBody(dealIds[this.deal], { payg, deposit: DEALS[this.deal].deposit });
    const res = await r.t.http.post('/finance/customers/register').set('x-access-token', tokens.operator).send(body);
    expectNo5xx(res, 'register');
    if (m.customers.some((c) => c.key === key)) {
      expect(res.status).toBe(409);
      return;
    }
    expect(res.status).toBe(201);
    const customer: MCustomer = { customerid: res.body.customerid, key, deal: this.deal, paid: cents(DEALS[this.deal].deposit), bonus: 0, unlockHours: 0, repossessed: false };
    m.customers.push(customer);
    // what was paid under this code before the customer existed is applied at registration
    for (const note of m.notes.values()) {
      if (!note.customer && note.tagKey === key) {
        note.customer = customer;
        customer.paid += note.amount;
      }
    }
  }
  toString = () => `register(${this.index}/${this.variant}, ${this.deal})`;
}

class Load implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly customer: number,
    readonly amount: number,
    readonly ref: number,
  ) {}
  check = (m: Readonly<Model>) => m.customers.length > 0;
  async run(m: Model, r: Real) {
    const c = pick(m.customers, this.customer)!;
    const reference = idOf(m, this.ref);
    const res = await r.t.http
      .post('/finance/payments/load')
      .set('x-access-token', tokens.operator)
      .send({ customerid: c.customerid, amount: this.amount, reference, narration: 'model' });
    expectNo5xx(res, 'load');
    if (m.manualRefs.has(reference)) {
      expect(res.status).toBe(409);
      return;
    }
    expect(res.status).toBe(201);
    m.manualRefs.add(reference);
    c.paid += cents(this.amount);
  }
  toString = () => `load(c${this.customer}, ${this.amount}, ref${this.ref})`;
}

/** Where a callback's tag comes from: a code of the pool in some case and spacing, nobody's code, or no code. */
const tagOf = (m: Model, kind: number, index: number, variant: number) => {
  if (kind === 0) return '';
  if (kind === 1) return `${m.prefix}-NOBODY`;
  const code = paygOf(m, index, variant);
  return kind === 2 ? code : `  ${code.toLowerCase()} `;
};

class Callback implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly id: number,
    readonly amount: number,
    readonly tag: [number, number, number],
    readonly copies: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const id = idOf(m, this.id);
    const tag = tagOf(m, ...this.tag);
    const send = () => r.t.http.post('/finance/amlogs/callback').set('x-access-token', tokens.provider).send({ transaction: { id, amount: this.amount, tag, msisdn: '+256700000000' } });
    const answers = await Promise.all(Array.from({ length: this.copies }, send));
    answers.forEach((res) => expectNo5xx(res, 'callback'));
    const known = m.notes.get(id);
    if (known) {
      const expected = known.amount === cents(this.amount) ? 200 : 409;
      for (const res of answers) expect(res.status).toBe(expected);
      if (expected === 200) answers.forEach((res) => expect(res.body.status).toBe('DUPLICATE'));
      return;
    }
    const outcome = receiveInModel(m, id, cents(this.amount), tag);
    const statuses = answers.map((res) => (expect(res.status).toBe(200), res.body.status as string));
    expect(statuses.filter((s) => s !== 'DUPLICATE')).toEqual([outcome]);
  }
  toString = () => `callback(id${this.id}, ${this.amount}, tag${this.tag.join('/')}, ×${this.copies})`;
}

class Lookup implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly id: number,
    readonly amount: number,
    readonly tag: [number, number, number],
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const id = idOf(m, this.id);
    const tag = tagOf(m, ...this.tag);
    sim.addTransaction({ id, amount: this.amount, tag, status: 'SUCCESS', timestamp: `${TODAY}T07:00:00.000Z` });
    const res = await r.t.http.post('/finance/amlogs/lookup').set('x-access-token', tokens.operator).send({ startdate: TODAY, enddate: TODAY });
    expectNo5xx(res, 'lookup');
    expect(res.status).toBe(200);
    // a transaction already stored with another amount is skipped; everything else lands as a callback would
    if (!m.notes.has(id)) receiveInModel(m, id, cents(this.amount), tag);
  }
  toString = () => `lookup(id${this.id}, ${this.amount}, tag${this.tag.join('/')})`;
}

class Assign implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly note: number,
    readonly customer: number,
  ) {}
  check = (m: Readonly<Model>) => m.notes.size > 0 && m.customers.length > 0;
  async run(m: Model, r: Real) {
    const [id, note] = pick([...m.notes.entries()], this.note)!;
    const c = pick(m.customers, this.customer)!;
    const res = await r.t.http.post('/finance/amlogs/assign').set('x-access-token', tokens.operator).send({ transactionid: id, customerid: c.customerid });
    expectNo5xx(res, 'assign');
    if (note.customer) {
      expect(res.status).toBe(409);
      return;
    }
    expect(res.status).toBe(200);
    note.customer = c;
    c.paid += note.amount;
  }
  toString = () => `assign(n${this.note}, c${this.customer})`;
}

class Bonus implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly customer: number,
    readonly days: number,
  ) {}
  check = (m: Readonly<Model>) => m.customers.length > 0;
  async run(m: Model, r: Real) {
    const c = pick(m.customers, this.customer)!;
    const res = await r.t.http.post('/finance/device/bonus-days').set('x-access-token', tokens.operator).send({ customerid: c.customerid, days: this.days });
    expectNo5xx(res, 'bonus');
    const refused = c.repossessed || isPaidOff(c) || c.bonus + this.days > BONUS_DAYS_MAX;
    expect(res.status).toBe(refused ? 409 : 200);
    if (!refused) c.bonus += this.days;
  }
  toString = () => `bonus(c${this.customer}, ${this.days})`;
}

class TempUnlock implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly customer: number,
    readonly hours: number,
  ) {}
  check = (m: Readonly<Model>) => m.customers.length > 0;
  async run(m: Model, r: Real) {
    const c = pick(m.customers, this.customer)!;
    const res = await r.t.http.post('/finance/device/unlock-temp').set('x-access-token', tokens.operator).send({ customerid: c.customerid, hours: this.hours });
    expectNo5xx(res, 'unlock-temp');
    const refused = c.repossessed || isPaidOff(c) || c.unlockHours + this.hours > TEMP_UNLOCK_MAX_HOURS;
    expect(res.status).toBe(refused ? 409 : 200);
    if (!refused) c.unlockHours += this.hours;
  }
  toString = () => `unlock-temp(c${this.customer}, ${this.hours}h)`;
}

class Repossess implements fc.AsyncCommand<Model, Real> {
  constructor(readonly customer: number) {}
  check = (m: Readonly<Model>) => m.customers.length > 0;
  async run(m: Model, r: Real) {
    const c = pick(m.customers, this.customer)!;
    const res = await r.t.http.post('/finance/contracts/repossess').set('x-access-token', tokens.operator).send({ customerid: c.customerid, reason: 'model' });
    expectNo5xx(res, 'repossess');
    expect(res.status).toBe(c.repossessed ? 409 : 200);
    c.repossessed = true;
  }
  toString = () => `repossess(c${this.customer})`;
}

/** After every step: the service agrees with the model, and every deal with its ledger. */
async function checkAgainstModel(m: Model, r: Real) {
  for (const c of m.customers) {
    const res = await r.t.http.get(`/finance/customers/${c.customerid}`).set('x-access-token', tokens.operator).expect(200);
    const deal = res.body.deal;
    expect(cents(deal.amountpaid)).toBe(c.paid);
    expect(deal.bonusdays).toBe(c.bonus);
    expect(deal.status).toBe(c.repossessed ? 'REPOSSESSED' : isPaidOff(c) ? 'PAID_OFF' : deal.status);
    if (!c.repossessed && !isPaidOff(c)) expect(['LOCKED', 'UNLOCKED']).toContain(deal.status);
  }
  const ids = [...m.notes.keys()];
  if (ids.length) {
    const rows = (await r.t.db.query(
      `SELECT t.id, t.status, t.customer_id, t.amount, (SELECT count(*)::int FROM payments p WHERE p.type = 'MOBILE_MONEY' AND p.reference = t.id) AS credited
       FROM mobile_money_transactions t WHERE t.id = ANY($1)`,
      [ids],
    )) as Array<{ id: string; status: string; customer_id: number | null; amount: string; credited: number }>;
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const [id, note] of m.notes) {
      const row = byId.get(id);
      expect(row).toBeDefined();
      expect(cents(Number(row!.amount))).toBe(note.amount);
      if (note.customer) expect(row).toMatchObject({ status: 'APPLIED', customer_id: note.customer.customerid, credited: 1 });
      else expect(row).toMatchObject({ status: 'UNMATCHED', customer_id: null, credited: 0 });
    }
  }
  await expectLedgerConsistent(r.t);
}

const tokens = { operator: '', provider: '' };
const dealIds = {} as Record<DealKind, number>;
let sim: ProviderSimulator;

describe('Model-based: sequences of money operations agree with a model after every step', () => {
  let t: TestApp;
  beforeAll(async () => {
    sim = await startProviderSimulator({ apiKey: 'model-key' });
    t = await startTestApp({ now: new Date(`${TODAY}T08:00:00Z`), env: { MOBILE_MONEY_API_URL: sim.url, MOBILE_MONEY_API_KEY: 'model-key' } });
    tokens.operator = await t.token(Role.OPERATOR);
    tokens.provider = await t.token(Role.PROVIDER);
    for (const kind of Object.keys(DEALS) as DealKind[]) dealIds[kind] = (await createDeal(t, DEALS[kind])).dealid;
  });
  afterAll(async () => {
    await t?.close();
    await sim?.close();
  });

  const index = (max: number) => fc.integer({ min: 0, max });
  const tagArb = fc.tuple(index(3), index(3), index(3)) as fc.Arbitrary<[number, number, number]>;
  const commands = [
    fc.tuple(index(3), index(3), fc.constantFrom<DealKind>('phone', 'lamp')).map(([i, v, d]) => new Register(i, v, d)),
    fc.tuple(index(9), amountArb, index(5)).map(([c, a, ref]) => new Load(c, a, ref)),
    fc.tuple(index(5), amountArb, tagArb, fc.integer({ min: 1, max: 4 })).map(([id, a, tag, copies]) => new Callback(id, a, tag, copies)),
    fc.tuple(index(5), amountArb, tagArb).map(([id, a, tag]) => new Lookup(id, a, tag)),
    fc.tuple(index(9), index(9)).map(([n, c]) => new Assign(n, c)),
    fc.tuple(index(9), fc.integer({ min: 1, max: 365 })).map(([c, d]) => new Bonus(c, d)),
    fc.tuple(index(9), fc.integer({ min: 1, max: 168 })).map(([c, h]) => new TempUnlock(c, h)),
    index(9).map((c) => new Repossess(c)),
  ];

  it(
    `agrees with the model over ${RUNS} random sequences of up to ${MAX_COMMANDS} operations`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: MAX_COMMANDS, size: 'large' }), async (cmds) => {
          sim.reset();
          const model: Model = { prefix: `M${randomBytes(4).toString('hex')}`, customers: [], notes: new Map(), manualRefs: new Set() };
          const real: Real = { t };
          // each command checks the service against the model once it has run
          const checked = [...cmds].map((cmd) => ({
            check: (m: Readonly<Model>) => cmd.check(m),
            run: async (m: Model, r: Real) => {
              if (process.env.PAYG_MODEL_TRACE) console.log(cmd.toString());
              await cmd.run(m, r);
              await checkAgainstModel(m, r);
            },
            toString: () => cmd.toString(),
          }));
          await fc.asyncModelRun(() => ({ model, real }), checked);
        }),
        { numRuns: RUNS },
      );
    },
    LONG ? 3_600_000 : 300_000,
  );

  it('leaves a ledger that npm run ledger:verify finds clean', async () => {
    expect(await runLedgerVerify(t.databaseUrl)).toEqual({ code: 0, out: expect.stringContaining('"differences":0') });
  });
});
