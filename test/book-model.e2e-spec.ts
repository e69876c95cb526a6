import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { Role } from '../src/common/auth/role.js';
import { businessDay } from '../src/common/time/business-date.js';
import { ContractJobs } from '../src/modules/contracts/application/contract-jobs.js';
import { LedgerVerifier } from '../src/modules/contracts/application/ledger-verifier.js';
import { createDeal, registrationBody, uniqueImei, uniqueTelephone } from './support/fixtures.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * A model-based test of the whole book with the business clock moving: random sequences of
 * registrations (PAYG codes in several cases and spacings, devices financed again, cash sales),
 * mobile-money callbacks (matched, waiting, repeated, same id with another amount, full-width and
 * oddly spaced tags, tiny amounts and overpayments), cash loads, assignments, bonus days, temporary
 * unlocks, re-pushes, PAYG code changes, repossessions, customer and payment imports (validate, then
 * apply), collection calls generated, assigned and worked, and clock steps across business-day
 * boundaries in a time zone that is not UTC, with the scheduled jobs run or left behind. After every
 * step: each deal equals what the model and the credit policy give it (status, amountpaid = its
 * ledger, balance, overpaid, bonus days, paid-up date), every accepted notification is credited once
 * or waiting, the ledger verifier finds nothing, each device's newest command matches its deal
 * (nothing locks a device during its temporary unlock), open calls are on overdue deals with the
 * arrears that unlock, and the portfolio report's figures are the model's.
 *
 * The book is one database for the whole file: runs add to it and the clock only moves on.
 * PAYG_MODEL_RUNS, PAYG_MODEL_COMMANDS, PAYG_MODEL_TZ, PAYG_MODEL_START and PAYG_MODEL_SEED vary a
 * run; PAYG_MODEL_TRACE=1 prints each step and the answers counted.
 */
const TZ = process.env.PAYG_MODEL_TZ ?? 'Africa/Kampala';
const RUNS = Number(process.env.PAYG_MODEL_RUNS) || 25;
const MAX_COMMANDS = Number(process.env.PAYG_MODEL_COMMANDS) || 30;
const TRACE = !!process.env.PAYG_MODEL_TRACE;
const START = new Date(process.env.PAYG_MODEL_START ?? '2026-03-10T20:30:00Z');

const DEALS = {
  phone: { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 },
  lamp: { totalamount: 100, deposit: 10, monthly: 10, months: 9 },
  odd: { totalamount: 100000, deposit: 1, monthly: 3333.33, months: 30 },
} as const;
type DealKind = keyof typeof DEALS;
const KINDS: DealKind[] = ['phone', 'phone', 'phone', 'odd', 'odd', 'lamp'];
const BONUS_DAYS_MAX = 90;
const TEMP_UNLOCK_MAX_HOURS = 72;
const DAY = 86_400_000;

const cents = (amount: number) => Math.round(amount * 100);
const fromCents = (c: number) => c / 100;
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY);

interface Pay {
  cents: number;
  at: number;
  repayment: boolean;
  opening?: boolean;
}
interface MCustomer {
  customerid: number;
  key: string;
  imei: string;
  deal: DealKind;
  deposit: number;
  opening: number;
  start: string;
  pays: Pay[];
  bonus: number;
  unlocks: Array<{ at: number; hours: number; until: number }>;
  repossessedAt: number | null;
  /** an import brought it in repossessed: the collection rate expects nothing of it in any range */
  openedRepossessed?: boolean;
  /** the deal was UNLOCKED when its paid-up date passed and the overdue job has not run since (nor has the deal changed) */
  stale?: { pays: number; bonus: number } | null;
}
interface MNote {
  amount: number;
  tagKey: string;
  customer?: MCustomer;
}
interface Model {
  prefix: string;
  notes: Map<string, MNote>;
  manualRefs: Set<string>;
  importSeq: number;
  /** imports applied: the file, its kind and the import's id */
  applied: Array<{ file: string; kind: string; importid: number; externalid: string }>;
}
interface Real {
  t: TestApp;
}

/** Every customer of the file's book, across runs (the reports are over the whole book). */
const book: MCustomer[] = [];
const paidOf = (c: MCustomer) => c.pays.reduce((s, p) => s + p.cents, 0);
const terms = (c: MCustomer) => ({ total: cents(DEALS[c.deal].totalamount), monthly: cents(DEALS[c.deal].monthly), deposit: c.deposit });

/** The status the deal row should show: the credit policy's, or UNLOCKED still while the overdue job has not caught up. */
function storedStatus(c: MCustomer, today: string) {
  const d = derived(c, today);
  return d.status === 'LOCKED' && isStale(c) ? 'UNLOCKED' : d.status;
}
const isStale = (c: MCustomer) => !!c.stale && c.stale.pays === c.pays.length && c.stale.bonus === c.bonus;

function derived(c: MCustomer, today: string) {
  const { total, monthly, deposit } = terms(c);
  const paid = paidOf(c);
  const balance = Math.max(0, total - paid);
  const overpaid = Math.max(0, paid - total);
  const creditable = Math.min(paid, total) - deposit;
  const bought = creditable > 0 ? Math.floor((30 * creditable) / monthly) : 0;
  const npd = addDays(c.start, bought + c.bonus);
  const status = c.repossessedAt !== null ? 'REPOSSESSED' : balance === 0 ? 'PAID_OFF' : npd > today ? 'UNLOCKED' : 'LOCKED';
  let arrears = 0;
  const days = daysBetween(c.start, today) - c.bonus + 1;
  if (days > 0) {
    const cost = Math.ceil((days * monthly) / 30);
    arrears = Math.min(balance, Math.max(0, cost - (paid - deposit)));
  }
  return { paid, balance, overpaid, npd, status, arrears };
}
const active = (s: string) => s === 'LOCKED' || s === 'UNLOCKED';

