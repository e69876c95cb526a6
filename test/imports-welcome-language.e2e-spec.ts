import { Role } from '../src/common/auth/role.js';
import { createDeal, uniqueImei, uniqueTelephone } from './support/fixtures.js';
import { startTestApp, TestApp } from './support/test-app.js';

/**
 * A customers import with notify=true welcomes each migrated customer (REGISTERED), in the customer's
 * language (DESIGN part 11). The file's `language` column was recorded after the welcome was written,
 * so a customer who reads Swahili was welcomed in SMS_DEFAULT_LANGUAGE (English).
 */
describe('The welcome of a customer imported with notify=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is in the language the file gives, and in the default language where it gives none', async () => {
    const admin = await t.token(Role.ADMIN);
    const { dealid } = await createDeal(t, { totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 });
    const row = (n: string, language: string) => `${n},Customer ${n},${uniqueTelephone()},G,+256701987654,${uniqueImei()},${n},${dealid},60000,150000,2025-12-01,${language}`;
    const file = ['externalid,fullname,telephone,guarantorname,guarantorcontact,imei,payg,dealid,depositpaid,amountpaid,startdate,language', row('WEL-SW', 'sw'), row('WEL-EN', 'en'), row('WEL-NONE', '')].join('\r\n');
    const res = await t.http.post('/finance/imports').set('x-access-token', admin).field('kind', 'customers').field('mode', 'apply').field('notify', 'true').attach('file', Buffer.from(`${file}\r\n`), { filename: 'welcome.csv', contentType: 'text/csv' });
    expect(res.status).toBe(202);
    let record = res.body;
    for (let i = 0; i < 300 && record.status !== 'DONE' && record.status !== 'FAILED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      record = (await t.http.get(`/finance/imports/${res.body.importid}`).set('x-access-token', admin)).body;
    }
    expect(record).toMatchObject({ status: 'DONE', applied: 3 });
    const welcomes = await t.db.query(`SELECT c.payg, m.language FROM sms_messages m JOIN customers c ON c.id = m.customer_id WHERE m.kind = 'REGISTERED' ORDER BY c.payg`);
    expect(welcomes).toEqual([
      { payg: 'WEL-EN', language: 'en' },
      { payg: 'WEL-NONE', language: 'en' },
      { payg: 'WEL-SW', language: 'sw' },
    ]);
    // and the preferences themselves are as the file gave them
    const preferences = await t.db.query(`SELECT c.payg, p.language FROM customer_preferences p JOIN customers c ON c.id = p.customer_id ORDER BY c.payg`);
    expect(preferences).toEqual([
      { payg: 'WEL-EN', language: 'en' },
      { payg: 'WEL-SW', language: 'sw' },
    ]);
  });
});
