import { Role } from '../src/common/auth/role.js';
import { createDeal, registerCustomer, uniqueImei, uniqueTelephone } from './support/fixtures.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * A customers export carries each deal's terms (totalamount, monthly) and state (dealstatus) beside
 * its dealid. Applied to a service whose deal of that id has other terms (deals created in another
 * order), the import used to take the target deal's terms silently: every customer's balance changed,
 * and the credit policy then locked or released their devices by terms nobody agreed to. A row whose
 * file says PAID_OFF while what it paid is short of the deal's total (or the other way round) was
 * likewise brought in locked. When the file gives these columns they must agree with the deal.
 */
describe('A customers file whose deal terms or paid-off state disagree with the book', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token(Role.ADMIN);
  });
  afterAll(() => t.close());

  const upload = (file: string, mode: string) =>
    t.http.post('/finance/imports').set('x-access-token', admin).field('kind', 'customers').field('mode', mode).attach('file', Buffer.from(file), { filename: 'customers.csv', contentType: 'text/csv' });

  it('refuses an export applied where its deal ids name deals with other terms, and takes it where they agree', async () => {
    // the book the file came from had the 600,000 phone as deal 1 and the 300,000 one as deal 2; here they were created the other way round
    const cheap = await createDeal(t, { totalamount: 300000, deposit: 30000, monthly: 22500, months: 12 });
    const phone = await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 });
    const source = await registerCustomer(t, phone.dealid, { deposit: 60000 });
    const exported = (await t.http.get('/finance/exports/customers.csv').set('x-access-token', admin).expect(200)).text;
    const lines = exported.trimEnd().split('\r\n');
    // the same customer as a new one (new identifiers), on the dealid of the book it came from
    const moved = (dealid: number) =>
      `${lines[0]}\r\n${lines[1]
        .replace(source.telephone, uniqueTelephone())
        .replace(source.imei, uniqueImei())
        .replace(source.payg, `MOVED-${dealid}`)
        .replace(/^[^,]+/, `MOVED-${dealid}`)
        .replace(`,${phone.dealid},60000.00,`, `,${dealid},60000.00,`)}\r\n`;

    const wrong = await upload(moved(cheap.dealid), 'validate');
    expect(wrong.body.errors).toEqual([
      { row: 2, field: 'totalamount', message: `totalamount 600000.00 is not the total of deal ${cheap.dealid} (300000.00): the file's deal is another one` },
      { row: 2, field: 'monthly', message: `monthly 45000.00 is not the monthly of deal ${cheap.dealid} (22500.00): the file's deal is another one` },
    ]);
    const right = await upload(moved(phone.dealid), 'validate');
    expect(right.body).toMatchObject({ rows: 1, valid: 1, errors: [] });
  });

  it('refuses a row whose dealstatus says paid off when what it paid is short of the total, and the other way round', async () => {
    const deal = await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 });
    const header = 'externalid,fullname,telephone,guarantorname,guarantorcontact,imei,payg,dealid,depositpaid,amountpaid,startdate,dealstatus';
    let n = 0;
    const row = (amountpaid: string, dealstatus: string) => {
      n++;
      return `STATE-${n},State ${n},${uniqueTelephone()},G,+256701987654,${uniqueImei()},STATE-${n},${deal.dealid},60000,${amountpaid},2025-12-01,${dealstatus}`;
    };
    const file = [header, row('300000', 'PAID_OFF'), row('600000', 'UNLOCKED'), row('600000', 'PAID_OFF'), row('300000', 'LOCKED'), row('300000', ''), row('300000', 'UNLOCKED')].join('\r\n');
    const checked = await upload(`${file}\r\n`, 'validate');
    expect(checked.body.errors).toEqual([
      { row: 2, field: 'dealstatus', message: `dealstatus PAID_OFF disagrees with amountpaid 300000.00: deal ${deal.dealid}'s total is 600000.00` },
      { row: 3, field: 'dealstatus', message: `dealstatus UNLOCKED disagrees with amountpaid 600000.00: deal ${deal.dealid}'s total is 600000.00` },
    ]);
  });
});
