import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { startTestApp, type TestApp } from '../support/harness';

/**
 * The API reference at /api-docs in the machine's Chromium, under the page's own Content-Security-Policy: it renders
 * the document, logs no console error (a CSP refusal is one), asks nothing of another origin, and shows no control that
 * needs an outside service (Scalar's "Ask AI" agent, its developer toolbar).
 */
let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** Lets the page reach only the app's own origin (tests never leave loopback); what it asked elsewhere is listed, and refused. */
async function keepToOrigin(context: BrowserContext, origin: string): Promise<string[]> {
  const elsewhere: string[] = [];
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin === origin || url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
    elsewhere.push(route.request().url());
    return route.abort();
  });
  return elsewhere;
}

describe('the API reference page', () => {
  it('renders every tag of the document with no console error and no request leaving this origin', async () => {
    const origin = new URL(app.url).origin;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console.${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    const elsewhere = await keepToOrigin(context, origin);

    const response = await page.goto(`${app.url}/api-docs`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    await page.getByRole('heading', { name: 'Lending Partner API', level: 1 }).waitFor({ timeout: 30_000 });
    const document = await (await fetch(`${app.url}/api-docs/lending-v1.json`)).json();
    for (const tag of document.tags as { name: string }[]) {
      await expect.poll(() => page.getByText(tag.name, { exact: true }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    }
    // Scroll through the reference so lazily rendered sections (and their examples) load too.
    for (let i = 0; i < 12; i++) {
      await page.mouse.wheel(0, 4000);
      await page.waitForTimeout(150);
    }
    await page.waitForLoadState('networkidle');

    expect(problems).toEqual([]);
    expect(elsewhere).toEqual([]);
    expect(await page.getByRole('button', { name: /ask ai/i }).count()).toBe(0);
    expect(await page.getByText(/ask ai/i).count()).toBe(0);
    await context.close();
  }, 120_000);

  it('on a 360×640 phone: the reference and the error codes it links to fit the screen, with no console error (no /favicon.ico asked)', async () => {
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const elsewhere = await keepToOrigin(context, new URL(app.url).origin);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(`console.error: ${message.text()}`));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    const missing: string[] = [];
    page.on('response', (response) => response.status() >= 400 && missing.push(`${response.status()} ${response.url()}`));
    try {
      await page.goto(`${app.url}/api-docs`);
      await page.getByRole('heading', { name: 'Lending Partner API', level: 1 }).waitFor({ timeout: 30_000 });
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

      // Each error code's entry, as a docUrl opens it: the row is a card that fits, its labels in place of the header.
      await page.goto(`${app.url}/docs/errors#outside_product_limits`);
      const row = page.locator('tr#outside_product_limits');
      await row.waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      const labels = await row.evaluate((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => getComputedStyle(td, '::before').content));
      expect(labels).toEqual(['"HTTP"', '"What it means"', '"What to do"']);
      await page.waitForLoadState('networkidle');
      expect(problems).toEqual([]);
      expect(missing).toEqual([]);
      expect(elsewhere).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
