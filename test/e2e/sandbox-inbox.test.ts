import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/harness';
import { axeViolations, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { GOOD_PASSWORD, uniqueEmail } from '../support/dashboard';
import { dashboardShot, ensureDashboardBundle, LAPTOP_VIEWPORT, newDashboardPage } from '../support/dashboard-browser';

/**
 * Sign-up without a dead end: the dashboard's "check your inbox" screens link to the sandbox inbox page, which shows the
 * verification e-mail with a working link, at 360×640 and 1280×800, clicks only. Screenshots in test-artifacts/dashboard/.
 */
describe('the sandbox inbox from the dashboard', () => {
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

  it.each([
    ['phone', PHONE_VIEWPORT],
    ['laptop', LAPTOP_VIEWPORT],
  ] as const)('on a %s: sign up, follow the link to the sandbox inbox, open the verification link from it, and the e-mail is verified', async (name, viewport) => {
    const { context, page } = await newDashboardPage(browser, viewport);
    const email = uniqueEmail();
    await page.goto(`${app.url}/dashboard/sign-up`);
    await page.getByLabel('Organisation name').fill('Ikeja Clinic');
    await page.getByLabel('Work e-mail').fill(email);
    await page.getByLabel('Password').fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Create organisation' }).click();
    const link = page.getByRole('link', { name: 'sandbox inbox' });
    await expect.poll(() => link.isVisible(), { timeout: 10_000 }).toBe(true);
    await dashboardShot(page, `sign-up-sent-inbox-link-${name}`);
    expect(await axeViolations(page)).toEqual([]);

    const [inbox] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await inbox.waitForLoadState();
    await expect.poll(() => inbox.getByRole('heading', { level: 1, name: 'Sandbox inbox' }).isVisible()).toBe(true);
    await expect.poll(() => inbox.getByText(email.toLowerCase()).first().isVisible()).toBe(true);
    const overflow = await inbox.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await inbox.screenshot({ path: `test-artifacts/dashboard/sandbox-inbox-${name}.png`, fullPage: true });
    expect(await axeViolations(inbox)).toEqual([]);

    await inbox.getByRole('link', { name: /\/dashboard\/verify-email\?token=/ }).first().click();
    await expect.poll(() => inbox.getByText('Your e-mail is verified').isVisible(), { timeout: 10_000 }).toBe(true);
    await context.close();
  });

  it('on a phone: the forgot-password screen links to the sandbox inbox too', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    await page.goto(`${app.url}/dashboard/forgot-password`);
    await page.getByLabel('Work e-mail').fill(uniqueEmail());
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'sandbox inbox' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await dashboardShot(page, 'forgot-password-sent-inbox-link-phone');
    await context.close();
  });
});
