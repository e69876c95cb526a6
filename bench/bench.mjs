// npm run bench: measures the service against the raw node+pg baseline on this machine.
// Env: BENCH_CUSTOMERS (default 100000), BENCH_SECONDS (per run, default 10), BENCH_CONNECTIONS (default 8,32,64),
// BENCH_SCENARIOS (default all: callback,load,register,read,summary), BENCH_DATABASE_URL (else an embedded PostgreSQL),
// BENCH_PROFILE=1 (write a CPU profile of the service to bench/profiles/), BENCH_RAW=0 (skip the raw baseline),
// BENCH_RESULTS (where to write the results, default bench/results.json), BENCH_INSTANCES (service processes
// on the one database, default 1; the load is shared out among them, p50/p99 are the worst instance's).
// BENCH_WARMUP (seconds of unrecorded load before each scenario, default 3). BENCH_RATE: requests a second the
// connections send together (an open load at that rate; default 0, as fast as answers come back). Each row also gets cpuMsPerRequest:
// the CPU time of the serving process(es) and of the bench PostgreSQL server per request (Linux /proc).
// Scenario import (not in the default list): a CSV of BENCH_IMPORT_ROWS customers (default 100000) POSTed to
// /finance/imports in apply mode and polled until DONE; seconds from the POST and the service's peak RSS.
// Scenario export (not in the default list): BENCH_EXPORT_PAYMENTS payments (default 1000000, seeded by SQL)
// streamed as /finance/exports/payments.csv; seconds, rows, and the service's RSS while streaming (peak and spread).
// Both sample the service's RSS from /proc/<pid>/status (its high-water mark reset first via clear_refs).
// Scenario search (not in the default list): GET /finance/customers?search= by name, telephone, PAYG code or account.
// Scenario signin-flood (not in the default list): authenticated reads measured while BENCH_FLOOD_CONNECTIONS
// (default 64) connections send sign-ins with random usernames, at most BENCH_FLOOD_RATE a second (default 300;
// 0: as fast as they can); BENCH_SIGNIN_ADDRESS_LIMIT sets the service's
// SIGNIN_ADDRESS_LIMIT (e.g. 1000000 so that every attempt reaches argon2 instead of the 429 of the address limit).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import jwt from 'jsonwebtoken';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '8,32,64').split(',').map(Number);
const SCENARIOS = (process.env.BENCH_SCENARIOS ?? 'callback,load,register,read,summary').split(',');
const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 1);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3); // seconds of unrecorded load before each scenario (JIT, pool, caches)
const RATE = Number(process.env.BENCH_RATE ?? 0); // requests a second across the connections (0: as fast as they are answered)
const FLOOD_CONNECTIONS = Number(process.env.BENCH_FLOOD_CONNECTIONS ?? 64);
const FLOOD_RATE = Number(process.env.BENCH_FLOOD_RATE ?? 300);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const EXPORT_PAYMENTS = Number(process.env.BENCH_EXPORT_PAYMENTS ?? 1_000_000);
const SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
const log = (...a) => console.error(...a);

const freePort = () => new Promise((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); }); });
const waitFor = async (url) => { for (let i = 0; i < 300; i++) { if (await fetch(url).then((r) => r.ok, () => false)) return; await new Promise((r) => setTimeout(r, 200)); } throw new Error(`${url} did not answer`); };

async function database() {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, stop: async () => {} };
  const { startEmbeddedPostgres } = await import(join(ROOT, 'dist/src/database/embedded-postgres.js'));
  const dataDir = mkdtempSync(join(tmpdir(), 'payg-bench-'));
  const db = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'payg_bench' });
  return { url: db.url, stop: async () => { await db.stop(); rmSync(dataDir, { recursive: true, force: true }); } };
}

function progress(label, done, total) {
  const width = 30, filled = Math.round((done / total) * width);
  process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
  if (done === total) process.stderr.write('\n');
}

