import { Role } from '../src/common/auth/role.js';
import { startWebJourney, type WebJourney } from './support/browser.js';
import { createDeal, registerCustomer } from './support/fixtures.js';

/** What the Messages list says about when a message went and when it arrived. */
describe('web client: message times', () => {
  let w: WebJourney;
  beforeAll(async () => {
    w = await startWebJourney();
  });
  afterAll(() => w.close());

  it('does not show a message only sent as delivered', async () => {
    const customer = await registerCustomer(w.t, (await createDeal(w.t)).dealid, { fullname: 'Joan Auma' });
    const operator = await w.t.user(Role.OPERATOR, 'timekeeper');
    await w.t.http.post('/finance/messages/send').set('x-access-token', operator.token).send({ customerid: customer.customerid, text: 'Your kit is ready for pick-up.' }).expect(201);
    // the gateway took it; no delivery report yet
    await w.t.db.query(`UPDATE sms_messages SET status = 'SENT', sent_at = now() WHERE customer_id = $1 AND text = 'Your kit is ready for pick-up.'`, [customer.customerid]);
    const { page } = await w.open();
    await w.signIn(page, operator.username, operator.password);
    await page.goto('/messages?status=SENT');
    const row = page.getByRole('row').filter({ hasText: 'Your kit is ready for pick-up.' });
    await row.waitFor();
    const head = await page.getByRole('columnheader').allInnerTexts();
    const cells = await row.getByRole('cell').allInnerTexts();
    const delivered = cells[head.indexOf('Delivered')];
    expect(delivered).toBe('—');
    expect(cells[head.indexOf('Sent')]).toMatch(/\d{1,2}:\d{2}/);
  });
});