let t: TestApp;
const tokens = { operator: '', provider: '', admin: '', collector: '' };
let collectorId = 0;
const dealIds = {} as Record<DealKind, number>;
const now = () => t.clock.now().getTime();
const today = () => businessDay(t.clock.now(), TZ);

const stats = new Map<string, number>();
function no5xx(res: { status: number; body: unknown }, what: string) {
  const key = `${what} ${res.status}${what === 'callback' ? ` ${(res.body as { status?: string }).status}` : ''}`;
  stats.set(key, (stats.get(key) ?? 0) + 1);
  if (res.status >= 500) throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
}
const pick = <T>(list: T[], index: number): T | undefined => (list.length ? list[index % list.length] : undefined);
/** A customer of the book, counted from the newest (the book grows across runs). */
const pickCustomer = (index: number): MCustomer | undefined => (book.length ? book[book.length - 1 - (index % Math.min(book.length, 21))] : undefined);
const newestOnImei = (c: MCustomer) => book.filter((o) => o.imei === c.imei).at(-1) === c;

const codeOf = (m: Model, index: number) => `${m.prefix}-PAYG-${index}`;
/** A code written in several ways that name the same code: case, spaces (registration allows ASCII spaces). */
const paygVariant = (code: string, v: number) => [code, code.toLowerCase(), ` ${code.replace('PAYG', 'payg')}  `, code.toUpperCase()][v % 4];
/** A tag: case, width (NFKC), surrounding spaces of several kinds. */
const toFullWidth = (s: string) => [...s].map((ch) => (ch >= '!' && ch <= '~' ? String.fromCharCode(ch.charCodeAt(0) + 0xfee0) : ch)).join('');
const tagVariant = (code: string, v: number) =>
  [code, code.toLowerCase(), `  ${code} `, toFullWidth(code), `\u3000${toFullWidth(code.toLowerCase())}\u3000`, `\u00a0${code.toUpperCase()}`][v % 6];
const tagKeyOf = (tag: string) => tag.normalize('NFKC').trim().toLowerCase();

function applyNote(m: Model, id: string, note: MNote) {
  m.notes.set(id, note);
  if (note.customer) note.customer.pays.push({ cents: note.amount, at: now(), repayment: true });
}
function matchWaiting(m: Model, c: MCustomer) {
  for (const models of allModels)
    for (const note of models.notes.values())
      if (!note.customer && note.tagKey === c.key) {
        note.customer = c;
        c.pays.push({ cents: note.amount, at: now(), repayment: true });
      }
}
const allModels: Model[] = [];
/** When the scheduled jobs last ran (a temporary unlock over since then is not restored yet). */
let lastJobsAt = 0;

type Cmd = fc.AsyncCommand<Model, Real>;

class Register implements Cmd {
  constructor(readonly index: number, readonly variant: number, readonly deal: DealKind, readonly imeiFrom: number, readonly extra: number) {}
  check = () => true;
  async run(m: Model) {
    const payg = paygVariant(codeOf(m, this.index), this.variant);
    const key = payg.trim().toLowerCase();
    // -1: a new device; otherwise the IMEI of some customer of the book
    const from = this.imeiFrom < 0 ? undefined : pickCustomer(this.imeiFrom);
    const imei = from?.imei ?? uniqueImei();
    const d = DEALS[this.deal];
    const deposit = Math.min(cents(d.totalamount), cents(d.deposit) + [0, 1, cents(d.totalamount)][this.extra]);
    const body = registrationBody(dealIds[this.deal], { payg, deposit: fromCents(deposit), imei });
    const res = await t.http.post('/finance/customers/register').set('x-access-token', tokens.operator).send(body);
    no5xx(res, 'register');
    const taken = book.some((c) => c.key === key);
    const busy = book.some((c) => c.imei === imei && active(derived(c, today()).status));
    if (taken || busy) {
      expect([res.status, res.body]).toEqual([409, expect.anything()]);
      return;
    }
    expect([res.status, res.body]).toEqual([201, expect.objectContaining({ customerid: expect.any(Number) })]);
    const c: MCustomer = { customerid: res.body.customerid, key, imei, deal: this.deal, deposit, opening: 0, start: today(), pays: [{ cents: deposit, at: now(), repayment: false }], bonus: 0, unlocks: [], repossessedAt: null };
    book.push(c);
    matchWaiting(m, c);
  }
  toString = () => `register(${this.index}/${this.variant}, ${this.deal}, imei${this.imeiFrom}, +${this.extra})`;
}

const idOf = (m: Model, index: number) => `${m.prefix}-T${index}`;
/** Where a tag comes from: none, nobody's code, a code of the run's pool, or the code of a customer of the book (as registered). */
const tagOf = (m: Model, kind: number, index: number, variant: number) => {
  if (kind === 0) return '';
  if (kind === 1) return `${m.prefix}-NOBODY`;
  const holder = kind === 3 ? pickCustomer(index * 5 + variant) : undefined;
  return tagVariant(holder ? holder.key.toUpperCase() : codeOf(m, index), variant);
};