// Seeded customers' names: surname, first name and second name, as a book in Uganda holds them ("Nakato Aisha
// Grace"), from the lists below: 216,000 different names, each held by about 5 of 1,000,000 customers. Search is
// measured on such names; over names that share a word ("Bench 1", "Bench 2", ...) each name search reads the
// whole trigram index entry of that word.
const FIRST_NAMES = ['Aisha', 'Amina', 'Agnes', 'Annet', 'Brenda', 'Betty', 'Charles', 'Christine', 'Daniel', 'David', 'Dorothy', 'Edward', 'Esther', 'Fatuma', 'Florence', 'Francis', 'Geoffrey', 'Grace', 'Hadija', 'Harriet', 'Henry', 'Ibrahim', 'Irene', 'Isaac', 'Jackson', 'Jane', 'Janet', 'John', 'Joseph', 'Joyce', 'Juliet', 'Kenneth', 'Lydia', 'Margaret', 'Mary', 'Moses', 'Nusula', 'Patrick', 'Paul', 'Peter', 'Prossy', 'Rebecca', 'Richard', 'Robert', 'Ronald', 'Ruth', 'Samuel', 'Sarah', 'Scovia', 'Simon', 'Stella', 'Stephen', 'Susan', 'Teddy', 'Titus', 'Victoria', 'Vincent', 'Winnie', 'Yusuf', 'Zainab'];
const SURNAMES = ['Achieng', 'Akello', 'Amongi', 'Atim', 'Babirye', 'Bukenya', 'Byaruhanga', 'Kabanda', 'Kaggwa', 'Kamya', 'Kato', 'Kawooya', 'Kibirige', 'Kigozi', 'Kiiza', 'Kintu', 'Kirabo', 'Kisakye', 'Lubega', 'Lwanga', 'Mubiru', 'Mugabe', 'Mugisha', 'Mukasa', 'Musoke', 'Mutebi', 'Mwesigwa', 'Nabirye', 'Nabukenya', 'Nakato', 'Nakimuli', 'Nalubega', 'Namazzi', 'Namubiru', 'Nansubuga', 'Ndagire', 'Nsubuga', 'Ochieng', 'Odongo', 'Ojok', 'Okello', 'Okot', 'Omondi', 'Onyango', 'Opio', 'Otieno', 'Owino', 'Sserwadda', 'Ssebunya', 'Ssemakula', 'Ssempala', 'Tumusiime', 'Tusiime', 'Twesigye', 'Wafula', 'Wanjiku', 'Wanyama', 'Wasswa', 'Waiswa', 'Zziwa'];
/** The name seeded for customer number g (as the seed's SQL makes it). */
const nameOf = (g) => {
  const [f, l] = [FIRST_NAMES.length, SURNAMES.length];
  return `${SURNAMES[Math.floor(g / f) % l]} ${FIRST_NAMES[g % f]} ${FIRST_NAMES[Math.floor(g / (f * l)) % f]}`;
};

