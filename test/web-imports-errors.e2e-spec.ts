import { Role } from '../src/common/auth/role.js';
import { startWebJourney, type WebJourney } from './support/browser.js';
import { createDeal, registerCustomer, uniqueImei, uniqueTelephone } from './support/fixtures.js';

const HEADER = 'externalid,fullname,telephone,guarantorname,guarantorcontact,imei,payg,serialnumber,dealid,depositpaid,amountpaid,startdate';

/** What the Imports page says about the file chosen now, not an earlier one. */
describe('web client: import errors', () => {
  let w: WebJourney;
  beforeAll(async () => {
    w = await startWebJourney();
  });
  afterAll(() => w.close());

  const csv = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });

  it('drops a refused file’s message once another file is chosen', async () => {
    const admin = await w.t.user(Role.ADMIN, 'importchooser');
    const { page } = await w.open();
    await w.signIn(page, admin.username, admin.password);
    await page.goto('/imports');
    await page.getByRole('heading', { level: 1, name: 'Imports' }).waitFor();
    await page.locator('input[type=file]').setInputFiles(csv('wrong.csv', 'a,b\r\n1,2\r\n'));
    await page.getByRole('button', { name: 'Validate' }).click();
    const refusal = page.locator('form, section').getByRole('alert').filter({ hasText: 'The file has no column for' });
    await refusal.first().waitFor();
    // the operator picks the right file: what was said about the wrong one no longer stands beside it
    await page.locator('input[type=file]').setInputFiles(csv('book.csv', 'externalid,fullname\r\n'));
    await refusal.first().waitFor({ state: 'detached' });
  });

  it('says why an apply failed, with the rows to correct, where it was applied and in the list', async () => {
    const dealid = (await createDeal(w.t, { dealname: 'Import race kit', totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
    const imei = uniqueImei();
    const admin = await w.t.user(Role.ADMIN, 'importapplier');
    const { page } = await w.open();
    await w.signIn(page, admin.username, admin.password);
    await page.goto('/imports');
    const row = `EXT-9,Late Comer,${uniqueTelephone()},Joseph Okello,+256701987654,${imei},MIG-LATE-9,SN-9,${dealid},60000.00,120000.00,2025-08-15`;
    await page.locator('input[type=file]').setInputFiles(csv('late.csv', `${HEADER}\r\n${row}\r\n`));
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByText('1 of 1 rows valid, 0 errors.').waitFor();
    // between the validation and the apply, an operator registers a customer on the same phone
    await registerCustomer(w.t, dealid, { imei });
    await page.getByRole('button', { name: 'Apply' }).click();
    const upload = page.getByRole('region', { name: 'Upload' });
    await upload.getByRole('alert').filter({ hasText: 'Nothing was applied' }).waitFor();
    await upload.getByRole('cell', { name: 'imei', exact: true }).waitFor();
    await page.getByRole('region', { name: 'Imports' }).getByRole('row', { name: /apply/ }).getByText(/Nothing was applied/).waitFor();
  });

  it('offers neither button while a file is on its way, so an apply cannot be followed by a second one', async () => {
    const dealid = (await createDeal(w.t, { dealname: 'Slow link kit', totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 })).dealid;
    const admin = await w.t.user(Role.ADMIN, 'slowuploader');
    const { page } = await w.open();
    await w.signIn(page, admin.username, admin.password);
    await page.goto('/imports');
    const row = `EXT-11,Slow Upload,${uniqueTelephone()},Joseph Okello,+256701987654,${uniqueImei()},MIG-SLOW-11,SN-11,${dealid},60000.00,120000.00,2025-08-15`;
    await page.locator('input[type=file]').setInputFiles(csv('slow.csv', `${HEADER}\r\n${row}\r\n`));
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByText('1 of 1 rows valid, 0 errors.').waitFor();
    // a slow mobile link: the apply's upload takes a while
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/finance/imports', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Apply' }).click();
    // the page re-renders after the click has returned: wait for it (a second's worth), not for the upload
    await page.getByRole('button', { name: 'Validate', disabled: true }).waitFor({ timeout: 1_000 });
    release();
    await page.getByRole('row', { name: /apply/ }).waitFor();
  });
});