class Callback implements Cmd {
  constructor(readonly id: number, readonly amount: number, readonly tag: [number, number, number], readonly copies: number) {}
  check = () => true;
  async run(m: Model) {
    const id = idOf(m, this.id);
    const tag = tagOf(m, ...this.tag);
    const send = () => t.http.post('/finance/amlogs/callback').set('x-access-token', tokens.provider).send({ transaction: { id, amount: this.amount, tag, msisdn: '+256700000000' } });
    const answers = await Promise.all(Array.from({ length: this.copies }, send));
    answers.forEach((res) => no5xx(res, 'callback'));
    const known = m.notes.get(id);
    if (known) {
      const expected = known.amount === cents(this.amount) ? 200 : 409;
      for (const res of answers) expect([res.status, res.body]).toEqual([expected, expected === 200 ? expect.objectContaining({ status: 'DUPLICATE' }) : expect.anything()]);
      return;
    }
    const tagKey = tagKeyOf(tag);
    const customer = tagKey ? book.find((c) => c.key === tagKey) : undefined;
    applyNote(m, id, { amount: cents(this.amount), tagKey, customer });
    const statuses = answers.map((res) => (expect([res.status, res.body]).toEqual([200, expect.anything()]), res.body.status as string));
    expect(statuses.filter((s) => s !== 'DUPLICATE')).toEqual([customer ? 'APPLIED' : 'UNMATCHED']);
  }
  toString = () => `callback(id${this.id}, ${this.amount}, tag${this.tag.join('/')}, x${this.copies})`;
}

class Load implements Cmd {
  constructor(readonly customer: number, readonly amount: number, readonly ref: number) {}
  check = () => book.length > 0;
  async run(m: Model) {
    const c = pickCustomer(this.customer)!;
    const reference = `${m.prefix}-R${this.ref}`;
    const res = await t.http.post('/finance/payments/load').set('x-access-token', tokens.operator).send({ customerid: c.customerid, amount: this.amount, reference, narration: 'model' });
    no5xx(res, 'load');
    if (m.manualRefs.has(reference)) {
      expect(res.status).toBe(409);
      return;
    }
    expect([res.status, res.body]).toEqual([201, expect.anything()]);
    m.manualRefs.add(reference);
    c.pays.push({ cents: cents(this.amount), at: now(), repayment: true });
  }
  toString = () => `load(c${this.customer}, ${this.amount}, ref${this.ref})`;
}

class Assign implements Cmd {
  constructor(readonly note: number, readonly customer: number) {}
  check = (m: Readonly<Model>) => m.notes.size > 0 && book.length > 0;
  async run(m: Model) {
    const [id, note] = pick([...m.notes.entries()], this.note)!;
    const c = pickCustomer(this.customer)!;
    const res = await t.http.post('/finance/amlogs/assign').set('x-access-token', tokens.operator).send({ transactionid: id, customerid: c.customerid });
    no5xx(res, 'assign');
    if (note.customer) {
      expect(res.status).toBe(409);
      return;
    }
    expect([res.status, res.body]).toEqual([200, expect.anything()]);
    note.customer = c;
    c.pays.push({ cents: note.amount, at: now(), repayment: true });
  }
  toString = () => `assign(n${this.note}, c${this.customer})`;
}

class Bonus implements Cmd {
  constructor(readonly customer: number, readonly days: number) {}
  check = () => book.length > 0;
  async run() {
    const c = pickCustomer(this.customer)!;
    const res = await t.http.post('/finance/device/bonus-days').set('x-access-token', tokens.operator).send({ customerid: c.customerid, days: this.days });
    no5xx(res, 'bonus');
    const s = derived(c, today()).status;
    const refused = s === 'REPOSSESSED' || s === 'PAID_OFF' || c.bonus + this.days > BONUS_DAYS_MAX;
    expect([res.status, res.body]).toEqual([refused ? 409 : 200, expect.anything()]);
    if (!refused) c.bonus += this.days;
  }
  toString = () => `bonus(c${this.customer}, ${this.days})`;
}

class TempUnlock implements Cmd {
  constructor(readonly customer: number, readonly hours: number) {}
  check = () => book.length > 0;
  async run() {
    const c = pickCustomer(this.customer)!;
    const res = await t.http.post('/finance/device/unlock-temp').set('x-access-token', tokens.operator).send({ customerid: c.customerid, hours: this.hours });
    no5xx(res, 'unlock-temp');
    const s = derived(c, today()).status;
    const granted = c.unlocks.filter((u) => u.at > now() - 30 * DAY).reduce((a, u) => a + u.hours, 0);
    const refused = s === 'REPOSSESSED' || s === 'PAID_OFF' || granted + this.hours > TEMP_UNLOCK_MAX_HOURS;
    expect([res.status, res.body]).toEqual([refused ? 409 : 200, expect.anything()]);
    if (!refused) c.unlocks.push({ at: now(), hours: this.hours, until: now() + this.hours * 3_600_000 });
  }
  toString = () => `unlock-temp(c${this.customer}, ${this.hours}h)`;
}

class Sync implements Cmd {
  constructor(readonly customer: number) {}
  check = () => book.length > 0;
  async run() {
    const c = pickCustomer(this.customer)!;
    const res = await t.http.post('/finance/device/sync-status').set('x-access-token', tokens.operator).send({ customerid: c.customerid });
    no5xx(res, 'sync');
    const d = derived(c, today());
    const ok = d.status !== 'REPOSSESSED' && d.npd > today() && newestOnImei(c);
    expect([res.status, res.body]).toEqual([ok ? 200 : 409, expect.anything()]);
  }
  toString = () => `sync(c${this.customer})`;
}

