import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { keyHeaders, startTestApp, type KeyPair, type TestApp } from '../support/harness';
import { axeViolations, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { signedInOwner, uniqueEmail } from '../support/dashboard';
import { dashboardShot, ensureDashboardBundle, main, newDashboardPage, openPage, signUpInBrowser } from '../support/dashboard-browser';
import { acceptInvitationInBrowser, generateKeyInBrowser, inviteMemberInBrowser, revokeKeyInBrowser } from '../support/dashboard-journey/keys';

const apiStatus = async (app: TestApp, key: KeyPair) => (await fetch(`${app.url}/v1/products`, { headers: keyHeaders(key) })).status;

describe('the API keys and team pages', { timeout: 120_000 }, () => {
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

  it('an owner generates a key in the browser, the API accepts it, rolls another, then revokes it and the API refuses it within 1 s', async () => {
    const { context, page } = await newDashboardPage(browser);
    await signUpInBrowser(page, app);
    await openPage(page, app, '/keys', 'API keys');
    await expect.poll(() => main(page).getByText('No test keys yet.').isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    const key = await generateKeyInBrowser(page, app);
    expect(key.publicKey).toMatch(/^pk_test_/);
    expect(key.secretKey).toMatch(/^sk_test_/);
    expect(await main(page).getByText('it will not be shown again').isVisible()).toBe(true);
    expect(await apiStatus(app, key)).toBe(200);
    expect(await axeViolations(page)).toEqual([]);

    // The secret is never shown again: a reload lists the key without it.
    await openPage(page, app, '/keys', 'API keys');
    await expect.poll(() => main(page).locator(`tr[data-key="${key.publicKey}"]`).isVisible()).toBe(true);
    expect(await main(page).textContent()).not.toContain(key.secretKey);
    await expect.poll(async () => main(page).locator(`tr[data-key="${key.publicKey}"]`).textContent()).not.toContain('Never');

    // Roll a second key with a 1 h overlap: both work, the old one says when it ends.
    const second = await generateKeyInBrowser(page, app);
    await main(page).getByRole('button', { name: `Roll ${second.publicKey}` }).click();
    await main(page).getByLabel('Overlap').selectOption('1h');
    await main(page).getByRole('button', { name: 'Roll key' }).click();
    await expect.poll(() => main(page).locator(`tr[data-key="${second.publicKey}"]`).getByText(/^Expires/).isVisible()).toBe(true);
    const rolled = { publicKey: (await main(page).getByTestId('new-public-key').textContent())!.trim(), secretKey: (await main(page).getByTestId('new-secret-key').textContent())!.trim() };
    expect(await apiStatus(app, second)).toBe(200);
    await dashboardShot(page, 'keys-laptop');
    expect(await apiStatus(app, rolled)).toBe(200);

    await revokeKeyInBrowser(page, app, key.publicKey);
    const started = performance.now();
    while ((await apiStatus(app, key)) !== 401 && performance.now() - started < 5_000) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await apiStatus(app, key)).toBe(401);
    expect(await apiStatus(app, rolled)).toBe(200);
    await context.close();
  });

  it('on a phone the new secret and the list fit, with the table scrolling sideways', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    await signUpInBrowser(page, app);
    await generateKeyInBrowser(page, app);
    await dashboardShot(page, 'keys-phone');
    expect(await axeViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    expect(overflow).toBe(false);
    await context.close();
  });

  it('a developer on a phone makes a restricted key: full access and loan writes cannot be chosen, the list shows the scopes, and the API refuses a write', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    const email = await signUpInBrowser(page, app, { organisationName: 'Yaba Dental' });
    await app.platform.db.updateTable('dashboardMemberships').set({ role: 'developer' }).where('userId', '=', (await app.platform.db.selectFrom('dashboardUsers').select('id').where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow()).id).execute();
    await openPage(page, app, '/keys', 'API keys');
    await expect.poll(() => page.locator('dash-app header').textContent()).toContain('developer');

    const form = main(page).locator('form', { has: page.getByRole('heading', { name: 'New key pair' }) });
    expect(await form.getByRole('radio', { name: /Full access/ }).isDisabled()).toBe(true);
    expect(await form.getByRole('radio', { name: /Restricted/ }).isChecked()).toBe(true);
    const loans = form.locator('#scope-loans');
    expect(await loans.locator('option[value="write"]').isDisabled()).toBe(true);
    await loans.selectOption('read');
    await form.locator('#scope-webhooks').selectOption('write');
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'keys-scopes-developer-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)).toBe(false);

    await form.getByRole('button', { name: 'Generate a test key pair' }).click();
    const secret = main(page).getByTestId('new-secret-key');
    await expect.poll(() => secret.isVisible(), { timeout: 10_000 }).toBe(true);
    const key = { publicKey: (await main(page).getByTestId('new-public-key').textContent())!.trim(), secretKey: (await secret.textContent())!.trim() };
    const row = main(page).locator(`tr[data-key="${key.publicKey}"]`);
    await expect.poll(() => row.textContent()).toContain('loans:read');
    expect(await row.textContent()).toContain('webhooks:write');
    await dashboardShot(page, 'keys-scopes-created-phone');

    expect(await apiStatus(app, key)).toBe(403);
    const loansRead = await fetch(`${app.url}/v1/loans`, { headers: keyHeaders(key) });
    expect(loansRead.status).toBe(200);
    const cancel = await fetch(`${app.url}/v1/loans/00000000-0000-4000-8000-000000000000/cancel`, { method: 'POST', headers: keyHeaders(key) });
    expect(cancel.status).toBe(403);
    expect((await cancel.json()).data).toEqual({ requiredScope: 'loans:write' });
    await context.close();
  });

  it('an owner invites an analyst, who sets a password from the link and is refused the keys and team pages by the server', async () => {
    const owner = await newDashboardPage(browser);
    await signUpInBrowser(owner.page, app, { organisationName: 'Surulere Dental' });
    const email = uniqueEmail('analyst');
    const token = await inviteMemberInBrowser(owner.page, app, { email, role: 'analyst' });
    await dashboardShot(owner.page, 'team-laptop');
    expect(await axeViolations(owner.page)).toEqual([]);

    const invited = await newDashboardPage(browser, PHONE_VIEWPORT);
    await invited.page.goto(`${app.url}/dashboard/accept-invitation?token=${encodeURIComponent(token)}`);
    await expect.poll(() => invited.page.getByRole('heading', { name: 'Join Surulere Dental' }).isVisible()).toBe(true);
    expect(await axeViolations(invited.page)).toEqual([]);
    await dashboardShot(invited.page, 'accept-invitation-phone');
    await acceptInvitationInBrowser(invited.page, app, token);
    expect(await invited.page.locator('dash-app header').textContent()).toContain('analyst');

    // The pages are not in the navigation; opened by address, the page says they are not for this role (before any
    // call), and the server refuses their data anyway.
    for (const [path, heading, api] of [
      ['/keys', 'API keys', '/keys'],
      ['/team', 'Team', '/team/members'],
    ] as const) {
      await openPage(invited.page, app, path, 'Not available for your role');
      const alert = main(invited.page).getByRole('alert');
      await expect.poll(() => alert.isVisible()).toBe(true);
      expect(await alert.textContent()).toContain(`The ${heading} page is not available for your role (analyst)`);
      expect(await invited.page.evaluate((url) => fetch(`/dashboard/api${url}`).then((r) => r.status), api)).toBe(403);
      expect(await axeViolations(invited.page)).toEqual([]);
    }
    await dashboardShot(invited.page, 'team-refused-phone');

    // The owner sees the analyst as a member, and the team page fits a phone.
    await owner.page.setViewportSize(PHONE_VIEWPORT);
    await openPage(owner.page, app, '/team', 'Team');
    await expect.poll(() => main(owner.page).locator(`tr[data-member="${email.toLowerCase()}"]`).isVisible()).toBe(true);
    await dashboardShot(owner.page, 'team-phone');
    expect(await axeViolations(owner.page)).toEqual([]);
    await owner.context.close();
    await invited.context.close();
  });

  it('a person with an account accepts with their password, then picks between their organisations in the header', async () => {
    const inviter = await newDashboardPage(browser);
    await signUpInBrowser(inviter.page, app, { organisationName: 'Yaba Pharmacy' });
    const existing = await signedInOwner(app);
    const token = await inviteMemberInBrowser(inviter.page, app, { email: existing.email, role: 'developer' });

    const { context, page } = await newDashboardPage(browser);
    await acceptInvitationInBrowser(page, app, token);
    await expect.poll(() => page.locator('dash-app header').textContent()).toContain('Yaba Pharmacy · developer');
    const picker = page.getByLabel('Organisation', { exact: true });
    await expect.poll(() => picker.isVisible()).toBe(true);
    // The page under the header has loaded (its heading), not only the shell: axe judges the whole page.
    await expect.poll(() => main(page).locator('h1').first().isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'org-switcher-laptop');

    await picker.selectOption({ label: 'Ikeja Clinic (owner)' });
    await expect.poll(() => page.locator('dash-app header').textContent(), { timeout: 10_000 }).toContain('Ikeja Clinic · owner');
    await openPage(page, app, '/team', 'Team');
    await expect.poll(() => main(page).locator(`tr[data-member="${existing.email.toLowerCase()}"]`).isVisible()).toBe(true);
    await context.close();
    await inviter.context.close();
  });
});
