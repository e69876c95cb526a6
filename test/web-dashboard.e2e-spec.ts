import { Role } from '../src/common/auth/role.js';
import { expectAccessible, startWebJourney, type WebJourney } from './support/browser.js';
import { createDeal, registerCustomer } from './support/fixtures.js';
import { ADMIN } from './support/test-app.js';

/** The dashboard's charts read without colours and without a mouse, and say when there is nothing. */
describe('web client: dashboard charts', () => {
  let w: WebJourney;
  beforeAll(async () => {
    w = await startWebJourney();
  });
  afterAll(() => w.close());

  it('names each slice of a status chart with its count, and says so when there is none', async () => {
    const { page } = await w.open();
    await w.signIn(page, ADMIN.username, ADMIN.password);
    await page.goto('/dashboard');
    const deals = page.getByRole('region', { name: 'Deals by status' });
    const calls = page.getByRole('region', { name: 'Calls by state' });
    // a new book: words, not a blank card
    await deals.getByText('Nothing here yet.').waitFor();
    await calls.getByText('Nothing here yet.').waitFor();

    const dealid = (await createDeal(w.t)).dealid;
    const customer = await registerCustomer(w.t, dealid);
    await w.t.http.post('/finance/customers/approve').set('x-access-token', await w.t.token(Role.OPERATOR)).send({ customerid: customer.customerid });
    await w.t.http.post('/finance/payments/load').set('x-access-token', await w.t.token(Role.OPERATOR)).send({ customerid: customer.customerid, amount: 45000, reference: 'DASH-1', narration: 'cash' }).expect(201);
    await registerCustomer(w.t, dealid);
    const portfolio = (await w.t.http.get('/finance/reports/portfolio').set('x-access-token', await w.t.token(Role.ADMIN)).expect(200)).body as { dealsbystatus: Record<string, number> };
    await page.reload();
    // each status with its count in words (the slices differ only by colour; their labels are bare numbers)
    for (const [status, count] of Object.entries(portfolio.dealsbystatus).filter(([, n]) => n > 0)) {
      await deals.getByRole('listitem').filter({ hasText: new RegExp(`^\\s*${status}\\s*:?\\s*${count}\\s*$`) }).waitFor();
    }
    expect(Object.values(portfolio.dealsbystatus).some((n) => n > 0)).toBe(true);
    await expectAccessible(page);
  });
});
