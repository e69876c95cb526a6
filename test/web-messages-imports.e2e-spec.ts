import { Role } from '../src/common/auth/role.js';
import { expectAccessible, startWebJourney, type WebJourney } from './support/browser.js';
import { createDeal, registerCustomer, uniqueImei, uniqueTelephone } from './support/fixtures.js';

const HEADER = 'externalid,fullname,telephone,guarantorname,guarantorcontact,imei,payg,serialnumber,dealid,depositpaid,amountpaid,startdate';

/** Issue 16 and 17 in a browser: an admin imports a book from CSV; an operator texts a customer. */
describe('web client: messages and imports', () => {
  let w: WebJourney;
  let dealid: number;

  beforeAll(async () => {
    w = await startWebJourney();
    dealid = (await createDeal(w.t, { dealname: 'Tecno Spark 20', totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
  });
  afterAll(async () => {
    await w?.close();
  });

  const file = (telephone: string) => ({
    name: 'book.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${HEADER}\r\nEXT-1,Migrated One,${telephone},Joseph Okello,+256701987654,${uniqueImei()},MIG-ONE-1,SN-1,${dealid},60000.00,240000.00,2025-08-15\r\n`, 'utf8'),
  });

  it('an admin validates a customers CSV, fixes the bad row, applies it and sees DONE', async () => {
    const admin = await w.t.user(Role.ADMIN, 'importer1');
    const { page } = await w.open({ viewport: { width: 390, height: 844 } });
    await w.signIn(page, admin.username, admin.password);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Imports' }).click();
    await page.getByRole('heading', { level: 1, name: 'Imports' }).waitFor();
    await expectAccessible(page);

    await page.locator('input[type=file]').setInputFiles(file('12345'));
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('cell', { name: 'telephone', exact: true }).waitFor();
    await page.getByRole('cell', { name: '2', exact: true }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
    await expectAccessible(page);

    await page.locator('input[type=file]').setInputFiles(file(uniqueTelephone()));
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByText('1 of 1 rows valid, 0 errors.').waitFor();
    // the file validated as customers is not applied as payments: switching the kind asks for a new validation
    const kind = page.getByRole('radiogroup', { name: 'Kind' });
    await kind.getByText('payments', { exact: true }).click();
    expect(await page.getByRole('button', { name: 'Apply' }).isDisabled()).toBe(true);
    expect(await page.getByText('No errors: the file can be applied.').count()).toBe(0);
    await kind.getByText('customers', { exact: true }).click();
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByText('1 of 1 rows valid, 0 errors.').waitFor();
    await page.getByRole('button', { name: 'Apply' }).click();
    // the apply's own row (the validate before it is DONE at once)
    await page.getByRole('row', { name: /apply\s*DONE/ }).waitFor();
    await page.getByRole('progressbar', { name: /: 100%/ }).first().waitFor();
    const [row] = await w.t.db.query(`SELECT count(*)::int AS n FROM customers WHERE fullname = 'Migrated One'`);
    expect(row.n).toBe(1);
  });

  it('an operator sends a customer an SMS and sees it listed; the Messages page lists it too', async () => {
    const customer = await registerCustomer(w.t, dealid, { fullname: 'Sarah Achieng', telephone: uniqueTelephone() });
    const operator = await w.t.user(Role.OPERATOR, 'texter1');
    const { page } = await w.open();
    await w.signIn(page, operator.username, operator.password);
    await page.goto(`/customers/${customer.customerid}`);
    await page.getByRole('heading', { level: 1, name: 'Sarah Achieng' }).waitFor();
    await page.getByRole('button', { name: 'Send SMS' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Text').fill('x'.repeat(460));
    await dialog.getByRole('button', { name: 'Send SMS' }).click();
    await dialog.getByText(/text must be shorter/).waitFor();
    await dialog.getByLabel('Text').fill('Our agent will visit you on Friday.');
    await dialog.getByRole('button', { name: 'Send SMS' }).click();
    const section = page.getByRole('region', { name: 'Messages' }).first();
    await page.getByRole('cell', { name: 'Our agent will visit you on Friday.' }).waitFor();
    await section.waitFor();
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Messages' }).click();
    await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'All' }).click();
    await page.getByRole('cell', { name: 'Our agent will visit you on Friday.' }).waitFor();
    expect(page.url()).toContain('status=ALL');
  });
});
