/// <reference lib="dom" />
import { startWebJourney, type WebJourney } from './support/browser.js';
import { createDeal } from './support/fixtures.js';
import { ADMIN } from './support/test-app.js';

/** A keyboard's focus through an action whose button goes away with it. */
describe('web client: keyboard focus', () => {
  let w: WebJourney;
  beforeAll(async () => {
    w = await startWebJourney();
  });
  afterAll(() => w.close());

  it('keeps the focus in the list when the button that opened a dialog is gone after it (a deal deactivated)', async () => {
    await createDeal(w.t, { dealname: 'Keyboard kit 40W' });
    await createDeal(w.t, { dealname: 'Keyboard kit 60W' });
    const { page } = await w.open();
    await w.signIn(page, ADMIN.username, ADMIN.password);
    await page.goto('/deals');
    const row = page.getByRole('row').filter({ hasText: 'Keyboard kit 40W' });
    await row.getByRole('button', { name: 'Deactivate' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Deactivate Keyboard kit 40W' });
    await dialog.getByRole('button', { name: 'Deactivate' }).focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await row.getByRole('button', { name: 'Deactivate' }).waitFor({ state: 'detached' });
    // not dropped on the page's body (where the next Tab starts over at the header), but in the deals table
    await page.waitForFunction(() => document.activeElement !== document.body);
    const where = await page.evaluate(() => document.activeElement?.closest('[role=region]')?.getAttribute('aria-label'));
    expect(where).toBe('Deals');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Deactivate');
  });
});
