import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/harness';
import { axeViolations, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { dashboardShot, ensureDashboardBundle, LAPTOP_VIEWPORT, main, newDashboardPage, signUpInBrowser } from '../support/dashboard-browser';
import { PAGES } from '../../dashboard/pages';

/**
 * Every page in the dashboard's registry, as an owner sees it on a phone and on a laptop: it loads (its heading),
 * says nothing went wrong, fits the screen's width, and axe finds nothing. A page added to the registry is checked
 * here without anyone remembering to. Pages with a parameter (a loan's page) are checked by their own area's test.
 */
describe('every dashboard page', () => {
  let app: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    ensureDashboardBundle();
    app = await startTestApp();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const pages = PAGES.filter((p) => !p.path.includes(':'));

  it('the registry has every page the dashboard promises', () => {
    expect(pages.map((p) => p.path).sort()).toEqual(
      ['/', '/account', '/appointments', '/audit-log', '/checkout', '/financing', '/keys', '/loans', '/pool', '/preapprovals', '/products', '/reviews', '/settings', '/settlements', '/team', '/usage', '/webhooks'].sort(),
    );
  });

  for (const [label, viewport] of [['phone', PHONE_VIEWPORT], ['laptop', LAPTOP_VIEWPORT]] as const) {
    it(`on a ${label}: each page loads, shows no error, fits the width, and axe finds nothing`, async () => {
      const { context, page } = await newDashboardPage(browser, viewport);
      await signUpInBrowser(page, app);
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      // Signed in, nothing the pages ask for is missing or refused (a 404 or 401 in the console is a broken link).
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`${response.status()} ${new URL(response.url()).pathname}`);
      });
      for (const entry of pages) {
        await page.goto(`${app.url}/dashboard${entry.path === '/' ? '' : entry.path}`);
        await expect.poll(() => main(page).locator('h1').first().isVisible(), { timeout: 10_000 }).toBe(true);
        // Let the page's first requests settle (lists, charts) before judging it.
        await page.waitForLoadState('networkidle');
        const alerts = await main(page).locator('[role="alert"]').allTextContents();
        if (alerts.some((text) => text.trim())) problems.push(`${entry.path}: alert ${alerts.join(' ')}`);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > viewport.width) problems.push(`${entry.path}: ${width}px wide`);
        for (const violation of await axeViolations(page)) problems.push(`${entry.path}: ${violation}`);
        await dashboardShot(page, `every-page-${label}${entry.path === '/' ? '-home' : entry.path.replaceAll('/', '-')}`);
      }
      expect(problems).toEqual([]);
      await context.close();
    }, 180_000);
  }
});
