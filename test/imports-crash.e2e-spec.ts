import { luhnCheckDigit } from '../src/common/identifiers/imei.js';
import { CHUNK_ROWS } from '../src/modules/imports/application/import-validator.js';
import { expectMoneyConsistent, waitUntil, withClient } from './support/faults.js';
import { api, Instance, signIn, startInstance } from './support/instances.js';
import { ADMIN, createTestDatabase, dropTestDatabase } from './support/test-app.js';

/**
 * kill -9 of the instance applying an import: the apply is one transaction, so the book holds none
 * of it afterwards; the job is free again, and the restarted instance applies the whole file once.
 */

/** Customers are written CHUNK_ROWS at a time: enough chunks that the kill lands between two of them. */
const ROWS = 10 * CHUNK_ROWS;

function bookFile(dealid: number): Buffer {
  const lines = ['externalid,fullname,telephone,guarantorname,guarantorcontact,imei,payg,dealid,depositpaid,amountpaid,startdate'];
  for (let i = 0; i < ROWS; i++) {
    const body = `35${String(900_000_000_000 + i).padStart(12, '0')}`;
    lines.push(`K-${i},Killed ${i},+256772${String(100_000 + i).padStart(6, '0')},G,+256701987654,${body}${luhnCheckDigit(body)},KIL-${i},${dealid},60000,150000,2025-10-01`);
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

describe('kill -9 of an instance in the middle of an import', () => {
  let databaseUrl: string;
  let instance: Instance | undefined;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });
  afterAll(async () => {
    await instance?.stop('SIGKILL');
    await dropTestDatabase(databaseUrl);
  });

  const book = () =>
    withClient(databaseUrl, async (c) => (await c.query(`SELECT (SELECT count(*) FROM customers)::int AS customers, (SELECT count(*) FROM payments)::int AS payments,
      (SELECT count(*) FROM device_commands)::int AS commands, (SELECT count(*) FROM import_rows)::int AS importrows`)).rows[0]);
  const record = async (url: string, token: string, id: number) => (await api(url, `/finance/imports/${id}`, token)).body;

  it('leaves no half of the file, and the restarted instance applies all of it once', async () => {
    instance = await startInstance(databaseUrl);
    const admin = await signIn(instance.url, ADMIN.username, ADMIN.password);
    const deal = await api(instance.url, '/finance/deals/create', admin, { dealname: 'Kill phone', totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 });
    const empty = await book();

    const form = new FormData();
    form.set('kind', 'customers');
    form.set('mode', 'apply');
    form.set('file', new Blob([new Uint8Array(bookFile(deal.body.dealid))], { type: 'text/csv' }), 'kill.csv');
    const res = await fetch(`${instance.url}/finance/imports`, { method: 'POST', headers: { 'x-access-token': admin }, body: form });
    expect(res.status).toBe(202);
    const { importid } = (await res.json()) as { importid: number };

    // killed while applying, after at least two chunks went in (progress is written beside the transaction)
    await waitUntil('the apply under way', async () => {
      const r = await record(instance!.url, admin, importid);
      return r.status === 'APPLYING' && r.processed >= 2 * CHUNK_ROWS;
    }, 120_000, 50);
    await instance.stop('SIGKILL');
    instance = undefined;
    expect(await book()).toEqual(empty);

    instance = await startInstance(databaseUrl);
    const again = await signIn(instance.url, ADMIN.username, ADMIN.password);
    await waitUntil('the import done', async () => ['DONE', 'FAILED'].includes((await record(instance!.url, again, importid)).status), 180_000, 200);
    const done = await record(instance.url, again, importid);
    expect(done).toMatchObject({ status: 'DONE', rows: ROWS, applied: ROWS, progress: 100 });
    const [{ attempts }] = (await withClient(databaseUrl, (c) => c.query('SELECT attempts FROM imports WHERE id = $1', [importid]))).rows;
    expect(attempts).toBe(2);
    // each customer once: a deposit and an OPENING row each, one SYNC each
    expect(await book()).toEqual({ customers: ROWS, payments: 2 * ROWS, commands: ROWS, importrows: ROWS });
    await expectMoneyConsistent(databaseUrl);
  }, 400_000);
});