class LockUpdate implements Cmd {
  constructor(readonly customer: number, readonly index: number, readonly variant: number) {}
  check = () => book.length > 0;
  async run(m: Model) {
    const c = pickCustomer(this.customer)!;
    const payg = paygVariant(codeOf(m, this.index), this.variant);
    const key = payg.trim().toLowerCase();
    const res = await t.http.post('/finance/device/lock-update').set('x-access-token', tokens.operator).send({ customerid: c.customerid, payg, serialnumber: `SN-${m.prefix}` });
    no5xx(res, 'lock-update');
    const taken = book.some((o) => o !== c && o.key === key);
    expect([res.status, res.body]).toEqual([taken ? 409 : 200, expect.anything()]);
    if (taken) return;
    c.key = key;
    matchWaiting(m, c);
  }
  toString = () => `lock-update(c${this.customer}, ${this.index}/${this.variant})`;
}

class Repossess implements Cmd {
  constructor(readonly customer: number) {}
  check = () => book.length > 0;
  async run() {
    const c = pickCustomer(this.customer)!;
    const res = await t.http.post('/finance/contracts/repossess').set('x-access-token', tokens.operator).send({ customerid: c.customerid, reason: 'model' });
    no5xx(res, 'repossess');
    const refused = c.repossessedAt !== null || !newestOnImei(c);
    expect([res.status, res.body]).toEqual([refused ? 409 : 200, expect.anything()]);
    if (!refused) c.repossessedAt = now();
  }
  toString = () => `repossess(c${this.customer})`;
}

/** The clock moves on; the scheduled jobs run (in either order). */
class Step implements Cmd {
  constructor(readonly minutes: number, readonly order: boolean, readonly jobs = true) {}
  check = () => true;
  async run() {
    const before = new Map(book.map((c) => [c, storedStatus(c, today())]));
    t.clock.advance(this.minutes * 60_000);
    const jobs = t.app.get(ContractJobs);
    if (!this.jobs) {
      for (const c of book) if (before.get(c) === 'UNLOCKED' && derived(c, today()).status === 'LOCKED') c.stale = { pays: c.pays.length, bonus: c.bonus };
      return;
    }
    for (const c of book) c.stale = null;
    lastJobsAt = now();
    if (this.order) {
      await jobs.lockOverdue();
      await jobs.endTemporaryUnlocks();
    } else {
      await jobs.endTemporaryUnlocks();
      await jobs.lockOverdue();
    }
  }
  toString = () => `step(${this.minutes}min, ${!this.jobs ? 'no jobs' : this.order ? 'lock first' : 'unlocks first'})`;
}

/** The clock moves to the next business-day boundary, `offset` minutes around it; the jobs run. */
class StepToMidnight implements Cmd {
  constructor(readonly offset: number, readonly order: boolean) {}
  check = () => true;
  async run() {
    const day = today();
    let at = now();
    while (businessDay(new Date(at), TZ) === day) at += 3_600_000;
    at -= 3_600_000;
    while (businessDay(new Date(at), TZ) === day) at += 60_000;
    const target = at + this.offset * 60_000;
    await new Step(Math.max(1, Math.round((target - now()) / 60_000)), this.order).run();
  }
  toString = () => `step-to-midnight(${this.offset}min)`;
}

class Generate implements Cmd {
  check = () => true;
  async run() {
    const res = await t.http.post('/finance/collections/generate').set('x-access-token', tokens.collector).send({});
    no5xx(res, 'generate');
    expect([res.status, res.body.today]).toEqual([200, today()]);
    // every overdue active deal has an open call now
    const calls = await openCalls();
    for (const c of book) {
      const d = derived(c, today());
      if (active(d.status) && d.npd <= today()) expect([c.customerid, calls.has(c.customerid)]).toEqual([c.customerid, true]);
    }
  }
  toString = () => 'generate';
}

class UpdateCall implements Cmd {
  constructor(readonly call: number, readonly assignFirst: boolean) {}
  check = () => true;
  async run() {
    const list = (await t.http.get('/finance/collections/calls?limit=100').set('x-access-token', tokens.admin).expect(200)).body.items as Array<{ callid: number; status: string; assignedto: number | null }>;
    const call = pick(list, this.call);
    if (!call) return;
    if (this.assignFirst) {
      const res = await t.http.post('/finance/collections/assign').set('x-access-token', tokens.admin).send({ callid: call.callid, userid: collectorId });
      no5xx(res, 'call assign');
      expect(res.status).toBe(call.status === 'RESOLVED' ? 409 : 200);
      if (res.status === 200) call.assignedto = collectorId;
    }
    const next = call.status === 'PENDING' ? 'CALLED' : 'RESOLVED';
    const res = await t.http.post('/finance/collections/update').set('x-access-token', tokens.collector).send({ callid: call.callid, status: next, notes: 'model' });
    no5xx(res, 'call update');
    const expected = call.assignedto !== collectorId ? 403 : call.status === 'RESOLVED' ? 409 : 200;
    expect([res.status, res.body]).toEqual([expected, expect.anything()]);
  }
  toString = () => `update-call(${this.call}, ${this.assignFirst ? 'assigned' : 'as is'})`;
}

