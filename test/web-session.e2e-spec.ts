/// <reference lib="dom" />
import { Role } from '../src/common/auth/role.js';
import { startWebJourney, type WebJourney } from './support/browser.js';

/** The web client's stored token when the service ends it: every way the client talks to the service obeys at once. */
describe('web client: a session the service ended', () => {
  let w: WebJourney;
  beforeAll(async () => {
    w = await startWebJourney();
  });
  afterAll(() => w.close());

  it('brings the sign-in page back when an export meets a token the service refused (user disabled)', async () => {
    const manager = await w.t.user(Role.ADMIN);
    const { page } = await w.open();
    await w.signIn(page, manager.username, manager.password);
    await page.waitForLoadState('networkidle'); // the landing page's own requests answered
    const listed = page.waitForResponse((response) => new URL(response.url()).pathname === '/finance/customers');
    await page.getByRole('link', { name: 'Customers' }).click();
    expect((await listed).status()).toBe(200);
    await page.getByRole('button', { name: 'Export CSV' }).waitFor();
    await page.waitForLoadState('networkidle'); // the export is the next request
    await w.t.http.post('/finance/users/disable').set('x-access-token', await w.t.token(Role.ADMIN)).send({ id: manager.id }).expect(200);

    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // the sign-in page's own notice (the export's toast may say it too)
    await page.getByRole('alert').filter({ hasText: /^\s*Unauthorized!\s*$/ }).waitFor();
    // the ended token is not kept in the browser
    expect(await page.evaluate(() => localStorage.getItem('payg.session'))).toBeNull();
  });

  it('ends the token on the service when the person signs out: a copy read before is refused', async () => {
    const collector = await w.t.user(Role.COLLECTOR);
    const { page } = await w.open();
    await w.signIn(page, collector.username, collector.password);
    const copied = await page.evaluate(() => (JSON.parse(localStorage.getItem('payg.session')!) as { accessToken: string }).accessToken);
    await w.t.http.get('/finance/customers?page=1&limit=1').set('x-access-token', copied).expect(200);
    const signedOut = page.waitForResponse((response) => response.url().endsWith('/api/auth/signout'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect((await signedOut).status()).toBe(200);
    expect(await page.evaluate(() => localStorage.getItem('payg.session'))).toBeNull();
    expect((await w.t.http.get('/finance/customers?page=1&limit=1').set('x-access-token', copied).expect(401)).body).toEqual({ message: 'Unauthorized!' });
  });
});
