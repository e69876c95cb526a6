import { Role } from '../src/common/auth/role.js';
import { startWebJourney, type WebJourney } from './support/browser.js';
import { createDeal, registerCustomer } from './support/fixtures.js';

/** The Devices page: the outbox of device commands as it drains. */
describe('web client: devices', () => {
  let w: WebJourney;
  beforeAll(async () => {
    w = await startWebJourney();
  });
  afterAll(() => w.close());

  it('shows a waiting command DELIVERED once the platform has it, without a reload', async () => {
    const customer = await registerCustomer(w.t, (await createDeal(w.t)).dealid, { fullname: 'Ruth Akello' });
    await w.t.http
      .post('/finance/payments/load')
      .set('x-access-token', await w.t.token(Role.OPERATOR))
      .send({ customerid: customer.customerid, amount: 45000, reference: 'DEV-WATCH-1', narration: 'cash at the shop' })
      .expect(201);
    const operator = await w.t.user(Role.OPERATOR, 'outboxwatcher');
    const { page } = await w.open();
    await w.signIn(page, operator.username, operator.password);
    await page.goto(`/devices?customerid=${customer.customerid}`);
    const row = page.getByRole('row', { name: /UNLOCK/ }).first();
    await row.getByText('PENDING', { exact: true }).waitFor();
    await w.t.db.query(`UPDATE device_commands SET status = 'DELIVERED', attempts = 1, delivered_at = now() WHERE customer_id = $1 AND status = 'PENDING'`, [customer.customerid]);
    await row.getByText('DELIVERED', { exact: true }).waitFor();
  });

  it('reads a customer in a Devices link that is not a customer number as no customer filter', async () => {
    const customer = await registerCustomer(w.t, (await createDeal(w.t)).dealid);
    await w.t.http
      .post('/finance/payments/load')
      .set('x-access-token', await w.t.token(Role.OPERATOR))
      .send({ customerid: customer.customerid, amount: 45000, reference: 'DEV-LINK-1', narration: 'cash at the shop' })
      .expect(201);
    const operator = await w.t.user(Role.OPERATOR, 'linkfollower');
    const { page } = await w.open();
    await w.signIn(page, operator.username, operator.password);
    await page.goto('/devices?customerid=abc');
    await page.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
    await page.getByRole('row', { name: /UNLOCK/ }).first().waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});
