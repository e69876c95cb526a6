import { Role } from '../src/common/auth/role.js';
import { startWebJourney, type WebJourney } from './support/browser.js';

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
});
