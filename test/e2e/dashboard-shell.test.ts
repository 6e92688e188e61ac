import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/harness';
import { axeViolations, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { dashboardShot, ensureDashboardBundle, main, newDashboardPage, openPage, signUpInBrowser } from '../support/dashboard-browser';

describe('the dashboard shell', () => {
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

  it('a signed-out visit to a page asks to sign in, and comes back to that page afterwards', async () => {
    const { context, page } = await newDashboardPage(browser);
    const email = await signUpInBrowser(page, app);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
    await page.goto(`${app.url}/dashboard/audit-log`);
    await expect.poll(() => new URL(page.url()).searchParams.get('next')).toBe('/audit-log');
    await page.getByLabel('Work e-mail').fill(email);
    await page.getByLabel('Password').fill('plum orchard under winter light');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => main(page).getByRole('heading', { level: 1, name: 'Audit log' }).isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/dashboard/audit-log');
    await context.close();
  });

  it('on a phone the navigation folds behind a Menu button; the test-mode banner shows; axe finds nothing', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    await signUpInBrowser(page, app);
    await expect.poll(() => page.getByText('Test mode: sandbox data').isVisible()).toBe(true);
    await expect.poll(() => page.locator('dash-app nav').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect.poll(() => page.locator('dash-app nav').isVisible()).toBe(true);
    await dashboardShot(page, 'shell-phone-menu');
    expect(await axeViolations(page)).toEqual([]);
    // Live is not enabled for a self-serve organisation: the switch says so and cannot be chosen.
    expect(await page.locator('dash-app option[value="live"]').isDisabled()).toBe(true);
    await openPage(page, app, '/no-such-page', 'Not available');
    await context.close();
  });
});