const upload = (file: string, fields: Record<string, string>) => {
  let req = t.http.post('/finance/imports').set('x-access-token', tokens.admin);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return req.attach('file', Buffer.from(file), { filename: 'book.csv', contentType: 'text/csv' });
};
async function finished(importid: number) {
  for (let i = 0; i < 300; i++) {
    const res = await t.http.get(`/finance/imports/${importid}`).set('x-access-token', tokens.admin);
    if (res.body.status === 'DONE' || res.body.status === 'FAILED') return res.body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`import ${importid} did not finish`);
}

class ImportCustomer implements Cmd {
  constructor(
    readonly index: number,
    readonly variant: number,
    readonly deal: DealKind,
    readonly daysAgo: number,
    readonly paidShare: number,
    readonly imeiFrom: number,
    readonly bonus: number,
    readonly repossessed: boolean,
  ) {}
  check = () => true;
  async run(m: Model) {
    const payg = paygVariant(codeOf(m, this.index), this.variant).trim();
    const key = payg.toLowerCase();
    const d = DEALS[this.deal];
    const start = addDays(today(), -this.daysAgo);
    const deposit = cents(d.deposit);
    const paid = deposit + Math.floor(((cents(d.totalamount) - deposit) * this.paidShare) / 100);
    const from = this.imeiFrom < 0 ? undefined : pickCustomer(this.imeiFrom);
    const imei = from?.imei ?? uniqueImei();
    const header = 'externalid,fullname,telephone,guarantorname,guarantorcontact,imei,payg,serialnumber,dealid,depositpaid,amountpaid,startdate,bonusdays,dealstatus';
    const row = [`${m.prefix}-X${++m.importSeq}`, `Imported ${m.prefix}`, uniqueTelephone(), 'Joseph Okello', '+256701987654', imei, payg, '', dealIds[this.deal], fromCents(deposit), fromCents(paid), start, this.bonus, this.repossessed ? 'REPOSSESSED' : ''].join(',');
    const file = `${header}\r\n${row}\r\n`;
    const taken = book.some((c) => c.key === key);
    const busy = book.some((c) => c.imei === imei && active(derived(c, today()).status));
    const known = book.some((c) => c.imei === imei);
    const closed = this.repossessed || paid >= cents(d.totalamount);
    const refused = taken || busy || (known && closed) || this.daysAgo < 0 || this.bonus > BONUS_DAYS_MAX;
    const v = await upload(file, { kind: 'customers', mode: 'validate', source: m.prefix });
    no5xx(v, 'import validate');
    expect(v.status).toBe(200);
    if (refused) {
      expect([v.body.errors.length > 0, v.body.errors]).toEqual([true, expect.anything()]);
      return;
    }
    expect(v.body.errors).toEqual([]);
    const a = await upload(file, { kind: 'customers', mode: 'apply', source: m.prefix });
    no5xx(a, 'import apply');
    expect(a.status).toBe(202);
    const done = await finished(a.body.importid);
    expect([done.status, done.errors]).toEqual(['DONE', []]);
    m.applied.push({ file, kind: 'customers', importid: a.body.importid, externalid: row.split(',')[0] });
    const [{ id }] = await t.db.query('SELECT id FROM customers WHERE lower(payg) = $1', [key]);
    const c: MCustomer = { customerid: id, key, imei, deal: this.deal, deposit, opening: paid - deposit, start, pays: [{ cents: deposit, at: now(), repayment: false }], bonus: this.bonus, unlocks: [], repossessedAt: this.repossessed ? now() : null, openedRepossessed: this.repossessed };
    if (paid > deposit) c.pays.push({ cents: paid - deposit, at: now(), repayment: false, opening: true });
    book.push(c);
    matchWaiting(m, c);
  }
  toString = () => `import-customer(${this.index}/${this.variant}, ${this.deal}, ${this.daysAgo} days ago, ${this.paidShare}%, imei${this.imeiFrom}, ${this.bonus} bonus${this.repossessed ? ', repossessed' : ''})`;
}

class ImportPayment implements Cmd {
  constructor(readonly customer: number, readonly variant: number, readonly amount: number, readonly ref: number) {}
  check = () => book.length > 0;
  async run(m: Model) {
    const c = pickCustomer(this.customer)!;
    const [{ payg }] = await t.db.query('SELECT payg FROM customers WHERE id = $1', [c.customerid]);
    const reference = `${m.prefix}-R${this.ref}`;
    const externalid = `${m.prefix}-P${++m.importSeq}`;
    const file = `externalid,payg,amount,reference,narration,date\r\n${externalid},${paygVariant(payg, this.variant).trim()},${this.amount},${reference},imported,${today()}\r\n`;
    const v = await upload(file, { kind: 'payments', mode: 'validate', source: m.prefix });
    no5xx(v, 'import validate');
    expect(v.status).toBe(200);
    if (m.manualRefs.has(reference)) {
      expect(v.body.errors.length).toBeGreaterThan(0);
      return;
    }
    expect(v.body.errors).toEqual([]);
    const a = await upload(file, { kind: 'payments', mode: 'apply', source: m.prefix });
    no5xx(a, 'import apply');
    expect(a.status).toBe(202);
    expect((await finished(a.body.importid)).status).toBe('DONE');
    m.applied.push({ file, kind: 'payments', importid: a.body.importid, externalid });
    m.manualRefs.add(reference);
    c.pays.push({ cents: cents(this.amount), at: now(), repayment: true });
  }
  toString = () => `import-payment(c${this.customer}/${this.variant}, ${this.amount}, ref${this.ref})`;
}

