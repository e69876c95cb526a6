import { AxeBuilder } from '@axe-core/playwright';
import chromium from '@sparticuz/chromium';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium as playwright, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { WEB_CLIENT_DIR } from '../../src/web-client.js';
import { startTestApp, type TestApp } from './test-app.js';

export const SCREENSHOTS = join(process.cwd(), 'docs', 'screenshots');

/**
 * One test file's browser journeys: the service on a fresh database listening on a free port, and
 * one Chromium (the one @sparticuz/chromium ships inside its npm package) for the whole file.
 */
export interface WebJourney {
  t: TestApp;
  baseUrl: string;
  browser: Browser;
  /** A new browser context (its own storage) with a page at `path`. */
  open(options?: { viewport?: { width: number; height: number } }): Promise<{ context: BrowserContext; page: Page }>;
  signIn(page: Page, username: string, password: string): Promise<void>;
  close(): Promise<void>;
}

export async function startWebJourney(): Promise<WebJourney> {
  if (!existsSync(join(WEB_CLIENT_DIR, 'index.html'))) throw new Error('web client not built: run `npm run web:build` (npm test does it in pretest)');
  const t = await startTestApp();
  const baseUrl = t.baseUrl;
  const browser = await playwright.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true });
  const contexts: BrowserContext[] = [];
  return {
    t,
    baseUrl,
    browser,
    async open(options = {}) {
      // reducedMotion: the client then shows dialogs and toasts without fades, so axe reads them as they rest
      const context = await browser.newContext({ baseURL: baseUrl, viewport: options.viewport ?? { width: 1280, height: 900 }, reducedMotion: 'reduce' });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      return { context, page };
    },
    async signIn(page, username, password) {
      await page.goto('/signin');
      await page.getByLabel('Username', { exact: true }).fill(username);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await t.close();
    },
  };
}

/** Accessibility of what the page shows now: no serious or critical axe violation. */
export async function expectAccessible(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}: ${n.any[0]?.message ?? ''}`).join(', ')}`);
  expect(summary).toEqual([]);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
