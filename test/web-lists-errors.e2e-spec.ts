/// <reference lib="dom" />
import { Role } from '../src/common/auth/role.js';
import { startWebJourney, type WebJourney } from './support/browser.js';
import { ADMIN } from './support/test-app.js';

/** Lists past their last page, and every part of a page saying when its read failed. */
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
});
