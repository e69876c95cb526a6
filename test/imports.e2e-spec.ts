import { parse } from 'csv-parse/sync';
import { Role } from '../src/common/auth/role.js';
import { Money } from '../src/common/money/money.js';
import { accountNumberFor } from '../src/modules/accounts/domain/account-number.js';
import { deriveDealState } from '../src/modules/contracts/domain/credit-policy.js';
import { CHUNK_ROWS } from '../src/modules/imports/application/import-validator.js';
import { unescapeCell } from '../src/modules/imports/domain/import-file.js';
import { createDeal, registerCustomer, uniqueImei, uniqueTelephone } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * CSV import of customers and payments, and the CSV exports (DESIGN part 12). The clock stands at
 * 2026-01-15: a customer who started on 2025-08-15 (five months ago) and paid the deposit and four
 * monthly instalments has bought 120 days, up to 2025-12-13, and is LOCKED.
 *
 * PAYG_LONG_TESTS=1 applies a larger batched file (ten chunks instead of one and a part).
 */

const LONG = process.env.PAYG_LONG_TESTS === '1';
/** The long variant's batched file is about 3.5 MB. */
const MAX_MB = LONG ? 8 : 1;
const TODAY = '2026-01-15';

const HEADER = 'externalid,fullname,telephone,guarantorname,guarantorcontact,imei,payg,serialnumber,dealid,depositpaid,amountpaid,startdate';
const csv = (lines: string[]) => Buffer.from(`${[HEADER, ...lines].join('\r\n')}\r\n`, 'utf8');