/** Seeds N customers with accounts, users and deals through SQL, in batches, with a progress bar. */
async function seed(url, n) {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  const { rows: [deal] } = await c.query(`INSERT INTO deals (dealname, totalamount, deposit, monthly, months) VALUES ('Bench phone', 10000000, 1000, 100000, 120) RETURNING id`);
  // The customers' GIN (trigram) indexes are built after the seed, as a restore builds them: the migrated schema
  // writes each name into the index as it is inserted, which for a million names takes many minutes.
  const { rows: gins } = await c.query(`SELECT ic.oid::regclass::text AS name, pg_get_indexdef(ic.oid) AS definition FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_am am ON am.oid = ic.relam WHERE i.indrelid = 'customers'::regclass AND am.amname = 'gin'`);
  for (const index of gins) await c.query(`DROP INDEX ${index.name}`);
  const batch = 10_000;
  for (let from = 1; from <= n; from += batch) {
    const to = Math.min(n, from + batch - 1);
    await c.query(`
      WITH u AS (INSERT INTO users (username, username_canonical, role) SELECT 'bench-'||g, 'bench-'||g, 'CUSTOMER' FROM generate_series($1::int, $2::int) g RETURNING id, substring(username from 7)::int AS g),
           a AS (INSERT INTO accounts (accountnumber) SELECT 'BN'||lpad(g::text, 9, '0') FROM generate_series($1::int, $2::int) g RETURNING id, substring(accountnumber from 3)::int AS g),
           f AS (SELECT name, i::int - 1 AS i FROM unnest($4::text[]) WITH ORDINALITY f(name, i)),
           l AS (SELECT name, i::int - 1 AS i FROM unnest($5::text[]) WITH ORDINALITY l(name, i)),
           cu AS (INSERT INTO customers (user_id, account_id, fullname, telephone, guarantorname, guarantorcontact, imei, payg)
                  SELECT u.id, a.id, l.name||' '||f.name||' '||f2.name, '2569'||lpad(u.g::text, 8, '0'), 'G', '256700000000', 'IM'||lpad(u.g::text, 13, '0'), 'BPAYG'||u.g
                  FROM u JOIN a USING (g) JOIN f ON f.i = u.g % $6 JOIN l ON l.i = (u.g / $6) % $7 JOIN f AS f2 ON f2.i = (u.g / ($6 * $7)) % $6
                  RETURNING id, imei)
      INSERT INTO customer_deals (customer_id, deal_id, dealname, status, totalamount, monthly, depositpaid, amountpaid, balance, overpaid, bonusdays, startdate, nextpaymentdate, imei)
      SELECT id, $3, 'Bench phone', 'LOCKED', 10000000, 100000, 1000, 1000, 9999000, 0, 0, current_date, current_date, imei FROM cu`, [from, to, deal.id, FIRST_NAMES, SURNAMES, FIRST_NAMES.length, SURNAMES.length]);
    progress(`seeding ${n} customers`, to, n);
  }
  for (const index of gins) await c.query(index.definition);
  await c.query(`INSERT INTO payments (customer_id, customer_deal_id, amount, reference, type) SELECT customer_id, id, 1000, 'BDEP-'||customer_id, 'DEPOSIT' FROM customer_deals`);
  // a book in use has been vacuumed (visibility map, hint bits) by autovacuum; do it now rather than during a run
  await c.query('VACUUM ANALYZE');
  await c.end();
  return deal.id;
}

/**
 * CPU time (ms) used so far by the given processes and by every process of the PostgreSQL server
 * listening on `pgPort` (the postmaster's children: backends, WAL writer, checkpointer…), from
 * /proc/<pid>/stat. Read before and after a scenario, it gives the CPU each request cost, a figure
 * much less moved by other load on a shared machine than req/s (Linux only; zeros elsewhere).
 */
const TICK_MS = 10; // USER_HZ is 100 on Linux
function cpuMs(pids, pgPort) {
  const read = (path) => { try { return readFileSync(path, 'utf8'); } catch { return ''; } };
  const stat = (pid) => {
    const text = read(`/proc/${pid}/stat`);
    if (!text) return null;
    const f = text.slice(text.lastIndexOf(')') + 2).split(' '); // after the command name: state, ppid, … utime (12th), stime (13th)
    return { ppid: String(f[1]), ms: (Number(f[11]) + Number(f[12])) * TICK_MS };
  };
  let procs;
  try { procs = readdirSync('/proc').filter((d) => /^\d+$/.test(d)); } catch { return { service: 0, postgres: 0 }; }
  const postmaster = procs.find((pid) => { const args = read(`/proc/${pid}/cmdline`).split('\0'); return args.includes('-D') && args[args.indexOf('-p') + 1] === String(pgPort); });
  let postgres = 0;
  if (postmaster) for (const pid of procs) { const s = stat(pid); if (s && (pid === postmaster || s.ppid === postmaster)) postgres += s.ms; }
  return { service: pids.reduce((a, pid) => a + (stat(pid)?.ms ?? 0), 0), postgres };
}

/** The node flags of `npm start` (package.json): the bench runs the service as it is deployed. */
const START_FLAGS = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start.split(/\s+/).filter((arg) => arg.startsWith('--'));

