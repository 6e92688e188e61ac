import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/harness';
import { launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { dashboardShot, ensureDashboardBundle, main, newDashboardPage, openPage, signUpInBrowser } from '../support/dashboard-browser';
import { FakeClock } from '../../server/integrations/clock';
import { GOOD_PASSWORD } from '../support/dashboard';

/**
 * What people do that scripts forget: reload in the middle, go Back, keep a second tab open and sign out in the other,
 * walk away until the session ends. Each ends on a page that says what to do, never a dead screen.
 */
describe('the dashboard as a person uses it', () => {
  let app: TestApp;
  let browser: Browser;
  const clock = new FakeClock(new Date());
  beforeAll(async () => {
    ensureDashboardBundle();
    app = await startTestApp({ clock });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('reload keeps the page; Back and Forward move between pages; the mode survives a reload', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    const email = await signUpInBrowser(page, app);
    await openPage(page, app, '/products', 'Products');
    await page.reload();
    await expect.poll(() => main(page).getByRole('heading', { level: 1, name: 'Products' }).isVisible()).toBe(true);
    // Through the menu, as on a phone.
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.locator('dash-app nav').getByRole('link', { name: 'Capital pool' }).click();
    await expect.poll(() => main(page).getByRole('heading', { level: 1, name: 'Capital pool' }).isVisible()).toBe(true);
    await page.goBack();
    await expect.poll(() => main(page).getByRole('heading', { level: 1, name: 'Products' }).isVisible()).toBe(true);
    await page.goForward();
    await expect.poll(() => main(page).getByRole('heading', { level: 1, name: 'Capital pool' }).isVisible()).toBe(true);

    // Live switched on by an operator: choose live, reload, still live (the banner says test only in test mode).
    const user = await app.platform.db.selectFrom('dashboardUsers').select('id').where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow();
    const membership = await app.platform.db.selectFrom('dashboardMemberships').select('organisationId').where('userId', '=', user.id).executeTakeFirstOrThrow();
    await app.platform.db.updateTable('organisations').set({ liveEnabled: true }).where('id', '=', membership.organisationId).execute();
    await page.reload();
    await page.locator('dash-app select#mode').selectOption('live');
    await expect.poll(() => page.getByText('Test mode: sandbox data').isVisible()).toBe(false);
    await page.reload();
    await expect.poll(() => main(page).getByRole('heading', { level: 1, name: 'Capital pool' }).isVisible()).toBe(true);
    expect(await page.locator('dash-app select#mode').inputValue()).toBe('live');
    expect(await page.getByText('Test mode: sandbox data').isVisible()).toBe(false);
    await context.close();
  });

  it('signing out in one tab: the other tab, at its next action, shows the sign-in page and returns to where it was', async () => {
    const { context, page } = await newDashboardPage(browser);
    const email = await signUpInBrowser(page, app);
    const second = await context.newPage();
    await openPage(second, app, '/webhooks', 'Webhooks');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
    // The second tab still shows its page; its next request finds no session.
    await second.locator('dash-app nav').getByRole('link', { name: 'API keys' }).click();
    await expect.poll(() => second.getByRole('heading', { name: 'Sign in' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await second.getByLabel('Work e-mail').fill(email);
    await second.getByLabel('Password').fill(GOOD_PASSWORD);
    await second.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => main(second).getByRole('heading', { level: 1, name: 'API keys' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await context.close();
  });

  it('after 30 idle minutes the next click asks to sign in again, and afterwards lands on the page that was asked for', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    const email = await signUpInBrowser(page, app);
    await openPage(page, app, '/usage', 'Usage');
    clock.advance(31 * 60_000);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.locator('dash-app nav').getByRole('link', { name: 'Settlements' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(new URL(page.url()).searchParams.get('next')).toBe('/settlements');
    await dashboardShot(page, 'person-session-ended-phone');
    await page.getByLabel('Work e-mail').fill(email);
    await page.getByLabel('Password').fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => main(page).getByRole('heading', { level: 1, name: 'Settlements' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await context.close();
  });

  it('a wrong or already used verification link says so instead of failing silently', async () => {
    const { context, page } = await newDashboardPage(browser);
    await page.goto(`${app.url}/dashboard/verify-email?token=${'x'.repeat(43)}`);
    await expect.poll(() => main(page).or(page.locator('dash-account-page')).getByRole('alert').isVisible()).toBe(true);
    await context.close();
  });
});