describe('CSV imports and exports', () => {
  let t: TestApp;
  let admin: string;
  let dealid: number;

  beforeAll(async () => {
    t = await startTestApp({ env: { IMPORT_MAX_MB: String(MAX_MB) } });
    admin = await t.token(Role.ADMIN);
    dealid = (await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
  });
  afterAll(() => t.close());

  const upload = (file: Buffer, fields: Record<string, string>, token = admin, name = 'book.csv') => {
    let req = t.http.post('/finance/imports').set('x-access-token', token);
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    return req.attach('file', file, { filename: name, contentType: 'text/csv' });
  };
  const finished = async (importid: number, tries = 300) => {
    for (let i = 0; i < tries; i++) {
      const res = await t.http.get(`/finance/imports/${importid}`).set('x-access-token', admin);
      if (res.body.status === 'DONE' || res.body.status === 'FAILED') return res.body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`import ${importid} did not finish`);
  };
  const counts = async () => {
    const [row] = await t.db.query(`SELECT (SELECT count(*) FROM customers)::int AS customers, (SELECT count(*) FROM payments)::int AS payments,
      (SELECT count(*) FROM device_commands)::int AS commands, (SELECT count(*) FROM import_rows)::int AS importrows`);
    return row;
  };

  const good = () => {
    const n = Math.random().toString(36).slice(2, 8).toUpperCase();
    return {
      externalid: `EXT-${n}`,
      fullname: `Migrated ${n}`,
      telephone: uniqueTelephone(),
      guarantorname: 'Joseph Okello',
      guarantorcontact: '+256701987654',
      imei: uniqueImei(),
      payg: `MIG-${n}`,
      serialnumber: `SN-${n}`,
      dealid: String(dealid),
      depositpaid: '60000.00',
      amountpaid: '240000.00',
      startdate: '2025-08-15',
    };
  };
  const line = (r: Record<string, string>) => Object.values(r).join(',');
  const text = (res: { body: unknown }) => res.body as string;
  const download = (path: string) =>
    t.http.get(`/finance/exports/${path}`).set('x-access-token', admin).buffer(true).parse((r, cb) => {
      let body = '';
      r.on('data', (d: Buffer) => (body += d.toString('utf8')));
      r.on('end', () => cb(null, body));
    });

  it('reports every bad row with its row and field and writes nothing, in validate and in apply', async () => {
    const existing = await registerCustomer(t, dealid);
    const a = good();
    const rows = [
      line(a),
      line({ ...good(), fullname: '' }),
      line({ ...good(), telephone: '12345' }),
      line({ ...good(), imei: '490154203237517' }),
      line({ ...good(), payg: a.payg.toLowerCase() }),
      line({ ...good(), payg: existing.payg }),
      line({ ...good(), dealid: '999999' }),
      line({ ...good(), depositpaid: '-5' }),
      line({ ...good(), startdate: '2026-02-01' }),
    ];
    const latin1 = Buffer.from(`${line({ ...good(), fullname: 'Ren_' })}`, 'utf8');
    latin1[latin1.indexOf('Ren_') + 3] = 0xe9; // "René" written in Latin-1, not UTF-8
    const file = Buffer.concat([csv(rows), latin1, Buffer.from('\r\n')]);
    const before = await counts();

    const res = await upload(file, { kind: 'customers', mode: 'validate' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ importid: expect.any(Number), rows: 10, valid: 1, status: 'DONE', errorcount: 9, errorstruncated: false });
    expect(res.body.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([
      [3, 'fullname'],
      [4, 'telephone'],
      [5, 'imei'],
      [6, 'payg'],
      [7, 'payg'],
      [8, 'dealid'],
      [9, 'depositpaid'],
      [10, 'startdate'],
      [11, 'fullname'],
    ]);
    const messages = Object.fromEntries(res.body.errors.map((e: { row: number; message: string }) => [e.row, e.message]));
    expect(messages[3]).toBe('fullname should not be empty');
    expect(messages[4]).toMatch(/^telephone must be a valid telephone number/);
    expect(messages[5]).toBe('imei must be 15 digits with a valid check digit');
    expect(messages[6]).toContain('is also in row 2 of this file');
    expect(messages[7]).toBe(`PAYG code ${existing.payg} is already assigned to another customer.`);
    expect(messages[8]).toBe('Deal 999999 not found.');
    expect(messages[9]).toBe('depositpaid must be a positive number');
    expect(messages[10]).toBe('startdate must not be in the future (today is 2026-01-15)');
    expect(messages[11]).toMatch(/not valid UTF-8/);
    expect(await counts()).toEqual(before);

    const applied = await upload(file, { kind: 'customers', mode: 'apply' });
    expect(applied.status).toBe(202);
    const record = await finished(applied.body.importid);
    expect(record).toMatchObject({ status: 'FAILED', rows: 10, valid: 1, applied: 0, errorcount: 9 });
    expect(record.errors).toEqual(res.body.errors);
    expect(await counts()).toEqual(before);
  });

  it('lists the first 1,000 errors by row and counts them all, however many the file holds', async () => {
    // four bad cells a row (payg, amount, reference, date), just under the 1 MB test limit: 280,000 errors
    const n = 70_000;
    const file = Buffer.from(`externalid,payg,amount,reference,date\r\n${'B1,x,-1,,bad\r\n'.repeat(n)}`);
    const before = await counts();
    const res = await upload(file, { kind: 'payments', mode: 'validate' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rows: n, valid: 0, errorcount: 4 * n, errorstruncated: true });
    expect(res.text.length).toBeLessThan(200_000);
    expect(res.body.errors).toHaveLength(1000);
    expect(res.body.errors.slice(0, 4).map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([[2, 'payg'], [2, 'amount'], [2, 'reference'], [2, 'date']]);
    expect(res.body.errors[999]).toMatchObject({ row: 251, field: 'date' });

    const applied = await upload(file, { kind: 'payments', mode: 'apply' });
    expect(applied.status).toBe(202);
    const record = await finished(applied.body.importid);
    expect(record).toMatchObject({ status: 'FAILED', rows: n, valid: 0, applied: 0, errorcount: 4 * n, errorstruncated: true });
    expect(record.errors).toEqual(res.body.errors);
    expect(await counts()).toEqual(before);
  });

  it('reads a file whose header comes after blank lines, its errors numbered by the lines of the file', async () => {
    // line 1 a spreadsheet's empty row, line 2 blank, line 3 the header
    const file = Buffer.concat([Buffer.from(',,,,,,,,,,,\r\n\r\n'), csv([line(good()), line({ ...good(), fullname: '' })])]);
    const res = await upload(file, { kind: 'customers', mode: 'validate' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rows: 2, valid: 1, errorcount: 1 });
    expect(res.body.errors).toEqual([{ row: 5, field: 'fullname', message: 'fullname should not be empty' }]);
  });

  it('refuses a UTF-16 file, a file without the columns, and a bad form, with 400 {message}', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(HEADER, 'utf16le')]);
    expect((await upload(utf16, { kind: 'customers', mode: 'validate' })).body).toEqual({ message: 'The file is UTF-16: save it as CSV UTF-8 and upload it again.' });
    const noColumns = await upload(Buffer.from('name,phone\r\nA,0772555001\r\n'), { kind: 'customers', mode: 'validate' });
    expect(noColumns.status).toBe(400);
    expect(noColumns.body.message).toMatch(/^The file has no column for externalid, fullname, telephone/);
    const form = await upload(csv([]), { kind: 'loans', mode: 'now', extra: 'x' });
    expect(form.status).toBe(400);
    expect(form.body).toEqual({ message: 'property extra should not exist; kind must be one of customers, payments; mode must be one of validate, apply' });
  });

  it('refuses a body that is not well-formed multipart/form-data with 400 {message}, storing nothing', async () => {
    const records = async () => (await t.db.query('SELECT count(*)::int AS n FROM imports'))[0].n;
    const before = { book: await counts(), records: await records() };
    const raw = (contentType: string, body: string) => t.http.post('/finance/imports').set('x-access-token', admin).set('content-type', contentType).send(body);
    const part = (name: string, value: string) => `--XYZ\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    // a file part cut off before its end and the closing boundary
    const cut = `${part('kind', 'payments')}${part('mode', 'apply')}--XYZ\r\nContent-Disposition: form-data; name="file"; filename="cut.csv"\r\nContent-Type: text/csv\r\n\r\nexternalid,payg,amount,reference,date\r\nC1,PG`;
    const answers = [
      await raw('multipart/form-data', 'garbage'),
      await raw('multipart/form-data; boundary=x', 'garbage'),
      await raw('multipart/form-data; boundary=XYZ', cut),
      await raw(`multipart/form-data; boundary=${'b'.repeat(300)}`, 'garbage'),
    ];
    expect(answers.map((a) => [a.status, a.body])).toEqual([
      [400, { message: 'The upload is not a well-formed multipart/form-data body: its Content-Type names no boundary.' }],
      [400, { message: 'The upload is not a well-formed multipart/form-data body: it ends before its closing boundary.' }],
      [400, { message: 'The upload is not a well-formed multipart/form-data body: it ends before its closing boundary.' }],
      [400, { message: 'The upload is not a well-formed multipart/form-data body: its boundary is too long (RFC 2046 allows 70 characters).' }],
    ]);
    expect({ book: await counts(), records: await records() }).toEqual(before);
  });

  it('asks for multipart/form-data when sent anything else', async () => {
    const send = (contentType: string, body: string) => t.http.post('/finance/imports').set('x-access-token', admin).set('content-type', contentType).send(body);
    const answers = [
      await send('text/csv', `${HEADER}\r\n`),
      await send('application/x-www-form-urlencoded', 'kind=customers&mode=validate'),
      await send('application/json', '{"kind":"customers","mode":"validate"}'),
      await send('multipart/mixed; boundary=x', '--x--\r\n'),
    ];
    expect(answers.map((a) => [a.status, a.body])).toEqual(Array(4).fill([415, { message: 'Unsupported Content-Type: send multipart/form-data.' }]));
  });

  it('refuses a form field sent twice, naming it', async () => {
    const records = async () => (await t.db.query('SELECT count(*)::int AS n FROM imports'))[0].n;
    const before = await records();
    const twice = await t.http.post('/finance/imports').set('x-access-token', admin)
      .field('kind', 'payments').field('mode', 'validate').field('kind', 'customers').field('mode', 'validate').field('source', 'a')
      .attach('file', csv([]), { filename: 'book.csv', contentType: 'text/csv' });
    expect({ status: twice.status, body: twice.body }).toEqual({ status: 400, body: { message: 'kind must be sent once, not 2 times; mode must be sent once, not 2 times' } });
    expect(await records()).toBe(before);
  });

  it('answers 413 {message} for a file over IMPORT_MAX_MB', async () => {
    const big = Buffer.alloc(MAX_MB * 1024 * 1024 + 10, 'a');
    const res = await upload(big, { kind: 'customers', mode: 'validate' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: `The file is larger than the ${MAX_MB} MB limit (IMPORT_MAX_MB).` });
  });

  let migrated: ReturnType<typeof good>;
  let book: Buffer;

  it('applies a correct file: the migrated deal keeps its start date, OPENING in the ledger, LOCKED by the credit policy, a SYNC queued', async () => {
    migrated = good();
    const paidOff = { ...good(), amountpaid: '600000.00' };
    const upToDate = { ...good(), amountpaid: '375000.00', startdate: '2025-10-20' };
    book = csv([line(migrated), line(paidOff), line(upToDate)]);
    const before = await counts();
    const res = await upload(book, { kind: 'customers', mode: 'apply' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'VALIDATING', rows: 3, processed: 0, progress: 0 });
    const record = await finished(res.body.importid);
    expect(record).toMatchObject({ status: 'DONE', rows: 3, valid: 3, applied: 3, skipped: 0, errorcount: 0, progress: 100 });

    const [{ id }] = await t.db.query('SELECT id FROM customers WHERE payg = $1', [migrated.payg]);
    const customer = (await t.http.get(`/finance/customers/${id}`).set('x-access-token', admin)).body;
    expect(customer).toMatchObject({ telephone: migrated.telephone, imei: migrated.imei, serialnumber: migrated.serialnumber, status: 'PENDING' });
    expect(customer.deal).toMatchObject({ status: 'LOCKED', startdate: '2025-08-15', nextpaymentdate: '2025-12-13', depositpaid: 60000, amountpaid: 240000, balance: 360000 });
    const payments = (await t.http.post('/finance/payments/recent').set('x-access-token', admin).send({ customerid: id })).body;
    expect(payments.map((p: { type: string; amount: number; reference: string }) => [p.type, p.amount, p.reference])).toEqual([
      ['OPENING', 180000, `IMPORT-${res.body.importid}-${migrated.externalid}`],
      ['DEPOSIT', 60000, `DEPOSIT-${id}`],
    ]);
    const commands = (await t.http.get(`/finance/device/commands?customerid=${id}`).set('x-access-token', admin)).body.items;
    expect(commands.map((c: { action: string; nextpaymentdate: string }) => [c.action, c.nextpaymentdate])).toEqual([['SYNC', '2025-12-13']]);

    const states = await t.db.query(`SELECT c.payg, cd.status, cd.nextpaymentdate FROM customers c JOIN customer_deals cd ON cd.customer_id = c.id WHERE c.payg = ANY($1) ORDER BY c.payg`, [[paidOff.payg, upToDate.payg]]);
    expect(Object.fromEntries(states.map((s: { payg: string; status: string }) => [s.payg, s.status]))).toEqual({ [paidOff.payg]: 'PAID_OFF', [upToDate.payg]: 'UNLOCKED' });
    const after = await counts();
    expect(after.customers - before.customers).toBe(3);
    expect(after.commands - before.commands).toBe(3);
    await expectLedgerConsistent(t);
  });

  it('answers the same file again with the earlier import and changes nothing; an overlapping file skips what it brought in', async () => {
    const before = await counts();
    const again = await upload(book, { kind: 'customers', mode: 'apply' }, admin, 'renamed.csv');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'DONE', applied: 3, filename: 'book.csv' });
    expect(await counts()).toEqual(before);

    const extra = good();
    const overlapping = await upload(csv([line(migrated), line(extra)]), { kind: 'customers', mode: 'apply' });
    expect(overlapping.status).toBe(202);
    expect(await finished(overlapping.body.importid)).toMatchObject({ status: 'DONE', rows: 2, applied: 1, skipped: 1 });
    expect((await counts()).customers).toBe(before.customers + 1);
    await expectLedgerConsistent(t);
  });

  it('applies a file that FAILED again as a new import once its rows are right', async () => {
    const code = `LATER-${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
    const file = Buffer.from(`externalid,payg,amount,reference,date\r\nL1,${code},45000,RCPT-${code},2026-01-10\r\n`);
    const first = await upload(file, { kind: 'payments', mode: 'apply' });
    expect(first.status).toBe(202);
    expect(await finished(first.body.importid)).toMatchObject({ status: 'FAILED', errors: [{ row: 2, field: 'payg', message: `No customer has PAYG code ${code}.` }] });

    const customer = await registerCustomer(t, dealid, { payg: code });
    const retried = await upload(file, { kind: 'payments', mode: 'apply' });
    expect(retried.status).toBe(202);
    expect(retried.body.importid).not.toBe(first.body.importid);
    expect(await finished(retried.body.importid)).toMatchObject({ status: 'DONE', applied: 1 });
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM payments WHERE customer_id = $1 AND reference = $2`, [customer.customerid, `RCPT-${code}`]);
    expect(n).toBe(1);
    // applied now: the same file again is the import that applied it
    const again = await upload(file, { kind: 'payments', mode: 'apply' });
    expect({ status: again.status, importid: again.body.importid }).toEqual({ status: 200, importid: retried.body.importid });
    expect((await t.http.get(`/finance/imports/${first.body.importid}`).set('x-access-token', admin)).body.status).toBe('FAILED');
    await expectLedgerConsistent(t);
  });

  it('takes one file sent several times at once as one import', async () => {
    const id = (await registerCustomer(t, dealid)).customerid;
    const file = Buffer.from(`externalid,customerid,amount,reference,date\r\nC1,${id},1000,RCPT-${id}-SAME,2026-01-10\r\n`);
    const answers = await Promise.all([0, 1, 2, 3, 4].map(() => upload(file, { kind: 'payments', mode: 'apply', source: 'same-time' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 202]);
    expect(new Set(answers.map((a) => a.body.importid)).size).toBe(1);
    expect(await finished(answers[0].body.importid)).toMatchObject({ status: 'DONE', applied: 1 });
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM payments WHERE reference = $1`, [`RCPT-${id}-SAME`]);
    expect(n).toBe(1);
  });

  it('exports customers as CSV that parses back to the imported rows (round trip), cells injection-safe', async () => {
    const res = await t.http.get('/finance/exports/customers.csv').set('x-access-token', admin).buffer(true).parse((r, cb) => {
      let text = '';
      r.on('data', (d: Buffer) => (text += d.toString('utf8')));
      r.on('end', () => cb(null, text));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const text = res.body as string;
    expect(text).toContain('\r\n');
    const exported = parse(text, { columns: true }) as Array<Record<string, string>>;
    const imported = parse(book, { columns: true }) as Array<Record<string, string>>;
    for (const row of imported) {
      const out = exported.find((e) => e.externalid === row.externalid);
      expect(out).toBeDefined();
      expect(out!.telephone).toBe(`'${row.telephone}`); // a cell starting with + is written with a leading '
      const back = Object.fromEntries(Object.keys(row).map((k) => [k, unescapeCell(out![k])]));
      expect(back).toEqual(row);
    }
  });

  it('streams payments, collections and portfolio exports; ADMIN only', async () => {
    for (const path of ['payments.csv?startdate=2026-01-01&enddate=2026-01-31', 'collections.csv', 'portfolio.csv']) {
      const res = await t.http.get(`/finance/exports/${path}`).set('x-access-token', admin);
      expect(res.status).toBe(200);
      expect(res.text.split('\r\n')[0]).toMatch(/^[a-z]+(,[a-z]+)+$/);
    }
    const payments = parse((await t.http.get('/finance/exports/payments.csv').set('x-access-token', admin)).text, { columns: true }) as Array<Record<string, string>>;
    expect(payments.some((p) => p.type === 'OPENING' && p.amount === '180000.00')).toBe(true);
    expect((await t.http.get('/finance/exports/payments.csv?startdate=2026-02-01&enddate=2026-01-01').set('x-access-token', admin)).status).toBe(400);
    const operator = await t.token(Role.OPERATOR);
    expect((await t.http.get('/finance/exports/customers.csv').set('x-access-token', operator)).status).toBe(403);
    expect((await upload(csv([]), { kind: 'customers', mode: 'validate' }, operator)).status).toBe(403);
    expect((await t.http.get('/finance/imports').set('x-access-token', operator)).status).toBe(403);
    const list = await t.http.get('/finance/imports?limit=2').set('x-access-token', admin);
    expect(list.body).toMatchObject({ total: expect.any(Number), page: 1, limit: 2 });
    expect(list.body.items).toHaveLength(2);
  });

  it('imports payments by PAYG code or customerid as MANUAL receipts; bad rows are reported', async () => {
    const [{ id }] = await t.db.query('SELECT id FROM customers WHERE payg = $1', [migrated.payg]);
    const header = 'externalid,payg,customerid,amount,reference,narration,date';
    const bad = Buffer.from(`${header}\r\nP1,NOPE-1,,100,R-1,,2026-01-10\r\nP2,,${id},0,R-2,,2026-01-10\r\nP3,${migrated.payg},,100,R-3,,2026-13-01\r\n`);
    const checked = await upload(bad, { kind: 'payments', mode: 'validate' });
    expect(checked.body.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([[2, 'payg'], [3, 'amount'], [4, 'date']]);

    const file = Buffer.from(`${header}\r\nP1,${migrated.payg.toLowerCase()},,45000,RCPT-${id}-1,"January, cash",2026-01-10\r\nP2,,${id},45000,RCPT-${id}-2,,2026-01-12\r\n`);
    const res = await upload(file, { kind: 'payments', mode: 'apply', source: 'old-platform' });
    expect(await finished(res.body.importid)).toMatchObject({ status: 'DONE', applied: 2 });
    const customer = (await t.http.get(`/finance/customers/${id}`).set('x-access-token', admin)).body;
    expect(customer.deal).toMatchObject({ amountpaid: 330000, nextpaymentdate: '2026-02-11', status: 'UNLOCKED' });
    await expectLedgerConsistent(t);
  });

  let mapped: ReturnType<typeof good>;

  it('refuses a file with two columns for one field, named so or mapped, and stores nothing', async () => {
    const before = await counts();
    const records = async () => (await t.db.query('SELECT count(*)::int AS n FROM imports'))[0].n;
    const recordsBefore = await records();
    // letter case aside, both columns are amount: the last one used to win, 999999 included
    const twice = Buffer.from(`externalid,payg,amount,reference,date,Amount\r\nD1,${migrated.payg},10,DUPCOL-1,2026-01-10,999999\r\n`);
    // a mapped column and an unmapped one named as the field
    const mapping = JSON.stringify({ Client: 'externalid', Code: 'payg', Paid: 'amount', Receipt: 'reference', Day: 'date' });
    const mapped = Buffer.from(`Client,Code,Paid,Receipt,Day,amount\r\nD2,${migrated.payg},10,DUPCOL-2,2026-01-10,999999\r\n`);
    for (const mode of ['validate', 'apply']) {
      const res = await upload(twice, { kind: 'payments', mode });
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { message: 'The file has more than one column for amount: "amount" (column 3) and "Amount" (column 6). Keep one of them.' } });
      const viaMapping = await upload(mapped, { kind: 'payments', mode, mapping });
      expect({ status: viaMapping.status, body: viaMapping.body }).toEqual({ status: 400, body: { message: 'The file has more than one column for amount: "Paid" (column 3) and "amount" (column 6). Keep one of them.' } });
    }
    expect(await counts()).toEqual(before);
    expect(await records()).toBe(recordsBefore);
  });

  it('loads another platform\'s export through a mapping, without editing the file', async () => {
    // headers as another PAYG platform writes them, in its own order, with a column this service has no use for
    const header = 'Contract Start,Client Ref,Client Name,Mobile,Next Of Kin,Next Of Kin Phone,Handset IMEI,Token Account,Product,Down Payment,Total Collected,Region,Serial';
    const r = (mapped = good());
    const file = Buffer.from(`${header}\r\n${[r.startdate, r.externalid, r.fullname, r.telephone, r.guarantorname, r.guarantorcontact, r.imei, r.payg, r.dealid, r.depositpaid, r.amountpaid, 'Northern', r.serialnumber].join(',')}\r\n`);
    const mapping = JSON.stringify({
      'Contract Start': 'startdate', 'Client Ref': 'externalid', 'Client Name': 'fullname', Mobile: 'telephone', 'Next Of Kin': 'guarantorname', 'Next Of Kin Phone': 'guarantorcontact',
      'Handset IMEI': 'imei', 'Token Account': 'payg', Product: 'dealid', 'Down Payment': 'depositpaid', 'Total Collected': 'amountpaid', Serial: 'serialnumber',
    });
    const unmapped = await upload(file, { kind: 'customers', mode: 'validate' });
    expect(unmapped.status).toBe(400);
    expect(unmapped.body.message).toMatch(/^The file has no column for externalid, .*\(a mapping can name them\)\.$/);

    const checked = await upload(file, { kind: 'customers', mode: 'validate', mapping, source: 'other-platform' });
    expect(checked.body).toMatchObject({ rows: 1, valid: 1, errors: [] });
    const res = await upload(file, { kind: 'customers', mode: 'apply', mapping, source: 'other-platform' });
    expect(res.status).toBe(202);
    expect(await finished(res.body.importid)).toMatchObject({ status: 'DONE', applied: 1, source: 'other-platform' });
    const [{ id }] = await t.db.query('SELECT id FROM customers WHERE payg = $1', [r.payg]);
    const customer = (await t.http.get(`/finance/customers/${id}`).set('x-access-token', admin)).body;
    expect(customer).toMatchObject({ fullname: r.fullname, telephone: r.telephone, imei: r.imei, serialnumber: r.serialnumber, guarantorname: r.guarantorname });
    expect(customer.deal).toMatchObject({ status: 'LOCKED', startdate: '2025-08-15', nextpaymentdate: '2025-12-13', amountpaid: 240000 });

    // a mapping naming an unknown field is refused before anything is read
    const bad = await upload(file, { kind: 'customers', mode: 'validate', mapping: JSON.stringify({ Mobile: 'phone' }) });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^mapping of "Mobile" must be one of externalid, /);
  });

  it('adds nothing due to any range for deals imported paid off or paid ahead: what they paid before counts as repaid', async () => {
    const collection = async (range: string) => (await t.http.get(`/finance/reports/portfolio?${range}`).set('x-access-token', admin).expect(200)).body.collection;
    const ranges = ['startdate=2025-12-17&enddate=2026-01-15', 'startdate=2025-10-01&enddate=2025-10-30', 'startdate=2026-01-01&enddate=2026-01-15'];
    const before = await Promise.all(ranges.map(collection));
    // 600,000 in all: one paid off, one paid 8 instalments ahead of a schedule that has asked for 5
    const rows = [{ ...good(), startdate: '2025-09-01', amountpaid: '600000.00' }, { ...good(), startdate: '2025-09-01', amountpaid: '420000.00' }];
    const res = await upload(csv(rows.map(line)), { kind: 'customers', mode: 'apply', source: 'paid-ahead' });
    expect(await finished(res.body.importid)).toMatchObject({ status: 'DONE', applied: 2 });
    expect(await Promise.all(ranges.map(collection))).toEqual(before);
  });

  it('writes collections.csv and portfolio.csv with the figures of the JSON endpoints', async () => {
    const collector = await t.token(Role.COLLECTOR);
    expect((await t.http.post('/finance/collections/generate').set('x-access-token', collector).send({})).status).toBe(200);
    const calls = (await t.http.get('/finance/collections/calls?limit=100').set('x-access-token', collector)).body;
    expect(calls.total).toBeGreaterThan(0);
    expect(calls.total).toBeLessThanOrEqual(100);

    const collections = text(await download('collections.csv'));
    expect(collections.split('\r\n')[0]).toBe('callid,customerid,fullname,telephone,payg,status,amountinarrears,daysoverdue,nextpaymentdate,assignedto,notes,promisedate,resolution,createdat,calledat,resolvedat');
    const rows = parse(collections, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(calls.total);
    for (const call of calls.items) {
      const row = rows.find((r) => Number(r.callid) === call.callid)!;
      expect({
        customerid: Number(row.customerid), fullname: row.fullname, telephone: unescapeCell(row.telephone), payg: row.payg, status: row.status,
        amountinarrears: Number(row.amountinarrears), daysoverdue: Number(row.daysoverdue), nextpaymentdate: row.nextpaymentdate,
      }).toEqual({
        customerid: call.customerid, fullname: call.fullname, telephone: call.telephone, payg: call.payg, status: call.status,
        amountinarrears: call.amountinarrears, daysoverdue: call.daysoverdue, nextpaymentdate: call.nextpaymentdate,
      });
    }

    const report = (await t.http.get('/finance/reports/portfolio').set('x-access-token', admin)).body;
    const portfolio = text(await download('portfolio.csv'));
    expect(portfolio.split('\r\n')[0]).toBe('customerid,accountnumber,fullname,payg,dealid,dealname,status,startdate,totalamount,depositpaid,monthly,amountpaid,balance,overpaid,bonusdays,nextpaymentdate,daysoverdue,bucket,repossessedat');
    const deals = parse(portfolio, { columns: true }) as Array<Record<string, string>>;
    const active = deals.filter((d) => d.status === 'LOCKED' || d.status === 'UNLOCKED');
    const sum = (list: typeof deals) => list.reduce((a, d) => a.plus(Money.of(d.balance)), Money.zero()).toNumber();
    const countOf = (status: string) => deals.filter((d) => d.status === status).length;
    expect({
      activedeals: active.length,
      outstandingbalance: sum(active),
      par30balance: sum(active.filter((d) => Number(d.daysoverdue) > 30)),
      bookbalance: sum(deals),
      dealsbystatus: { LOCKED: countOf('LOCKED'), UNLOCKED: countOf('UNLOCKED'), PAID_OFF: countOf('PAID_OFF'), REPOSSESSED: countOf('REPOSSESSED') },
    }).toEqual({ activedeals: report.activedeals, outstandingbalance: report.outstandingbalance, par30balance: report.par30balance, bookbalance: report.bookbalance, dealsbystatus: report.dealsbystatus });
    // the customer the mapping brought in: 33 days past a paid-up date of 2025-12-13, in 31-60
    const [{ id }] = await t.db.query('SELECT id FROM customers WHERE payg = $1', [mapped.payg]);
    const customer = (await t.http.get(`/finance/customers/${id}`).set('x-access-token', admin)).body;
    const line = deals.find((d) => Number(d.customerid) === id)!;
    expect(line).toMatchObject({ accountnumber: customer.accountnumber, payg: mapped.payg, status: 'LOCKED', startdate: '2025-08-15', nextpaymentdate: '2025-12-13', daysoverdue: '33', bucket: '31-60' });
    expect(Number(line.balance)).toBe(customer.deal.balance);
  });

  it('applies thousands of rows in chunks to exactly what the credit policy gives each row one by one', async () => {
    const n = (LONG ? 10 : 1) * CHUNK_ROWS + 500;
    const rows = Array.from({ length: n }, (_, i) => {
      const start = new Date(Date.UTC(2024, 0, 1) + (i % 730) * 86_400_000).toISOString().slice(0, 10);
      const paid = Math.min(600000, 60000 + 45000 * (i % 14) + (i % 3) * 1234.5); // the deposit alone, up to paid off, cents included
      return { ...good(), externalid: `BATCH-${i}`, payg: `BAT-${i}`, fullname: i % 5 === 0 ? `=Formula ${i}` : `Batch ${i}`, serialnumber: i % 4 === 0 ? '' : `SN-B-${i}`, amountpaid: paid.toFixed(2), startdate: start };
    });
    const res = await upload(csv(rows.map(line)), { kind: 'customers', mode: 'apply', source: 'batch' });
    expect(res.status).toBe(202);
    expect(await finished(res.body.importid, LONG ? 3000 : 600)).toMatchObject({ status: 'DONE', rows: n, applied: n, progress: 100 });

    const stored = await t.db.query(
      `SELECT ir.row, ir.externalid, c.id, c.fullname, c.telephone, c.imei, c.payg, c.serialnumber, c.status AS customerstatus, a.id AS accountid, a.accountnumber,
              cd.status, cd.startdate::text, cd.depositpaid::text, cd.amountpaid::text, cd.balance::text, cd.overpaid::text, cd.bonusdays, cd.nextpaymentdate::text,
              (SELECT json_agg(json_build_array(p.type, p.amount::text, p.reference, p.narration, p.customer_deal_id = cd.id) ORDER BY p.id) FROM payments p WHERE p.customer_id = c.id) AS ledger,
              (SELECT json_agg(json_build_array(k.action, k.nextpaymentdate::text, k.reason, k.imei, k.serialnumber, k.payg) ORDER BY k.id) FROM device_commands k WHERE k.customer_id = c.id) AS commands
       FROM import_rows ir JOIN customers c ON c.id = ir.customer_id JOIN accounts a ON a.id = c.account_id JOIN customer_deals cd ON cd.customer_id = c.id
       WHERE ir.import_id = $1 ORDER BY ir.row`,
      [res.body.importid],
    );
    expect(stored).toHaveLength(n);
    // one by one, rows were registered in the file's order: ids rise with the row
    expect(stored.map((s: { id: number }) => s.id)).toEqual([...stored.map((s: { id: number }) => s.id)].sort((a, b) => a - b));
    const deposit = Money.of('60000');
    stored.forEach((s: Record<string, unknown>, i: number) => {
      const r = rows[i];
      const opening = Money.of(r.amountpaid).minus(deposit);
      const state = deriveDealState({ totalamount: Money.of('600000'), monthly: Money.of('45000'), depositpaid: deposit, startdate: r.startdate }, [deposit, opening], 0, TODAY, false);
      expect(s).toEqual({
        row: i + 2, externalid: r.externalid, id: s.id, fullname: r.fullname, telephone: r.telephone, imei: r.imei, payg: r.payg, serialnumber: r.serialnumber || null,
        customerstatus: 'PENDING', accountid: s.accountid, accountnumber: accountNumberFor(s.accountid as number),
        status: state.status, startdate: r.startdate, depositpaid: '60000.00', amountpaid: state.amountpaid.toFixed(), balance: state.balance.toFixed(), overpaid: state.overpaid.toFixed(),
        bonusdays: 0, nextpaymentdate: state.nextpaymentdate,
        ledger: [
          ['DEPOSIT', '60000.00', `DEPOSIT-${s.id}`, 'Deposit at registration', true],
          ...(opening.isPositive() ? [['OPENING', opening.toFixed(), `IMPORT-${res.body.importid}-${r.externalid}`, 'Paid before the import', true]] : []),
        ],
        commands: [[state.status === 'PAID_OFF' ? 'RELEASE' : 'SYNC', state.nextpaymentdate, 'imported', r.imei, r.serialnumber || null, r.payg]],
      });
    });
    expect(new Set(stored.map((s: { status: string }) => s.status))).toEqual(new Set(['LOCKED', 'UNLOCKED', 'PAID_OFF']));
    // no REGISTERED messages: an import tells nobody unless notify=true
    const [{ messages }] = await t.db.query(`SELECT count(*)::int AS messages FROM sms_messages m JOIN import_rows ir ON ir.customer_id = m.customer_id WHERE ir.import_id = $1`, [res.body.importid]);
    expect(messages).toBe(0);
    await expectLedgerConsistent(t);
  }, LONG ? 600_000 : 120_000);

  it('reports the rows checked so far while it validates, a chunk at a time', async () => {
    const { ImportValidator } = await import('../src/modules/imports/application/import-validator.js');
    const validator = t.app.get(ImportValidator);
    const n = 2 * CHUNK_ROWS + 5;
    // a chunk of rows bad in themselves, then rows that wait to be checked against the book a chunk at a time
    const file = Buffer.from(`externalid,payg,amount,reference,date\r\n${Array.from({ length: n }, (_, i) => `V${i},NOBODY-${i},10,RCPT-V${i},${i < CHUNK_ROWS ? 'bad' : '2026-01-10'}`).join('\r\n')}\r\n`);
    const reported: number[] = [];
    const checked = await t.db.transaction((em) => validator.validate([file], 'payments', 'progress', null, em, { progress: async (done) => void reported.push(done) }));
    expect(checked).toMatchObject({ rows: n, valid: 0, errorcount: n });
    expect(reported).toEqual([CHUNK_ROWS, 2 * CHUNK_ROWS]);
  });

  it('reads a stored file back a slice at a time, byte for byte, with a character cut at a slice boundary', async () => {
    const { FILE_SLICE_BYTES, ImportsRepository } = await import('../src/modules/imports/infrastructure/imports.repository.js');
    const imports = t.app.get(ImportsRepository);
    // two-byte characters from one byte before the first boundary: the first slice ends inside one
    const content = Buffer.concat([Buffer.alloc(FILE_SLICE_BYTES - 1, 'a'), Buffer.from('é'.repeat(FILE_SLICE_BYTES / 2 + 7)), Buffer.from('z\r\n')]);
    // rolled back (never committed): no worker sees this job
    class RolledBack {
      constructor(readonly slices: Buffer[]) {}
    }
    const slices = await t.db
      .transaction(async (em) => {
        const [{ id }] = (await em.query(`INSERT INTO imports (kind, mode, source, status, filehash) VALUES ('customers', 'apply', 'slices', 'VALIDATING', repeat('s', 64)) RETURNING id`)) as Array<{ id: number }>;
        await em.query('INSERT INTO import_jobs (import_id, content) VALUES ($1, $2)', [id, content]);
        const read: Buffer[] = [];
        for await (const slice of imports.storedFile(id, em)) read.push(slice);
        throw new RolledBack(read);
      })
      .then(
        () => [],
        (error: unknown) => (error instanceof RolledBack ? error.slices : Promise.reject(error)),
      );
    expect(slices.map((s) => s.length)).toEqual([FILE_SLICE_BYTES, FILE_SLICE_BYTES, content.length - 2 * FILE_SLICE_BYTES]);
    expect(Buffer.concat(slices).equals(content)).toBe(true);
    // kept uncompressed (migration ImportFilesUncompressed): a slice is read without decompressing what comes before it
    expect(await t.db.query(`SELECT attstorage FROM pg_attribute WHERE attrelid = 'import_jobs'::regclass AND attname = 'content'`)).toEqual([{ attstorage: 'e' }]);
  });

  it('welcomes nobody it imports repossessed, and imports no closed deal onto a device the book already has', async () => {
    const withState = (rows: Array<Record<string, string>>) => Buffer.from(`${[`${HEADER},dealstatus`, ...rows.map(line)].join('\r\n')}\r\n`, 'utf8');
    const res = await upload(withState([{ ...good(), dealstatus: 'REPOSSESSED' }, { ...good(), dealstatus: '' }]), { kind: 'customers', mode: 'apply', source: 'notify-repossessed', notify: 'true' });
    expect(await finished(res.body.importid)).toMatchObject({ status: 'DONE', applied: 2 });
    const welcomed = await t.db.query(
      `SELECT cd.status FROM sms_messages m JOIN import_rows ir ON ir.customer_id = m.customer_id JOIN customer_deals cd ON cd.customer_id = m.customer_id
       WHERE ir.import_id = $1 AND m.kind = 'REGISTERED'`,
      [res.body.importid],
    );
    expect(welcomed).toHaveLength(1);
    expect(welcomed[0].status).not.toBe('REPOSSESSED');

    // a device the book has (here paid off): a repossessed or paid-off deal may not be brought in on it, a deal still being paid may
    const owner = await registerCustomer(t, dealid, { deposit: 600000 });
    const onIt = (over: Record<string, string>) => ({ ...good(), imei: owner.imei, ...over });
    for (const closed of [onIt({ dealstatus: 'REPOSSESSED' }), onIt({ amountpaid: '600000.00', dealstatus: '' })]) {
      const validate = await upload(withState([closed]), { kind: 'customers', mode: 'validate' });
      expect(validate.body.errors).toEqual([{ row: 2, field: 'imei', message: `IMEI ${owner.imei} is on a deal this book has already: a repossessed or paid-off deal cannot be imported onto it.` }]);
    }
    const active = await upload(withState([onIt({ dealstatus: '' })]), { kind: 'customers', mode: 'validate' });
    expect(active.body).toMatchObject({ valid: 1, errorcount: 0 });
  });

  it('sends migrated customers the REGISTERED message only when asked (notify=true)', async () => {
    const rows = [0, 1].map((i) => ({ ...good(), externalid: `NOTIFY-${i}` }));
    const res = await upload(csv(rows.map(line)), { kind: 'customers', mode: 'apply', source: 'notify', notify: 'true' });
    expect(res.status).toBe(202);
    expect(await finished(res.body.importid)).toMatchObject({ status: 'DONE', applied: 2, notify: true });
    const sent = await t.db.query(
      `SELECT m.kind, count(*)::int AS n FROM sms_messages m JOIN import_rows ir ON ir.customer_id = m.customer_id WHERE ir.import_id = $1 GROUP BY m.kind`,
      [res.body.importid],
    );
    expect(sent).toEqual([{ kind: 'REGISTERED', n: 2 }]);
    // each welcome names its own customer's PAYG code, account number and deposit
    const welcomes = (await t.db.query(
      `SELECT m.text, c.payg, a.accountnumber, cd.depositpaid FROM sms_messages m JOIN customers c ON c.id = m.customer_id JOIN accounts a ON a.id = c.account_id
       JOIN customer_deals cd ON cd.id = m.customer_deal_id JOIN import_rows ir ON ir.customer_id = c.id WHERE ir.import_id = $1 ORDER BY c.id`,
      [res.body.importid],
    )) as Array<{ text: string; payg: string; accountnumber: string; depositpaid: string }>;
    expect(new Set(welcomes.map((w) => w.accountnumber)).size).toBe(2);
    for (const w of welcomes) {
      expect(w.text).toContain(`PAYG code: ${w.payg}. Account: ${w.accountnumber}. Deposit received: UGX ${Number(w.depositpaid).toLocaleString('en')}.`);
    }
  });

  it('never gives an imported customer an account a registration reserved, nor two registrations one account', async () => {
    // registrations take account ids reserved ahead from the sequence; an import takes its own from the same sequence
    const registered = [await registerCustomer(t, dealid), await registerCustomer(t, dealid)];
    const rows = [0, 1, 2].map((i) => ({ ...good(), externalid: `ACCOUNTS-${i}` }));
    const res = await upload(csv(rows.map(line)), { kind: 'customers', mode: 'apply', source: 'accounts' });
    expect(await finished(res.body.importid)).toMatchObject({ status: 'DONE', applied: 3 });
    registered.push(...(await Promise.all([0, 1, 2, 3, 4].map(() => registerCustomer(t, dealid)))));
    const accounts = (await t.db.query(
      `SELECT a.id, a.accountnumber FROM customers c JOIN accounts a ON a.id = c.account_id WHERE c.id = ANY($1) OR c.payg = ANY($2)`,
      [registered.map((r) => r.customerid), rows.map((r) => r.payg)],
    )) as Array<{ id: number; accountnumber: string }>;
    expect(accounts).toHaveLength(10);
    expect(new Set(accounts.map((a) => a.id)).size).toBe(10);
    for (const a of accounts) expect(a.accountnumber).toBe(accountNumberFor(a.id));
  });
});