function startProcess(cmd, args, env) {
  const proc = spawn(cmd, args, { cwd: ROOT, env: { PATH: process.env.PATH, ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}), ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr.on('data', (d) => (err = (err + d).slice(-5000)));
  return { proc, err: () => err, stop: () => new Promise((r) => { if (proc.exitCode !== null || proc.signalCode !== null) return r(); proc.once('exit', r); proc.kill('SIGTERM'); }) };
}

async function warmUp(connections, opts, urls = [opts.url]) {
  if (WARMUP > 0) await Promise.all(urls.map((url) => autocannon({ duration: WARMUP, connections: Math.ceil(connections / urls.length), pipelining: 1, ...opts, url })));
}

/** What measure() reads CPU time of: the processes serving the scenario and the PostgreSQL server's port. */
const cpuOf = { pids: [], pgPort: 0 };

async function measure(name, connections, opts, urls = [opts.url]) {
  // several instances: one autocannon per instance, the connections shared out, run side by side
  const cpuBefore = cpuMs(cpuOf.pids, cpuOf.pgPort);
  const times = [];
  const runs = await Promise.all(urls.map((url) => {
    const run = autocannon({ duration: SECONDS, connections: Math.ceil(connections / urls.length), pipelining: 1, ...(RATE > 0 ? { overallRate: RATE / urls.length } : {}), ...opts, url });
    run.on('response', (_client, _status, _bytes, ms) => times.push(ms));
    return run;
  }));
  times.sort((a, b) => a - b);
  const cpuAfter = cpuMs(cpuOf.pids, cpuOf.pgPort);
  const sum = (f) => runs.reduce((a, r) => a + f(r), 0);
  const row = {
    scenario: name, connections, rps: Math.round(sum((r) => r.requests.average)),
    ...(RATE > 0 ? { rate: RATE } : {}),
    p50: Math.max(...runs.map((r) => r.latency.p50)), p90: Math.max(...runs.map((r) => r.latency.p90)),
    // p95 of every answer of the run (autocannon's summary has no p95), to the nearest ms
    p95: times.length ? Math.round(times[Math.ceil(times.length * 0.95) - 1]) : null,
    p97_5: Math.max(...runs.map((r) => r.latency.p97_5)), p99: Math.max(...runs.map((r) => r.latency.p99)),
    errors: sum((r) => r.errors + r.timeouts + (r.non2xx ?? 0)), requests: sum((r) => r.requests.total),
    cpuMsPerRequest: { service: +((cpuAfter.service - cpuBefore.service) / Math.max(1, sum((r) => r.requests.total))).toFixed(3), postgres: +((cpuAfter.postgres - cpuBefore.postgres) / Math.max(1, sum((r) => r.requests.total))).toFixed(3) },
    ...(urls.length > 1 ? { instances: urls.length } : {}),
  };
  log(`${name.padEnd(22)} c=${String(connections).padEnd(3)} ${String(row.rps).padStart(6)} req/s${RATE > 0 ? ` (at ${RATE}/s)` : ''}  p50 ${row.p50} ms  p90 ${row.p90} ms  p95 ${row.p95} ms  p97.5 ${row.p97_5} ms  p99 ${row.p99} ms  errors ${row.errors}${urls.length > 1 ? `  (${urls.length} instances)` : ''}  CPU/request: service ${row.cpuMsPerRequest.service} ms, postgres ${row.cpuMsPerRequest.postgres} ms`);
  return row;
}

let counter = 0;
const uniqueId = () => `B${process.pid}-${Date.now().toString(36)}-${++counter}`;
/** A valid IMEI: 14 digits and their Luhn check digit. */
const imeiOf = (body) => {
  const sum = [...body].reverse().reduce((s, c, i) => { const d = Number(c) * (i % 2 === 0 ? 2 : 1); return s + (d > 9 ? d - 9 : d); }, 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
};

/** The service's memory from /proc: VmRSS now and VmHWM (the peak since start, or since resetPeak). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}
/** Resets the peak RSS (VmHWM) of a process to its current RSS; false where the kernel does not allow it. */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
/** Samples a process's RSS every `ms` until stopped: the samples, and the peak. */
function sampleMemory(pid, ms = 100) {
  const samples = [];
  const timer = setInterval(() => samples.push(memoryOf(pid).rssMb), ms);
  return () => {
    clearInterval(timer);
    const end = memoryOf(pid);
    samples.push(end.rssMb);
    return { samples, peakMb: Math.max(end.peakMb, ...samples) };
  };
}
const mb = (n) => Math.round(n);

/** A customers import of n rows on one deal, its states spread: LOCKED, UNLOCKED and PAID_OFF deals, starts over two years. */
function importFile(n, dealid) {
  const lines = ['externalid,fullname,telephone,guarantorname,guarantorcontact,imei,payg,serialnumber,dealid,depositpaid,amountpaid,startdate'];
  const day = (i) => new Date(Date.UTC(2024, 0, 1) + (i % 700) * 86_400_000).toISOString().slice(0, 10);
  for (let i = 0; i < n; i++) {
    const paid = 60000 + 45000 * (i % 13); // the deposit and 0–12 instalments of a 600,000 deal
    lines.push(`BENCH-${i},Imported Customer ${i},+25677${String(i).padStart(7, '0')},Guarantor ${i},+256701987654,${imeiOf(`37${String(i).padStart(12, '0')}`)},IMP-${i},SN-${i},${dealid},60000,${Math.min(paid, 600000)},${day(i)}`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

async function importScenario(url, pid, admin) {
  const deal = await (await fetch(`${url}/finance/deals/create`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-access-token': admin }, body: JSON.stringify({ dealname: 'Bench import phone', totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 }) })).json();
  const file = importFile(IMPORT_ROWS, deal.dealid);
  log(`import: ${IMPORT_ROWS} customers, ${(file.length / 1e6).toFixed(1)} MB of CSV`);
  const form = new FormData();
  form.set('kind', 'customers');
  form.set('mode', 'apply');
  form.set('file', new Blob([file], { type: 'text/csv' }), 'bench-import.csv');
  const peakReset = resetPeak(pid);
  const before = memoryOf(pid);
  const stop = sampleMemory(pid);
  const started = Date.now();
  const res = await fetch(`${url}/finance/imports`, { method: 'POST', headers: { 'x-access-token': admin }, body: form });
  const accepted = await res.json();
  if (res.status !== 202) throw new Error(`import answered ${res.status}: ${JSON.stringify(accepted)}`);
  let record;
  for (;;) {
    record = await (await fetch(`${url}/finance/imports/${accepted.importid}`, { headers: { 'x-access-token': admin } })).json();
    if (record.status === 'DONE' || record.status === 'FAILED') break;
    progress('import', record.processed, IMPORT_ROWS);
    await new Promise((r) => setTimeout(r, 250));
  }
  const seconds = (Date.now() - started) / 1000;
  const memory = stop();
  progress('import', IMPORT_ROWS, IMPORT_ROWS);
  if (record.status !== 'DONE' || record.applied !== IMPORT_ROWS) throw new Error(`import ended ${record.status}: ${record.message ?? ''} ${JSON.stringify(record.errors?.slice(0, 3))}`);
  const row = { scenario: 'import', rows: IMPORT_ROWS, seconds, rowsPerSecond: Math.round(IMPORT_ROWS / seconds), rssBeforeMb: mb(before.rssMb), peakRssMb: mb(memory.peakMb), peakReset };
  log(`import                 ${IMPORT_ROWS} customers in ${seconds.toFixed(1)} s (${row.rowsPerSecond}/s), service RSS ${row.rssBeforeMb} MB before, peak ${row.peakRssMb} MB`);
  return row;
}

/** Payments by SQL: n MANUAL rows over the seeded deals and the last year (the ledger no longer matches the deals: a bench database only). */
async function seedPayments(dbUrl, n) {
  const c = new pg.Client({ connectionString: dbUrl });
  c.on('error', () => undefined);
  await c.connect();
  const [{ deals }] = (await c.query('SELECT count(*)::int AS deals FROM customer_deals')).rows;
  const batch = 200_000;
  for (let from = 1; from <= n; from += batch) {
    const to = Math.min(n, from + batch - 1);
    await c.query(
      `WITH d AS (SELECT id, customer_id, row_number() OVER (ORDER BY id) AS k FROM customer_deals)
       INSERT INTO payments (customer_id, customer_deal_id, amount, reference, narration, type, created_at)
       SELECT d.customer_id, d.id, 1000 + g % 50000, 'BEXP-' || g, CASE WHEN g % 7 = 0 THEN 'cash, "front desk"' ELSE 'bench' END, 'MANUAL', now() - (g % 365) * interval '1 day'
       FROM generate_series($1::int, $2::int) g JOIN d ON d.k = 1 + g % $3::int`,
      [from, to, deals],
    );
    progress(`seeding ${n} payments`, to, n);
  }
  await c.query('ANALYZE payments');
  const [{ total }] = (await c.query('SELECT count(*)::int AS total FROM payments')).rows;
  await c.end();
  return total;
}

async function exportScenario(url, pid, admin, dbUrl) {
  const total = await seedPayments(dbUrl, EXPORT_PAYMENTS);
  const peakReset = resetPeak(pid);
  const before = memoryOf(pid);
  const stop = sampleMemory(pid);
  const started = Date.now();
  const res = await fetch(`${url}/finance/exports/payments.csv`, { headers: { 'x-access-token': admin } });
  if (res.status !== 200) throw new Error(`export answered ${res.status}`);
  let bytes = 0;
  let lines = 0;
  let firstByte = null;
  for await (const chunk of res.body) {
    firstByte ??= (Date.now() - started) / 1000;
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  const seconds = (Date.now() - started) / 1000;
  const memory = stop();
  const rows = lines - 1;
  if (rows !== total) throw new Error(`export wrote ${rows} rows of ${total}`);
  const sorted = [...memory.samples].sort((a, b) => a - b);
  const row = {
    scenario: 'export', rows, seconds, rowsPerSecond: Math.round(rows / seconds), megabytes: +(bytes / 1e6).toFixed(1), firstByteSeconds: firstByte,
    rssBeforeMb: mb(before.rssMb), peakRssMb: mb(memory.peakMb), rssP10Mb: mb(sorted[Math.floor(sorted.length * 0.1)]), rssP90Mb: mb(sorted[Math.floor(sorted.length * 0.9)]), peakReset,
  };
  log(`export                 ${rows} payments (${row.megabytes} MB) in ${seconds.toFixed(1)} s (${row.rowsPerSecond}/s, first byte ${firstByte.toFixed(2)} s), service RSS ${row.rssBeforeMb} MB before, p10–p90 ${row.rssP10Mb}–${row.rssP90Mb} MB, peak ${row.peakRssMb} MB`);
  return row;
}

async function main() {
  const db = await database();
  const results = [];
  const service = { url: null, urls: [] };
  const serviceProcs = [];
  let rawProc;
  try {
    // the service and its data
    const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${join(ROOT, 'bench', 'profiles')}`] : [];
    for (let i = 0; i < INSTANCES; i++) {
      const port = await freePort();
      const limits = process.env.BENCH_SIGNIN_ADDRESS_LIMIT ? { SIGNIN_ADDRESS_LIMIT: process.env.BENCH_SIGNIN_ADDRESS_LIMIT, SIGNIN_RATE_LIMIT: process.env.BENCH_SIGNIN_ADDRESS_LIMIT } : {};
      const proc = startProcess(process.execPath, [...START_FLAGS, ...profile, 'dist/src/main.js'], { DATABASE_URL: db.url, PORT: String(port), JWT_SECRET: SECRET, LOG_LEVEL: 'warn', JOBS_ENABLED: 'false', ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: 'bench-admin-pw', DB_POOL_SIZE: process.env.DB_POOL_SIZE ?? '20', ...limits });
      serviceProcs.push(proc);
      const url = `http://127.0.0.1:${port}`;
      await waitFor(`${url}/health`).catch((e) => { throw new Error(`${e.message}: ${proc.err()}`); });
      service.urls.push(url);
    }
    service.url = service.urls[0];
    Object.assign(cpuOf, { pids: serviceProcs.map((p) => p.proc.pid), pgPort: Number(new URL(db.url).port) });
    const dealid = await seed(db.url, CUSTOMERS);
    // ver: the first administrator's token version (a password change or a disable would raise it)
    const token = (role, id) => jwt.sign({ sub: id, username: 'admin', role, env: 'uat', ver: 1 }, SECRET, { algorithm: 'HS256', issuer: 'payg-uat', expiresIn: '2h' });
    const admin = token('ADMIN', 1);
    const randomCustomer = () => 1 + Math.floor(Math.random() * CUSTOMERS);
    const searchTerm = () => {
      const g = randomCustomer();
      return [nameOf(g), `2569${String(g).padStart(8, '0')}`, `BPAYG${g}`, `BN${String(g).padStart(9, '0')}`][g % 4];
    };
    const post = (path, body) => ({ method: 'POST', path, headers: { 'content-type': 'application/json', 'x-access-token': admin }, body: JSON.stringify(body) });
    const scenarios = {
      callback: () => ({ url: service.url, requests: [{ setupRequest: (r) => ({ ...r, ...post('/finance/amlogs/callback', { transaction: { id: uniqueId(), amount: 10, tag: `BPAYG${randomCustomer()}` } }) }) }] }),
      load: () => ({ url: service.url, requests: [{ setupRequest: (r) => ({ ...r, ...post('/finance/payments/load', { customerid: randomCustomer(), amount: 10, reference: uniqueId(), narration: 'bench' }) }) }] }),
      register: () => ({ url: service.url, requests: [{ setupRequest: (r) => { const id = uniqueId(); const n = String(++counter % 10_000_000).padStart(7, '0'); return { ...r, ...post('/finance/customers/register', { fullname: 'Bench New', telephone: `+25678${n}`, dealid, deposit: 1000, guarantorname: 'G', guarantorcontact: '+256700000000', imei: imeiOf(`36${String(process.pid % 100_000).padStart(5, '0')}${n}`), payg: `N-${id}` }) }; } }] }),
      read: () => ({ url: service.url, requests: [{ setupRequest: (r) => ({ ...r, method: 'GET', path: `/finance/customers/${randomCustomer()}`, headers: { 'x-access-token': admin } }) }] }),
      summary: () => ({ url: service.url, requests: [{ method: 'GET', path: '/finance/customers/status-summary', headers: { 'x-access-token': admin } }] }),
      // the Customers screen's search box, by each key it takes: a name, a telephone, a PAYG code, an account number
      search: () => ({ url: service.url, requests: [{ setupRequest: (r) => ({ ...r, method: 'GET', path: `/finance/customers?limit=20&search=${encodeURIComponent(searchTerm())}`, headers: { 'x-access-token': admin } }) }] }),
    };
    const signInFlood = () => ({
      url: service.url, connections: FLOOD_CONNECTIONS, duration: WARMUP + SECONDS + 1, ...(FLOOD_RATE > 0 ? { overallRate: FLOOD_RATE } : {}),
      requests: [{ setupRequest: (r) => ({ ...r, method: 'POST', path: '/api/auth/signin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: `flood-${uniqueId()}`, password: 'flood-password-1' }) }) }],
    });
    for (const name of SCENARIOS) {
      if (name === 'import') {
        results.push(await importScenario(service.url, serviceProcs[0].proc.pid, admin));
        continue;
      }
      if (name === 'export') {
        results.push(await exportScenario(service.url, serviceProcs[0].proc.pid, admin, db.url));
        continue;
      }
      if (name === 'signin-flood') {
        // reads measured while a flood of sign-ins with random usernames runs beside them
        for (const c of CONNECTIONS) {
          const flood = autocannon(signInFlood());
          await warmUp(c, scenarios.read(), service.urls);
          const row = await measure('signin-flood (reads)', c, scenarios.read(), service.urls);
          const f = await flood;
          row.flood = { connections: FLOOD_CONNECTIONS, rate: FLOOD_RATE || 'unbounded', rps: Math.round(f.requests.average), p99: f.latency.p99, '2xx': f['2xx'], '4xx': f['4xx'], errors: f.errors + f.timeouts };
          log(`  flood: ${row.flood.rps} sign-ins/s  p99 ${row.flood.p99} ms  4xx ${row.flood['4xx']}  errors ${row.flood.errors}`);
          results.push(row);
        }
        continue;
      }
      await warmUp(CONNECTIONS[0], scenarios[name](), service.urls);
      for (const c of CONNECTIONS) results.push(await measure(name, c, scenarios[name](), service.urls));
    }
    await Promise.all(serviceProcs.map((p) => p.stop()));

    if (process.env.BENCH_RAW !== '0') {
      // the raw baseline, in its own database on the same server
      const admin_ = new pg.Client({ connectionString: db.url.replace(/\/[^/]+$/, '/postgres') });
      admin_.on('error', () => undefined);
      await admin_.connect();
      await admin_.query('DROP DATABASE IF EXISTS payg_bench_raw');
      await admin_.query('CREATE DATABASE payg_bench_raw');
      await admin_.end();
      const rawUrl = db.url.replace(/\/[^/]+$/, '/payg_bench_raw');
      const rawScript = join(ROOT, 'bench', '.raw-callback.mjs');
      copyFileSync(join(ROOT, '..', 'shared', 'bench', 'raw-callback.mjs'), rawScript); // resolved against this project's node_modules
      await new Promise((resolve, reject) => spawn(process.execPath, [rawScript, 'seed', String(CUSTOMERS)], { env: { PATH: process.env.PATH, DATABASE_URL: rawUrl }, stdio: 'inherit' }).on('exit', (code) => (code === 0 ? resolve() : reject(new Error('raw seed failed')))));
      const rawPort = await freePort();
      rawProc = startProcess(process.execPath, [rawScript], { DATABASE_URL: rawUrl, PORT: String(rawPort), SECRET });
      cpuOf.pids = [rawProc.proc.pid];
      await new Promise((r) => setTimeout(r, 1000));
      const raw = () => ({ url: `http://127.0.0.1:${rawPort}`, requests: [{ setupRequest: (r) => ({ ...r, ...post('/', { transaction: { id: uniqueId(), amount: 10, tag: `BPAYG${randomCustomer()}` } }) }) }] });
      await warmUp(CONNECTIONS[0], raw());
      for (const c of CONNECTIONS) results.push(await measure('raw-callback', c, raw()));
      await rawProc.stop();
      rmSync(rawScript, { force: true });
    }
  } finally {
    await Promise.all(serviceProcs.map((p) => p.stop()));
    await rawProc?.stop();
    await db.stop();
  }

  const ratios = CONNECTIONS.map((c) => {
    const svc = results.find((r) => r.scenario === 'callback' && r.connections === c);
    const raw = results.find((r) => r.scenario === 'raw-callback' && r.connections === c);
    return svc && raw ? { connections: c, throughput: +(svc.rps / raw.rps).toFixed(2), p99: +(svc.p99 / Math.max(1, raw.p99)).toFixed(2) } : null;
  }).filter(Boolean);
  console.log('\n| scenario | conns | req/s | p50 ms | p95 ms | p99 ms | errors |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const r of results.filter((r) => r.connections !== undefined)) console.log(`| ${r.scenario}${r.rate ? ` (at ${r.rate}/s)` : ''} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.errors} |`);
  const bulk = results.filter((r) => r.connections === undefined);
  if (bulk.length) {
    console.log('\n| scenario | rows | seconds | rows/s | service RSS before MB | peak RSS MB |\n| --- | ---: | ---: | ---: | ---: | ---: |');
    for (const r of bulk) console.log(`| ${r.scenario} | ${r.rows} | ${r.seconds.toFixed(1)} | ${r.rowsPerSecond} | ${r.rssBeforeMb} | ${r.peakRssMb} |`);
  }
  console.log('\ncallback ÷ raw baseline:', ratios.length ? ratios.map((r) => `c=${r.connections}: throughput ×${r.throughput}, p99 ×${r.p99}`).join('; ') : 'not measured (BENCH_RAW=0 or no callback scenario)');
  mkdirSync(join(ROOT, 'bench'), { recursive: true });
  writeFileSync(process.env.BENCH_RESULTS ?? join(ROOT, 'bench', 'results.json'), JSON.stringify({ date: new Date().toISOString(), customers: CUSTOMERS, seconds: SECONDS, instances: INSTANCES, results, ratios }, null, 2) + '\n');
}

main().catch((e) => { console.error(e); process.exit(1); });