/** An applied file again (the earlier answer, nothing doubled), or a new file whose row this source brought in before (skipped). */
class ImportAgain implements Cmd {
  constructor(readonly which: number, readonly overlap: boolean) {}
  check = (m: Readonly<Model>) => m.applied.length > 0;
  async run(m: Model) {
    const earlier = pick(m.applied, this.which)!;
    // the same row under another reference (and a new import): its externalid was brought in already
    const file = this.overlap ? earlier.file.replace(/,(M[0-9a-f]+-R\d)/, `,$1X${++m.importSeq}`).replace('Imported ', `Imported again ${++m.importSeq} `) : earlier.file;
    const a = await upload(file, { kind: earlier.kind, mode: 'apply', source: m.prefix });
    no5xx(a, 'import again');
    if (!this.overlap) {
      expect([a.status, a.body.importid]).toEqual([200, earlier.importid]);
      return;
    }
    expect(a.status).toBe(202);
    const done = await finished(a.body.importid);
    expect([done.status, done.applied, done.skipped]).toEqual(['DONE', 0, 1]);
  }
  toString = () => `import-again(${this.which}${this.overlap ? ', overlapping' : ''})`;
}

async function openCalls(): Promise<Map<number, { amountinarrears: number; daysoverdue: number; status: string }>> {
  const rows = await t.db.query(`SELECT customer_id, status FROM collection_calls WHERE status <> 'RESOLVED'`);
  const map = new Map();
  for (const r of rows) map.set(r.customer_id, r);
  return map;
}

/** Ledger rows and repossessions made since the last step get the service clock's time. */
let lastPaymentId = 0;
async function stamp() {
  await t.db.transaction(async (em) => {
    await em.query('ALTER TABLE payments DISABLE TRIGGER payments_immutable');
    await em.query('UPDATE payments SET created_at = $1 WHERE id > $2', [t.clock.now(), lastPaymentId]);
    await em.query('ALTER TABLE payments ENABLE TRIGGER payments_immutable');
    const [{ max }] = await em.query('SELECT COALESCE(max(id), 0)::int AS max FROM payments');
    lastPaymentId = max;
  });
  for (const c of book)
    if (c.repossessedAt !== null) await t.db.query('UPDATE customer_deals SET repossessed_at = $1 WHERE customer_id = $2 AND repossessed_at <> $1', [new Date(c.repossessedAt), c.customerid]);
}

