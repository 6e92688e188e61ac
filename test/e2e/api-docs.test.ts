import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
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
    const elsewhere: string[] = [];
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.origin === origin || url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
      elsewhere.push(route.request().url());
      return route.abort();
    });

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
});
