/// <reference lib="dom" />
import jwt from 'jsonwebtoken';
import { Role } from '../src/common/auth/role.js';
import { startWebJourney, type WebJourney } from './support/browser.js';
import { createDeal, registerCustomer, uniqueImei, uniqueTelephone } from './support/fixtures.js';
import { ADMIN, TEST_JWT_SECRET } from './support/test-app.js';

/** Lists past their last page, every part of a page saying when its read failed, and a form outliving its session. */
describe('web client: lists and failed reads', () => {
  let w: WebJourney;
  beforeAll(async () => {
    w = await startWebJourney();
  });
  afterAll(() => w.close());

  it('moves a page past the last one (a bookmark, a list that shrank) to the last page, showing its rows', async () => {
    await w.t.user(Role.COLLECTOR, 'pagedcollector');
    const { page } = await w.open();
    await w.signIn(page, ADMIN.username, ADMIN.password);
    await page.goto('/users?page=3');
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    // one page of users: the list shows them, not "Nothing here yet." above "2 records"
    await page.getByRole('cell', { name: 'pagedcollector', exact: true }).waitFor();
    expect(await page.getByText('Nothing here yet.').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('page')).toBe('1');
  });

  it('reads a page number that is not a whole number (an edited or cut link) as the first page', async () => {
    const { page } = await w.open();
    await w.signIn(page, ADMIN.username, ADMIN.password);
    for (const link of ['/users?page=1.5', '/users?page=2x', '/users?page=99999999999']) {
      await page.goto(link);
      await page.getByRole('cell', { name: 'pagedcollector', exact: true }).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
    }
  });

  it('reads an unknown status in a Messages link as the default filter, not a refused request', async () => {
    const { page } = await w.open();
    await w.signIn(page, ADMIN.username, ADMIN.password);
    await page.goto('/messages?status=failed');
    await page.getByRole('heading', { level: 1, name: 'Messages' }).waitFor();
    await page.getByText('No messages.').waitFor();
    expect(await page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('FAILED');
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('says so on the dashboard when the customer counts or the call counts cannot be read', async () => {
    const { page } = await w.open();
    await page.route('**/finance/customers/status-summary', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'Customer counts are unavailable.' }) }));
    await page.route('**/finance/collections/stats', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Call counts are unavailable.' }) }));
    await w.signIn(page, ADMIN.username, ADMIN.password);
    await page.goto('/dashboard');
    await page.getByText('PAR30').waitFor();
    await page.getByRole('alert').filter({ hasText: 'Customer counts are unavailable.' }).waitFor();
    await page.getByRole('region', { name: 'Calls by state' }).getByRole('alert').filter({ hasText: 'Call counts are unavailable.' }).waitFor();
  });

  it('keeps what was typed in a dialog when the session expires as it is sent, for the same person signing in again', async () => {
    const operator = await w.t.user(Role.OPERATOR, 'draftkeeper');
    const { page } = await w.open();
    await w.signIn(page, operator.username, operator.password);
    await page.goto('/inventory');
    await page.getByRole('button', { name: 'Add item' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Item name').fill('Solar panel 80W, batch 7');
    await dialog.getByLabel('Quantity').fill('12');
    await dialog.getByLabel('Unit cost').fill('185,000.50');
    await dialog.getByLabel('Supplier').fill('Sunrise Traders Kampala');
    // the token runs out while the operator types
    const expired = jwt.sign({ sub: operator.id, username: operator.username, role: 'OPERATOR', env: 'uat', ver: 1, exp: Math.floor(Date.now() / 1000) - 10 }, TEST_JWT_SECRET, { algorithm: 'HS256', issuer: 'payg-uat' });
    await page.evaluate((token) => {
      const session = JSON.parse(localStorage.getItem('payg.session')!);
      localStorage.setItem('payg.session', JSON.stringify({ ...session, accessToken: token }));
    }, expired);
    await dialog.getByRole('button', { name: 'Add item' }).click();
    await page.getByRole('alert').filter({ hasText: 'Unauthorized! Access Token was expired!' }).first().waitFor();
    await page.getByLabel('Username', { exact: true }).fill(operator.username);
    await page.getByLabel('Password', { exact: true }).fill(operator.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();
    // the dialog is back as it was, not sent: one press of its button adds the item
    const back = page.getByRole('dialog', { name: 'Add item' });
    expect(await back.getByLabel('Item name').inputValue()).toBe('Solar panel 80W, batch 7');
    expect(await back.getByLabel('Quantity').inputValue()).toBe('12');
    expect(await back.getByLabel('Unit cost').inputValue()).toMatch(/^185,000\.50?$/);
    expect(await back.getByLabel('Supplier').inputValue()).toBe('Sunrise Traders Kampala');
    expect((await w.t.db.query(`SELECT count(*)::int AS n FROM inventory_items WHERE itemname = 'Solar panel 80W, batch 7'`))[0].n).toBe(0);
    await back.getByRole('button', { name: 'Add item' }).click();
    await page.getByRole('cell', { name: 'Solar panel 80W, batch 7' }).waitFor();
    const [row] = await w.t.db.query(`SELECT count(*)::int AS n, min(unitcost)::text AS cost FROM inventory_items WHERE itemname = 'Solar panel 80W, batch 7'`);
    expect(row).toEqual({ n: 1, cost: '185000.50' });
    // used once: a reload does not open it again
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();
    await page.getByRole('cell', { name: 'Solar panel 80W, batch 7' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('keeps a registration typed in full when the session expires as it is sent', async () => {
    await createDeal(w.t, { dealname: 'Draft solar kit' });
    const operator = await w.t.user(Role.OPERATOR, 'registrar');
    const telephone = uniqueTelephone();
    const imei = uniqueImei();
    const { page } = await w.open();
    await w.signIn(page, operator.username, operator.password);
    await page.goto('/customers');
    await page.getByRole('button', { name: 'Register customer' }).click();
    const form = page.getByRole('dialog');
    await form.getByLabel('Full name').fill('Esther Namubiru');
    await form.getByLabel('Telephone', { exact: true }).fill(telephone);
    await form.getByLabel('Deal', { exact: true }).click();
    await page.getByRole('option', { name: /Draft solar kit/ }).click();
    await form.getByLabel('Guarantor name').fill('Moses Kato');
    await form.getByLabel('Guarantor contact').fill('+256701987654');
    await form.getByLabel('IMEI').fill(imei);
    await form.getByLabel('PAYG code').fill('PAYG-ESTHER-1');
    await page.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('payg.session')!);
      localStorage.setItem('payg.session', JSON.stringify({ ...session, accessToken: 'expired-meanwhile' }));
    });
    await form.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Username', { exact: true }).fill(operator.username);
    await page.getByLabel('Password', { exact: true }).fill(operator.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const again = page.getByRole('dialog', { name: 'Register customer' });
    await again.waitFor();
    expect(await again.getByLabel('Full name').inputValue()).toBe('Esther Namubiru');
    expect(await again.getByLabel('IMEI').inputValue()).toBe(imei);
    expect(await again.getByLabel('PAYG code').inputValue()).toBe('PAYG-ESTHER-1');
    await again.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { level: 1, name: 'Esther Namubiru' }).waitFor();
  });

  it('keeps an SMS being typed when a read in the background finds the session expired', async () => {
    const customer = await registerCustomer(w.t, (await createDeal(w.t)).dealid, { fullname: 'Agnes Nabirye' });
    const operator = await w.t.user(Role.OPERATOR, 'smswriter');
    // a payment's UNLOCK waits for the platform: the customer's page reads its commands again every 2 s
    await w.t.http.post('/finance/payments/load').set('x-access-token', operator.token).send({ customerid: customer.customerid, amount: 45000, reference: 'BG-EXPIRY-1', narration: 'cash' }).expect(201);
    const { page } = await w.open();
    await w.signIn(page, operator.username, operator.password);
    await page.goto(`/customers/${customer.customerid}`);
    await page.getByRole('heading', { level: 1, name: 'Agnes Nabirye' }).waitFor();
    await page.getByRole('button', { name: 'Send SMS' }).click();
    const text = 'Dear Agnes, our agent will come by on Friday morning to check the solar kit with you.';
    await page.getByRole('dialog').getByLabel('Text').fill(text);
    await page.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('payg.session')!);
      localStorage.setItem('payg.session', JSON.stringify({ ...session, accessToken: 'expired-meanwhile' }));
    });
    // the next poll meets the refused token: sign-in, with the dialog still being written
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Username', { exact: true }).fill(operator.username);
    await page.getByLabel('Password', { exact: true }).fill(operator.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const again = page.getByRole('dialog', { name: 'Send SMS' });
    await again.waitFor();
    expect(await again.getByLabel('Text').inputValue()).toBe(text);
  });

  it('does not hand what one person typed to another who signs in after the session expired', async () => {
    const first = await w.t.user(Role.OPERATOR, 'draftfirst');
    const second = await w.t.user(Role.OPERATOR, 'draftsecond');
    const { page } = await w.open();
    await w.signIn(page, first.username, first.password);
    await page.goto('/inventory');
    await page.getByRole('button', { name: 'Add item' }).click();
    await page.getByRole('dialog').getByLabel('Item name').fill('Private draft');
    await page.getByRole('dialog').getByLabel('Quantity').fill('1');
    await page.getByRole('dialog').getByLabel('Unit cost').fill('1');
    await page.getByRole('dialog').getByLabel('Supplier').fill('Someone');
    await page.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('payg.session')!);
      localStorage.setItem('payg.session', JSON.stringify({ ...session, accessToken: 'not-a-token' }));
    });
    await page.getByRole('dialog').getByRole('button', { name: 'Add item' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByLabel('Username', { exact: true }).fill(second.username);
    await page.getByLabel('Password', { exact: true }).fill(second.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();
    await page.getByText(/records?$/).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain('Private draft');
  });

  it('says at once, in words, that the service could not be reached when the network drops, and sends nothing later', async () => {
    const { page } = await w.open();
    await w.signIn(page, ADMIN.username, ADMIN.password);
    await page.goto('/deals');
    await page.getByRole('heading', { level: 1, name: 'Deals' }).waitFor();
    await page.getByRole('button', { name: 'Create deal' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Deal name').fill('Offline kit');
    await dialog.getByLabel('Total amount').fill('500000');
    await dialog.getByLabel('Deposit').fill('50000');
    await dialog.getByLabel('Monthly').fill('45000');
    await dialog.getByLabel('Months').fill('10');
    await page.context().setOffline(true);
    await dialog.getByRole('button', { name: 'Create deal' }).click();
    const unreachable = /could not be reached/;
    await dialog.getByRole('alert').filter({ hasText: unreachable }).waitFor();
    // the button is ready for another try, and what was typed is still there
    expect(await dialog.getByRole('button', { name: 'Create deal' }).isEnabled()).toBe(true);
    expect(await dialog.getByLabel('Deal name').inputValue()).toBe('Offline kit');
    // the operator gives up and closes the dialog: nothing is sent behind their back when the connection returns
    await page.keyboard.press('Escape');
    await page.context().setOffline(false);
    await page.waitForTimeout(1000);
    expect((await w.t.db.query(`SELECT count(*)::int AS n FROM deals WHERE dealname = 'Offline kit'`))[0].n).toBe(0);
    await page.route('**/finance/deals?*', (route) => route.abort('internetdisconnected'));
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('link', { name: 'Deals' }).click();
    await page.getByRole('alert').filter({ hasText: unreachable }).waitFor();
  });

  it('says the service could not be reached when an export meets a dropped network', async () => {
    const { page } = await w.open();
    await w.signIn(page, ADMIN.username, ADMIN.password);
    await page.goto('/dashboard');
    await page.getByText('PAR30').waitFor();
    await page.context().setOffline(true);
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByRole('alert').filter({ hasText: /^The export failed: The service could not be reached/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Export CSV' }).isEnabled()).toBe(true);
    await page.context().setOffline(false);
  });
});