async function checkBook() {
  const day = today();
  const rows = (await t.db.query(
    `SELECT cd.customer_id, cd.status, cd.amountpaid, cd.balance, cd.overpaid, cd.bonusdays, cd.startdate, cd.nextpaymentdate,
            (SELECT COALESCE(sum(amount), 0) FROM payments p WHERE p.customer_deal_id = cd.id) AS ledger
     FROM customer_deals cd`,
  )) as Array<Record<string, string | number>>;
  const byCustomer = new Map(rows.map((r) => [Number(r.customer_id), r]));
  expect(rows.length).toBe(book.length);
  for (const c of book) {
    const r = byCustomer.get(c.customerid)!;
    const d = derived(c, day);
    expect({ id: c.customerid, status: r.status, amountpaid: cents(Number(r.amountpaid)), ledger: cents(Number(r.ledger)), balance: cents(Number(r.balance)), overpaid: cents(Number(r.overpaid)), bonusdays: r.bonusdays, startdate: r.startdate, npd: r.nextpaymentdate }).toEqual({
      id: c.customerid,
      status: storedStatus(c, day),
      amountpaid: d.paid,
      ledger: d.paid,
      balance: d.balance,
      overpaid: d.overpaid,
      bonusdays: c.bonus,
      startdate: c.start,
      npd: d.npd,
    });
  }
  // notifications: every accepted one a payment (once) or waiting
  for (const model of allModels) {
    const ids = [...model.notes.keys()];
    if (!ids.length) continue;
    const found = (await t.db.query(
      `SELECT t.id, t.status, t.customer_id, t.amount, (SELECT count(*)::int FROM payments p WHERE p.type = 'MOBILE_MONEY' AND p.reference = t.id) AS credited
       FROM mobile_money_transactions t WHERE t.id = ANY($1)`,
      [ids],
    )) as Array<{ id: string; status: string; customer_id: number | null; amount: string; credited: number }>;
    const byId = new Map(found.map((row) => [row.id, row]));
    for (const [id, note] of model.notes) {
      const row = byId.get(id);
      expect([id, cents(Number(row?.amount))]).toEqual([id, note.amount]);
      if (note.customer) expect({ id, ...row }).toMatchObject({ id, status: 'APPLIED', customer_id: note.customer.customerid, credited: 1 });
      else expect({ id, ...row }).toMatchObject({ id, status: 'UNMATCHED', customer_id: null, credited: 0 });
    }
  }
  const report = await t.app.get(LedgerVerifier).verify(day);
  expect(report.differences).toEqual([]);

  // newest command per device
  const commands = (await t.db.query(`SELECT DISTINCT ON (imei) imei, customer_id, action, nextpaymentdate FROM device_commands ORDER BY imei, id DESC`)) as Array<{ imei: string; customer_id: number; action: string; nextpaymentdate: string | null }>;
  const byImei = new Map(commands.map((c) => [c.imei, c]));
  for (const c of book) {
    if (!newestOnImei(c)) continue;
    const last = c.unlocks.at(-1);
    const d = derived(c, day);
    const cmd = byImei.get(c.imei);
    if (last && last.until > now()) {
      // a running temporary unlock: nothing but a repossession locks the device before its end
      const locks = cmd?.action === 'LOCK';
      if (locks) throw new Error(`device locked during its temporary unlock: ${JSON.stringify({ customer: c.customerid, status: d.status, npd: d.npd, cmd })}`);
      continue;
    }
    if (last && last.until > lastJobsAt) continue;
    const what = { customer: c.customerid, status: d.status, npd: d.npd, cmd: cmd && { customer: cmd.customer_id, action: cmd.action, npd: cmd.nextpaymentdate } };
    const ok =
      d.status === 'REPOSSESSED'
        ? cmd?.action === 'PERMANENT_LOCK'
        : d.status === 'PAID_OFF'
          ? cmd?.action === 'RELEASE'
          : d.status === 'UNLOCKED' || storedStatus(c, day) === 'UNLOCKED'
            ? (cmd?.action === 'UNLOCK' || cmd?.action === 'SYNC') && cmd.nextpaymentdate === d.npd
            : cmd === undefined || cmd.action === 'LOCK' || (cmd.action === 'SYNC' && cmd.nextpaymentdate! <= day);
    if (!ok) throw new Error(`device command out of step: ${JSON.stringify(what)}`);
    if (cmd) expect(cmd.customer_id).toBe(c.customerid);
  }

  // open calls only on overdue active deals, with the live arrears
  const calls: Array<{ customerid: number; status: string; amountinarrears: number; daysoverdue: number }> = [];
  for (let page = 1; ; page++) {
    const body = (await t.http.get(`/finance/collections/calls?limit=100&page=${page}`).set('x-access-token', tokens.admin).expect(200)).body;
    calls.push(...body.items);
    if (body.items.length < 100) break;
  }
  for (const call of calls.filter((k) => k.status !== 'RESOLVED')) {
    const c = book.find((o) => o.customerid === call.customerid)!;
    const d = derived(c, day);
    expect({ customer: c.customerid, active: active(d.status), overdue: d.npd <= day }).toEqual({ customer: c.customerid, active: true, overdue: true });
    expect({ customer: c.customerid, arrears: cents(call.amountinarrears), days: call.daysoverdue }).toEqual({ customer: c.customerid, arrears: d.arrears, days: Math.max(0, daysBetween(d.npd, day)) });
  }

  // the portfolio
  await stamp();
  const res = await t.http.get('/finance/reports/portfolio').set('x-access-token', tokens.admin);
  expect(res.status).toBe(200);
  const sum = (f: (c: MCustomer, d: ReturnType<typeof derived>) => number) => book.reduce((s, c) => s + f(c, derived(c, day)), 0);
  const count = (s: string) => book.filter((c) => storedStatus(c, day) === s).length;
  const end = day;
  const startR = addDays(end, -30);
  const inRange = (at: number) => {
    const d = businessDay(new Date(at), TZ);
    return d >= startR && d <= end;
  };
  const collected = sum((c) => c.pays.filter((p) => p.repayment && inRange(p.at)).reduce((s, p) => s + p.cents, 0));
  const scheduled = (c: MCustomer, d: string) => {
    const { total, monthly, deposit } = terms(c);
    return d < c.start ? 0 : Math.min(total - deposit, monthly * (Math.floor(daysBetween(c.start, d) / 30) + 1));
  };
  const due = sum((c) => {
    if (c.start > end || c.openedRepossessed) return 0;
    const repossessedOn = c.repossessedAt === null ? null : businessDay(new Date(c.repossessedAt), TZ);
    if (repossessedOn !== null && repossessedOn < startR) return 0;
    const repaidBefore = c.pays.filter((p) => p.opening || (p.repayment && businessDay(new Date(p.at), TZ) < startR)).reduce((s, p) => s + p.cents, 0);
    const last = repossessedOn !== null && repossessedOn < end ? repossessedOn : end;
    return Math.max(0, scheduled(c, last) - Math.max(scheduled(c, addDays(startR, -1)), repaidBefore));
  });
  expect({
    asof: res.body.asof,
    activedeals: res.body.activedeals,
    outstanding: cents(res.body.outstandingbalance),
    arrears: cents(res.body.amountinarrears),
    par30: cents(res.body.par30balance),
    repossessed: cents(res.body.repossessedbalance),
    book: cents(res.body.bookbalance),
    bystatus: res.body.dealsbystatus,
    collected: cents(res.body.collection.collected),
    due: cents(res.body.collection.due),
  }).toEqual({
    asof: day,
    activedeals: book.filter((c) => active(derived(c, day).status)).length,
    outstanding: sum((c, d) => (active(d.status) ? d.balance : 0)),
    arrears: sum((c, d) => (active(d.status) ? d.arrears : 0)),
    par30: sum((c, d) => (active(d.status) && d.npd < addDays(day, -30) ? d.balance : 0)),
    repossessed: sum((c, d) => (d.status === 'REPOSSESSED' ? d.balance : 0)),
    book: sum((c, d) => d.balance),
    bystatus: { LOCKED: count('LOCKED'), UNLOCKED: count('UNLOCKED'), PAID_OFF: count('PAID_OFF'), REPOSSESSED: count('REPOSSESSED') },
    collected,
    due,
  });
}

