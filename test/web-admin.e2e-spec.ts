/// <reference lib="dom" />
import jwt from 'jsonwebtoken';
import { Role } from '../src/common/auth/role.js';
import { expectAccessible, screenshot, startWebJourney, type WebJourney } from './support/browser.js';
import { createDeal, registerCustomer, uniqueImei } from './support/fixtures.js';
import { ADMIN, TEST_JWT_SECRET } from './support/test-app.js';

/** Serving, managers, collectors, expiry and a phone screen, in a real browser on a fresh database. */
describe('web client: serving, admin, collector, expiry, phone', () => {
  let w: WebJourney;
  let dealname: string;
  let sarah: number;

  beforeAll(async () => {
    w = await startWebJourney();
    const deal = await createDeal(w.t, { dealname: 'Solar kit 80W' });
    dealname = deal.dealname as string;
    sarah = (await registerCustomer(w.t, deal.dealid, { fullname: 'Sarah Atim' })).customerid;
  });
  afterAll(() => w.close());

  it('serves the client for its routes, keeps JSON 404s for API paths, and sends a CSP without inline script', async () => {
    for (const path of ['/', '/customers/42', '/signin']) {
      const res = await w.t.http.get(path).expect(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toContain('<div id="root">');
      const csp = res.headers['content-security-policy'] as string;
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    }
    for (const path of ['/finance/nothing-here', '/api/nothing', '/docs/nothing.js', '/assets/missing.js']) {
      const res = await w.t.http.get(path).expect(404);
      expect(res.body).toEqual({ message: `Cannot GET ${path}` });
    }
    // the API's answers carry the same security headers as the client's pages
    for (const res of [await w.t.http.get('/health').expect(200), await w.t.http.get('/finance/customers').expect(401)]) {
      expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN', 'strict-transport-security': 'max-age=31536000; includeSubDomains', 'referrer-policy': 'no-referrer' });
      expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    }
  });

  it('keeps Swagger UI working under the CSP', async () => {
    const { page } = await w.open();
    const refused: string[] = [];
    page.on('console', (m) => m.type() === 'error' && /Content Security Policy/.test(m.text()) && refused.push(m.text()));
    await page.goto('/docs');
    await page.getByText('PAYG device financing service').first().waitFor();
    await page.getByText('/finance/payments/load').first().waitFor();
    expect(refused).toEqual([]);
  });

  it('lets an admin create a user, read the dashboard and disable the user', async () => {
    const { page } = await w.open();
    await w.signIn(page, ADMIN.username, ADMIN.password);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByText('PAR30').waitFor();
    await page.getByText('Payments per day, last 30 days').waitFor();
    await page.locator('.recharts-surface').first().waitFor();
    await expectAccessible(page);
    await screenshot(page, 'dashboard');

    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Username').fill('fieldofficer7');
    await dialog.getByLabel('Password').fill('short');
    await dialog.getByLabel('Role').click();
    await page.getByRole('option', { name: 'COLLECTOR' }).click();
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await dialog.getByText(/password must/).waitFor();
    await expectAccessible(page);
    await dialog.getByLabel('Password').fill('a-long-enough-passphrase');
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await page.getByText('User fieldofficer7 created.').waitFor();
    const row = page.getByRole('row').filter({ hasText: 'fieldofficer7' });
    await row.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // the list says who is disabled, and offers only the way back
    await row.getByText('Disabled', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Disable' }).count()).toBe(0);
    const signIn = await w.t.http.post('/api/auth/signin').send({ username: 'fieldofficer7', password: 'a-long-enough-passphrase' });
    expect(signIn.status).toBe(401);
    await row.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Enable' }).click();
    await row.getByText('Active', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Disable' }).waitFor();
    await w.t.http.post('/api/auth/signin').send({ username: 'fieldofficer7', password: 'a-long-enough-passphrase' }).expect(200);
  }, 120_000);

  it('lets a collector work a call to RESOLVED', async () => {
    const collector = await w.t.user(Role.COLLECTOR, 'collector1');
    const { page } = await w.open();
    await w.signIn(page, collector.username, collector.password);
    await page.getByRole('heading', { level: 1, name: 'Collections' }).waitFor();
    await page.getByRole('button', { name: 'Generate calls' }).click();
    await page.getByText('All calls').click();
    const row = page.getByRole('row').filter({ hasText: 'Sarah Atim' });
    // a call nobody holds can be taken, not updated: a collector updates only their own calls
    await row.getByRole('button', { name: 'Take' }).waitFor();
    expect(await row.getByRole('button', { name: /^(Called|Resolved)$/ }).count()).toBe(0);
    // on a collector's 360 px phone the call's button shows beside the name, not at the end of a sideways scroll
    await page.setViewportSize({ width: 360, height: 740 });
    const take = await row.getByRole('button', { name: 'Take' }).boundingBox();
    expect(take!.x + take!.width).toBeLessThanOrEqual(360);
    await page.setViewportSize({ width: 1280, height: 900 });
    await row.getByRole('button', { name: 'Take' }).click();
    await page.getByText('My calls').click();
    await row.getByRole('button', { name: 'Called' }).click();
    let dialog = page.getByRole('dialog');
    await dialog.getByLabel('Notes').fill('Promised to pay on Friday');
    await dialog.getByLabel('Promise date').fill('2026-01-16');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Called' }).click();
    await row.getByText('CALLED', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Resolved' }).click();
    dialog = page.getByRole('dialog');
    await dialog.getByLabel('Notes').fill('Paid at the shop');
    await dialog.getByRole('button', { name: 'Resolved' }).click();
    await row.getByText('RESOLVED', { exact: true }).waitFor();
    await expectAccessible(page);

    // the customer's page lists the call: state, who has it, the promise and the notes
    await row.getByRole('link', { name: 'Sarah Atim' }).click();
    const calls = page.getByRole('region', { name: 'Calls' });
    const call = calls.getByRole('row').filter({ hasText: 'Paid at the shop' });
    await call.getByText('RESOLVED', { exact: true }).waitFor();
    await call.getByRole('cell', { name: 'collector1', exact: true }).waitFor();
    await call.getByRole('cell', { name: 'Jan 16, 2026', exact: true }).waitFor();
    await expectAccessible(page);
  });

  // the pages no other journey checks (Customers, Payments, Devices, Collections, Messages, Imports, Users are),
  // and the customer page as an ADMIN sees it (History), with its preferences form and the Repossess warning
  it('passes axe on Inventory, Deals, Feedback, History and the customer page as an ADMIN sees it', async () => {
    await w.t.http.post('/finance/customers/preferences').set('x-access-token', await w.t.token(Role.OPERATOR)).send({ customerid: sarah, language: 'sw', smsoptout: true }).expect(200);
    const { page } = await w.open();
    await w.signIn(page, ADMIN.username, ADMIN.password);
    // the menu's Inventory link drops the search from the address and from the box (it kept the old words over the whole list)
    await page.goto('/inventory?search=solar');
    await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search items' }).inputValue()).toBe('solar');
    await page.getByRole('navigation').getByRole('link', { name: 'Inventory', exact: true }).click();
    await page.waitForURL((url) => !url.search.includes('search'));
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[type=search]')?.value === '');
    for (const name of ['Inventory', 'Feedback', 'History', 'Deals']) {
      await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectAccessible(page);
    }
    // ActionDialog's form is checked in the Users and Collections journeys; the Repossess one adds a warning
    const dialog = page.getByRole('dialog');
    await page.goto(`/customers/${sarah}`);
    await page.getByRole('heading', { level: 1, name: 'Sarah Atim' }).waitFor();
    await page.getByRole('region', { name: 'History' }).waitFor();
    await page.waitForLoadState('networkidle');
    await expectAccessible(page);
    // the preferences form starts from what is set
    await page.getByRole('button', { name: 'Language and opt-out' }).click();
    expect(await dialog.getByLabel(/^Language/).inputValue()).toBe('sw');
    expect(await dialog.getByLabel(/^No payment reminders/).inputValue()).toBe('yes');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Repossess', exact: true }).click();
    await dialog.getByRole('alert').waitFor();
    await expectAccessible(page);
    // a required reason left empty is said plainly, and nothing is sent
    const sent: string[] = [];
    page.on('request', (r) => r.url().includes('/finance/contracts/repossess') && sent.push(r.url()));
    await dialog.getByRole('button', { name: 'Repossess' }).click();
    await dialog.getByText('Required.').waitFor();
    expect(sent).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  }, 120_000);

  it('leaves nothing of one user’s pages to the next user of the tab, and shows no page the role may not open', async () => {
    const collector = await w.t.user(Role.COLLECTOR, 'collector-next');
    const { page } = await w.open();
    await w.signIn(page, ADMIN.username, ADMIN.password);
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('button', { name: 'Create user' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await w.signIn(page, collector.username, collector.password);
    await page.getByRole('heading', { level: 1, name: 'Collections' }).waitFor();
    // Back, to the admin's pages: no figure of theirs shows
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Forbidden.' }).waitFor();
    expect(['/users', '/dashboard']).toContain(new URL(page.url()).pathname);
    expect(await page.getByRole('button', { name: 'Create user' }).count()).toBe(0);
    expect(await page.getByRole('table').count()).toBe(0);
    for (const path of ['/dashboard', '/imports', '/payments', '/inventory']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1, name: 'Forbidden.' }).waitFor();
    }
    await expectAccessible(page);
  });

  it('shows every amount to the cent, as the API and the SMS give it', async () => {
    const operator = await w.t.token(Role.OPERATOR);
    await w.t.http.post('/finance/payments/load').set('x-access-token', operator).send({ customerid: sarah, amount: 1234.5, reference: `CENTS-${Date.now()}`, narration: 'cash' }).expect(201);
    const { page } = await w.open();
    await w.signIn(page, ADMIN.username, ADMIN.password);
    await page.goto(`/customers/${sarah}`);
    await page.getByRole('cell', { name: /^UGX\s1,234\.50$/ }).first().waitFor();
  });

  it('brings an expired session back to sign-in with the service’s message', async () => {
    const { page } = await w.open();
    await w.signIn(page, ADMIN.username, ADMIN.password);
    const expired = jwt.sign({ sub: 1, username: 'admin', role: 'ADMIN', env: 'uat', ver: 1, exp: Math.floor(Date.now() / 1000) - 10 }, TEST_JWT_SECRET, {
      algorithm: 'HS256',
      issuer: 'payg-uat',
    });
    await page.evaluate((token) => {
      const session = JSON.parse(localStorage.getItem('payg.session')!);
      localStorage.setItem('payg.session', JSON.stringify({ ...session, accessToken: token }));
    }, expired);
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'Unauthorized! Access Token was expired!' }).waitFor();
    await expectAccessible(page);
    // the same when the expired token meets a page loaded afresh (a reload, a bookmark)
    await w.signIn(page, ADMIN.username, ADMIN.password);
    await page.evaluate((token) => {
      const session = JSON.parse(localStorage.getItem('payg.session')!);
      localStorage.setItem('payg.session', JSON.stringify({ ...session, accessToken: token }));
    }, expired);
    await page.goto('/customers');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'Unauthorized! Access Token was expired!' }).waitFor();
    // a refused password shows the service's own message
    await page.getByLabel('Username', { exact: true }).fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid username or password.' }).waitFor();
    // signing in again goes back to the page the session ended on, not to the role's first page
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/customers');
  });

  it('registers a customer with a 255-character name on a 360×740 phone screen', async () => {
    const operator = await w.t.user(Role.OPERATOR, 'fieldagent1');
    const { page } = await w.open({ viewport: { width: 360, height: 740 } });
    await w.signIn(page, operator.username, operator.password);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Register customer' }).click();
    const form = page.getByRole('dialog');
    // the longest name the service takes, with no space to wrap at after the first word
    const fullname = `Moses ${'Kato'.repeat(63)}`.slice(0, 255);
    await form.getByLabel('Full name').fill(fullname);
    await form.getByLabel('Telephone', { exact: true }).fill('0772 555 777');
    await form.getByLabel('Deal', { exact: true }).click();
    await page.getByRole('option', { name: new RegExp(dealname) }).click();
    await form.getByLabel('Guarantor name').fill('Ruth Kato');
    await form.getByLabel('Guarantor contact').fill('0701 987 111');
    await form.getByLabel('IMEI').fill(uniqueImei());
    await form.getByLabel('PAYG code').fill('PAYG-MOSES-1');
    await form.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { level: 1, name: fullname }).waitFor();
    await expectAccessible(page);
    // the name wraps: the page does not scroll sideways (it was 2,000 px wide), and the Repossess warning is read whole
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    await page.getByRole('button', { name: 'Repossess', exact: true }).click();
    const warning = page.getByRole('dialog').getByRole('alert');
    await warning.waitFor();
    const cut = await warning.evaluate((alert) => [alert, ...alert.querySelectorAll('*')].some((e) => e.getBoundingClientRect().right > 360 || e.scrollWidth > e.clientWidth));
    expect(cut).toBe(false);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    // in a list the name wraps within its column too, rather than making it 2,000 px wide
    await page.goto('/customers?search=Moses');
    const name = await page.getByRole('cell', { name: fullname }).boundingBox();
    expect(name!.width).toBeLessThanOrEqual(360);
  });
});
