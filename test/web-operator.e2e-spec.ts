/// <reference lib="dom" />
import type { Locator } from 'playwright-core';
import { Role } from '../src/common/auth/role.js';
import { expectAccessible, screenshot, startWebJourney, type WebJourney } from './support/browser.js';
import { createDeal, registerCustomer, uniqueImei, uniqueTelephone } from './support/fixtures.js';
import { expectLedgerConsistent } from './support/ledger.js';

/** Waits until the focus is in a field of `dialog` (it moves there once the dialog has opened). */
const focusInside = (dialog: Locator) => dialog.locator('input:focus, textarea:focus').waitFor();

/** An operator's day in a real browser: registering, loading a payment, assigning a waiting one. */
describe('web client: operator journeys', () => {
  let w: WebJourney;
  let operator: { username: string; password: string };
  let dealname: string;

  beforeAll(async () => {
    w = await startWebJourney();
    operator = await w.t.user(Role.OPERATOR, 'cashier1');
    const deal = await createDeal(w.t, { dealname: 'Tecno Spark 20', totalamount: 600000, deposit: 60000, monthly: 45000, months: 12 });
    dealname = deal.dealname as string;
  });
  afterAll(async () => {
    await expectLedgerConsistent(w.t);
    await w.close();
  });

  it('registers a customer, loads a payment and shows UNLOCKED with the next payment date', async () => {
    const { page } = await w.open();
    await w.signIn(page, operator.username, operator.password);
    await page.getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Register customer' }).click();
    const form = page.getByRole('dialog');
    // a form dialog opens on its first field, not on its × (typing went nowhere)
    await focusInside(form);
    await page.keyboard.type('Grace Nakato');
    expect(await form.getByLabel('Full name').inputValue()).toBe('Grace Nakato');
    await form.getByLabel('Telephone', { exact: true }).fill('0772 555 001');
    await form.getByLabel('Deal', { exact: true }).click();
    await page.getByRole('option', { name: new RegExp(dealname) }).click();
    await form.getByLabel('Guarantor name').fill('Joseph Okello');
    await form.getByLabel('Guarantor contact').fill('+256701987654');
    // an invalid IMEI first: the API's message appears next to the field
    await form.getByLabel('IMEI').fill('123');
    await form.getByLabel('PAYG code').fill('PAYG-GRACE-1');
    await form.getByRole('button', { name: 'Register' }).click();
    await form.getByText(/imei must/).waitFor();
    await expectAccessible(page);
    await form.getByLabel('IMEI').fill(uniqueImei());
    await form.getByRole('button', { name: 'Register' }).click();

    await page.getByRole('heading', { level: 1, name: 'Grace Nakato' }).waitFor();
    const customerid = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByText('LOCKED', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Load payment' }).click();
    const pay = page.getByRole('dialog');
    // typed as people write it, into the field the dialog opens on: the comma groups thousands, it is not a decimal point (this loaded 45.00)
    await focusInside(pay);
    await page.keyboard.type('45,000');
    await pay.getByLabel('Reference').fill('CASH-0001');
    await pay.getByLabel('Narration').fill('Cash at the Kampala shop');
    await pay.getByRole('button', { name: 'Save' }).click();
    await page.getByText('UNLOCKED', { exact: true }).first().waitFor();
    // 45,000 at 45,000 a month buys 30 days from the registration day (2026-01-15)
    await page.getByText('Feb 14, 2026').waitFor();
    await page.getByRole('cell', { name: 'CASH-0001' }).waitFor();
    // the UNLOCK that payment queued shows PENDING, then DELIVERED once the platform has it, without a reload
    const unlock = page.getByRole('region', { name: 'Device commands' }).getByRole('row', { name: /UNLOCK.*payment #\d+/ });
    await unlock.getByText('PENDING', { exact: true }).waitFor();
    await w.t.db.query(`UPDATE device_commands SET status = 'DELIVERED', attempts = 1, delivered_at = now() WHERE customer_id = $1 AND status = 'PENDING'`, [customerid]);
    await unlock.getByText('DELIVERED', { exact: true }).waitFor();
    const loaded = await w.t.http.post('/finance/payments/recent').set('x-access-token', await w.t.token(Role.OPERATOR)).send({ customerid, limit: 5 });
    expect(loaded.body.find((p: { reference: string }) => p.reference === 'CASH-0001').amount).toBe(45000);
    await expectAccessible(page);
    await screenshot(page, 'customer');
    // (after the screenshot: its toast would stand in the picture) a receipt used before: the service's 409 stays in the dialog, beside what was typed, not only in a toast that fades
    await page.getByRole('button', { name: 'Load payment' }).click();
    const again = page.getByRole('dialog');
    await again.getByLabel('Amount').fill('1000');
    await again.getByLabel('Reference').fill('CASH-0001');
    await again.getByLabel('Narration').fill('Cash, second visit');
    await again.getByRole('button', { name: 'Save' }).click();
    await again.getByRole('alert').filter({ hasText: 'CASH-0001' }).waitFor();
    expect(await again.getByLabel('Reference').inputValue()).toBe('CASH-0001');
    await again.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Load payment' }).click();
    expect(await page.getByRole('dialog').getByRole('alert').count()).toBe(0); // opened again, it starts clean
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    // every status badge shows its whole word, however narrow its column (the messages table's PENDING was cut)
    const cut = await page.locator('.mantine-Badge-label').evaluateAll((labels) => labels.filter((l) => l.scrollWidth > l.clientWidth).map((l) => l.textContent));
    expect(cut).toEqual([]);
    // a button under the pointer keeps its contrast: red (Repossess) and blue (Bonus days) light buttons hovered
    for (const name of ['Repossess', 'Bonus days']) {
      await page.getByRole('button', { name, exact: true }).hover();
      await expectAccessible(page);
    }

    // the whole outbox, narrowed in the URL: the UNLOCK that payment queued
    await page.getByRole('link', { name: 'Devices' }).click();
    await page.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'UNLOCK', exact: true }).click();
    await page.getByRole('row', { name: /UNLOCK.*payment #\d+/ }).first().waitFor();
    expect(page.url()).toContain('action=UNLOCK');
    await expectAccessible(page);
    // a customer filter read from the URL names the customer in the picker
    await page.goto(`/devices?customerid=${customerid}`);
    await page.locator('input[value^="Grace Nakato"]').waitFor();
    await page.getByRole('row', { name: /UNLOCK.*payment #\d+/ }).waitFor();
    // the menu's Customers link drops the search from the address, and from the box too (it kept "Grace" over the whole list)
    await page.goto('/customers?search=Grace');
    await page.getByRole('link', { name: 'Grace Nakato' }).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Customers' }).click();
    await page.waitForURL((url) => !url.search.includes('search'));
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[type=search]')?.value === '');
    // a customer that does not exist: the page keeps its heading and says why
    await page.goto('/customers/999999');
    await page.getByRole('heading', { level: 1, name: 'Customer' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'Customer 999999 not found.' }).waitFor();
  });

  it('assigns an unmatched mobile-money payment to the customer found in the dialog', async () => {
    const customer = await registerCustomer(w.t, (await createDeal(w.t)).dealid, { fullname: 'Peter Mugisha', telephone: uniqueTelephone() });
    const callback = await w.t.http
      .post('/finance/amlogs/callback')
      .set('x-access-token', await w.t.token(Role.PROVIDER))
      .send({ transaction: { id: 'MM-UNMATCHED-1', amount: 45000, tag: 'NOBODY-HAS-THIS' } });
    expect(callback.body.status).toBe('UNMATCHED');

    const { page } = await w.open();
    await w.signIn(page, operator.username, operator.password);
    await page.getByRole('link', { name: 'Payments' }).click();
    await page.getByRole('heading', { level: 2, name: 'Unmatched' }).waitFor();
    await page.getByRole('cell', { name: 'MM-UNMATCHED-1', exact: true }).waitFor();
    await expectAccessible(page);
    // Cancel gives the focus back to the row's Assign button, not to the top of the page
    await page.getByRole('button', { name: 'Assign MM-UNMATCHED-1' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Assign MM-UNMATCHED-1' }).and(page.locator(':focus')).waitFor();
    await page.getByRole('button', { name: 'Assign MM-UNMATCHED-1' }).click();
    await focusInside(dialog);
    await page.keyboard.type('Peter Mug');
    await page.getByRole('option', { name: /Peter Mugisha/ }).click();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await page.getByText('No payment is waiting for an operator.').waitFor();
    // the row went with the payment: the focus is on the list it was in
    await page.getByRole('region').filter({ hasText: 'No payment is waiting for an operator.' }).and(page.locator(':focus')).waitFor();

    // another operator applies a waiting payment while this one has its dialog open: the 409 closes the dialog and the list drops it
    await w.t.http
      .post('/finance/amlogs/callback')
      .set('x-access-token', await w.t.token(Role.PROVIDER))
      .send({ transaction: { id: 'MM-UNMATCHED-2', amount: 45000, tag: 'NOBODY-HAS-THIS' } });
    await page.reload();
    await page.getByRole('button', { name: 'Assign MM-UNMATCHED-2' }).click();
    await focusInside(dialog);
    await page.keyboard.type('Peter Mug');
    await page.getByRole('option', { name: /Peter Mugisha/ }).click();
    await w.t.http.post('/finance/amlogs/assign').set('x-access-token', await w.t.token(Role.OPERATOR)).send({ transactionid: 'MM-UNMATCHED-2', customerid: customer.customerid }).expect(200);
    await dialog.getByRole('button', { name: 'Assign' }).click();
    await page.getByText('Transaction MM-UNMATCHED-2 is already applied.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('No payment is waiting for an operator.').waitFor();

    const payments = await w.t.http.post('/finance/payments/recent').set('x-access-token', await w.t.token(Role.OPERATOR)).send({ customerid: customer.customerid, limit: 5 });
    expect(payments.body.map((p: { reference: string }) => p.reference)).toContain('MM-UNMATCHED-1');

    await page.getByRole('textbox', { name: 'Reference' }).fill('MM-UNMATCHED-1');
    await page.getByRole('button', { name: 'Reconcile' }).click();
    await page.getByRole('status').filter({ hasText: 'ALREADY_APPLIED' }).waitFor();
    // a refused reference shows its error, not the previous reference's answer
    await page.getByRole('textbox', { name: 'Reference' }).fill('');
    await page.getByRole('button', { name: 'Reconcile' }).click();
    await page.getByText(/reference should not be empty|reference must/).first().waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'ALREADY_APPLIED' }).count()).toBe(0);
  });
});