describe(`Model: the whole book through time in ${TZ}`, () => {
  beforeAll(async () => {
    t = await startTestApp({ now: START, env: { BUSINESS_TIMEZONE: TZ } });
    tokens.operator = await t.token(Role.OPERATOR);
    tokens.provider = await t.token(Role.PROVIDER);
    tokens.admin = await t.token(Role.ADMIN);
    const collector = await t.user(Role.COLLECTOR);
    tokens.collector = collector.token;
    collectorId = collector.id;
    for (const kind of Object.keys(DEALS) as DealKind[]) dealIds[kind] = (await createDeal(t, DEALS[kind])).dealid;
  });
  afterAll(async () => {
    if (TRACE) console.log([...stats.entries()].sort().map(([k, v]) => `${k}: ${v}`).join('\n'));
    await t?.close();
  });

  const index = (max: number) => fc.integer({ min: 0, max });
  const amountArb = (max = 1_000_000_000) =>
    fc.oneof(
      { arbitrary: fc.constantFrom(0.01, 0.1, 1, 10, 33.33, 1500, 45000, 600000), weight: 2 },
      { arbitrary: fc.integer({ min: 1, max: Math.min(max * 100, 5_000_000) }).map((c) => c / 100), weight: 6 },
      { arbitrary: fc.integer({ min: 1, max: Math.min(max * 100, 100_000_000) }).map((c) => c / 100), weight: 1 },
    );
  const tagArb = fc.tuple(fc.constantFrom(0, 1, 2, 2, 3, 3, 3), index(3), index(5)) as fc.Arbitrary<[number, number, number]>;
  const commands = [
    fc.tuple(index(3), index(3), fc.constantFrom(...KINDS), fc.integer({ min: -1, max: 20 }), fc.constantFrom(0, 0, 0, 1, 2)).map(([i, v, d, im, x]) => new Register(i, v, d, im, x)),
    fc.tuple(index(9), amountArb(), tagArb, fc.integer({ min: 1, max: 3 })).map(([id, a, tag, copies]) => new Callback(id, a, tag, copies)),
    fc.tuple(index(20), amountArb(), index(9)).map(([c, a, ref]) => new Load(c, a, ref)),
    fc.tuple(index(9), index(20)).map(([n, c]) => new Assign(n, c)),
    fc.tuple(index(20), fc.integer({ min: 1, max: 60 })).map(([c, d]) => new Bonus(c, d)),
    fc.tuple(index(20), fc.integer({ min: 1, max: 30 })).map(([c, h]) => new TempUnlock(c, h)),
    fc.tuple(index(20), fc.integer({ min: 1, max: 30 })).map(([c, h]) => new TempUnlock(c, h)),
    fc.tuple(index(20), amountArb(), index(5)).map(([c, a, ref]) => new Load(c, a, ref)),
    fc.tuple(index(5), amountArb(), tagArb, fc.integer({ min: 1, max: 3 })).map(([id, a, tag, copies]) => new Callback(id, a, tag, copies)),
    fc.tuple(index(20), fc.integer({ min: 1, max: 20 })).map(([c, d]) => new Bonus(c, d)),
    index(20).map((c) => new Sync(c)),
    index(20).map((c) => new Repossess(c)),
    fc.tuple(index(20), index(3), index(3)).map(([c, i, v]) => new LockUpdate(c, i, v)),
    fc.tuple(fc.oneof(fc.integer({ min: 1, max: 180 }), fc.integer({ min: 181, max: 4320 })), fc.boolean()).map(([min, o]) => new Step(min, o)),
    fc.tuple(fc.integer({ min: -2, max: 2 }), fc.boolean()).map(([off, o]) => new StepToMidnight(off, o)),
    fc.oneof(fc.integer({ min: 1, max: 180 }), fc.integer({ min: 181, max: 2880 })).map((min) => new Step(min, true, false)),
    fc.constant(null).map(() => new Generate()),
    fc.tuple(index(20), fc.boolean()).map(([c, a]) => new UpdateCall(c, a)),
    fc.tuple(index(9), fc.boolean()).map(([i, o]) => new ImportAgain(i, o)),
    fc
      .tuple(
        index(3),
        index(3),
        fc.constantFrom(...KINDS),
        fc.integer({ min: -1, max: 120 }),
        fc.constantFrom(0, 0, 1, 17, 50, 99, 100),
        fc.constantFrom(-1, -1, -1, 0, 1, 2, 5),
        fc.constantFrom(0, 0, 0, 3, 90, 91),
        fc.constantFrom(false, false, false, true),
      )
      .map(([i, v, d, ago, share, im, bonus, rep]) => new ImportCustomer(i, v, d, ago, share, im, bonus, rep)),
    fc.tuple(index(20), index(3), amountArb(100000), index(5)).map(([c, v, a, ref]) => new ImportPayment(c, v, a, ref)),
  ];

  it(
    `agrees with the model over ${RUNS} runs of up to ${MAX_COMMANDS} operations`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: MAX_COMMANDS, size: 'large' }), async (cmds) => {
          const model: Model = { prefix: `M${randomBytes(4).toString('hex')}`, notes: new Map(), manualRefs: new Set(), importSeq: 0, applied: [] };
          allModels.push(model);
          const wrapped = [...cmds].map((cmd) => ({
            check: (m: Readonly<Model>) => cmd.check(m),
            run: async (m: Model, r: Real) => {
              if (TRACE) console.log(`${t.clock.now().toISOString()} ${today()} ${cmd.toString()}`);
              await cmd.run(m, r);
              await checkBook();
            },
            toString: () => cmd.toString(),
          }));
          await fc.asyncModelRun(() => ({ model, real: { t } }), wrapped);
        }),
        { numRuns: RUNS, endOnFailure: true, seed: process.env.PAYG_MODEL_SEED ? Number(process.env.PAYG_MODEL_SEED) : undefined },
      );
    },
    600_000,
  );
});
