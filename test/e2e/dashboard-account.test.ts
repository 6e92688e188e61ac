import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { writeAudit } from '../../server/platform/domain/dashboard/audit';
import { startTestApp, type TestApp } from '../support/harness';
import { axeViolations, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { GOOD_PASSWORD, inboxCount, signedInOwner, tokenFromInbox, uniqueEmail } from '../support/dashboard';
import { dashboardShot, ensureDashboardBundle, main, newDashboardPage } from '../support/dashboard-browser';
import {
  addVirtualAuthenticator,
  dashboardBase,
  filterAuditLogInBrowser,
  lockOutInBrowser,
  registerPasskeyInBrowser,
  removePasskeyInBrowser,
  renamePasskeyInBrowser,
  requirePasskeyInBrowser,
  resetPasswordFromInbox,
  signInWithPasskeyInBrowser,
  signInWithPassword,
  signInWithSecondFactorInBrowser,
  signOutEverywhereFromAccount,
  signOutInBrowser,
  signUpOnRelyingParty,
  stopRequiringPasskeyInBrowser,
} from '../support/dashboard-journey/account';

/**
 * The account area in Chromium on the relying party's host (localhost): a passkey made with the virtual authenticator
 * signs in without a password and then as the second step after the password; repeated wrong passwords lock the
 * account (the right one too, meanwhile); the password is reset from the sandbox inbox; the account and audit pages;
 * axe on every account page; screenshots at 360×640 in test-artifacts/dashboard/.
 */
describe('dashboard account security in the browser', () => {
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

  it('registers a passkey, signs in with it alone, then uses it as the second step after the password', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    const authenticator = await addVirtualAuthenticator(context, page);
    const email = await signUpOnRelyingParty(page, app);

    await registerPasskeyInBrowser(page, app, 'Phone');
    expect(await authenticator.credentials()).toHaveLength(1);
    expect((await authenticator.credentials())[0]!.isResidentCredential).toBe(true);
    await dashboardShot(page, 'account-phone');
    expect(await axeViolations(page)).toEqual([]);

    await signOutInBrowser(page);
    await signInWithPasskeyInBrowser(page, app);
    await page.goto(`${dashboardBase(app)}/account`);
    await expect.poll(() => main(page).getByText(email.toLowerCase()).isVisible(), { timeout: 10_000 }).toBe(true);

    await requirePasskeyInBrowser(page, app);
    await signOutInBrowser(page);
    await signInWithPassword(page, app, email);
    await expect.poll(() => page.getByRole('heading', { name: 'Confirm it is you' }).isVisible()).toBe(true);
    // No session before the passkey: the session route still says signed out.
    const status = await page.evaluate(async () => (await fetch('/dashboard/api/session')).status);
    expect(status).toBe(401);
    await dashboardShot(page, 'sign-in-second-factor-phone');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Confirm with your passkey' }).click();
    await expect.poll(() => page.locator('dash-app header').isVisible(), { timeout: 10_000 }).toBe(true);

    // Once more through the journey step, then the audit log shows the passkey actions with who, IP and browser.
    await signOutInBrowser(page);
    await signInWithSecondFactorInBrowser(page, app, email);
    const codes = await filterAuditLogInBrowser(page, app, 'Signed in with a passkey');
    expect(codes.length).toBe(3);
    expect(new Set(codes)).toEqual(new Set(['passkey_sign_in']));
    await expect.poll(() => main(page).getByRole('table').getByText(email.toLowerCase()).first().isVisible()).toBe(true);
    await dashboardShot(page, 'audit-phone');
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  }, 120_000); // a walk through several pages: a walk's time budget, like the other browser walks

  it('accepting an invitation with an account that asks a passkey: the password, then the passkey, then the dashboard', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    await addVirtualAuthenticator(context, page);
    const email = await signUpOnRelyingParty(page, app);
    await registerPasskeyInBrowser(page, app, 'Phone');
    await requirePasskeyInBrowser(page, app);
    await signOutInBrowser(page);

    const inviter = await signedInOwner(app);
    const before = inboxCount(app, email);
    expect((await inviter.post('/team/invitations', { email, role: 'developer' })).status).toBe(201);
    const token = await tokenFromInbox(app, email, 'accept-invitation', before);
    await page.goto(`${dashboardBase(app)}/accept-invitation?token=${encodeURIComponent(token)}`);
    await page.getByLabel('Password').fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: /^Join / }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Confirm it is you' }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.evaluate(async () => (await fetch('/dashboard/api/session')).status)).toBe(401);
    await dashboardShot(page, 'accept-invitation-second-factor-phone');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Confirm with your passkey' }).click();
    await expect.poll(() => page.locator('dash-app header').isVisible(), { timeout: 10_000 }).toBe(true);
    const session = await page.evaluate(async () => (await (await fetch('/dashboard/api/session')).json()) as { data: { role: string; organisation: { id: string } } });
    expect(session.data).toMatchObject({ role: 'developer', organisation: { id: inviter.organisationId } });
    await context.close();
  }, 120_000);

  it('on the account page: renames a passkey, cannot remove the last one while it is asked, removes it after switching off, signs out everywhere', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    await addVirtualAuthenticator(context, page);
    const email = await signUpOnRelyingParty(page, app);
    const other = await newDashboardPage(browser);
    await signInWithPassword(other.page, app, email);
    await expect.poll(() => other.page.locator('dash-app header').isVisible()).toBe(true);

    await registerPasskeyInBrowser(page, app, 'Phone');
    await renamePasskeyInBrowser(page, app, 'Phone', 'Pixel 8');
    await requirePasskeyInBrowser(page, app);
    const refused = await removePasskeyInBrowser(page, app, 'Pixel 8');
    expect(refused.removed).toBe(false);
    expect(refused.message).toContain('switch off');
    await stopRequiringPasskeyInBrowser(page, app);
    expect((await removePasskeyInBrowser(page, app, 'Pixel 8')).removed).toBe(true);
    await expect.poll(() => main(page).getByText('You have no passkey yet').isVisible()).toBe(true);
    expect(await main(page).getByLabel('Ask for a passkey after my password').isDisabled()).toBe(true);
    await dashboardShot(page, 'account-no-passkey-phone');

    await signOutEverywhereFromAccount(page, app);
    // The other device's session has ended too: its next request lands on the sign-in page.
    await other.page.goto(`${dashboardBase(app)}/account`);
    await expect.poll(() => other.page.getByRole('heading', { name: 'Sign in' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await other.context.close();
    await context.close();
  });

  it('locks the account after 10 wrong passwords: the 429 message shows and the right password is refused too', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    const email = await signUpOnRelyingParty(page, app);
    await signOutInBrowser(page);
    await lockOutInBrowser(page, app, email);
    await dashboardShot(page, 'sign-in-locked-phone');
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.locator('dash-app header').isVisible()).toBe(false);
    await context.close();
  });

  it('resets the password from the sandbox inbox link, then signs in with the new one', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    const email = await signUpOnRelyingParty(page, app);
    await signOutInBrowser(page);
    const newPassword = 'copper kettle beside the harbour';
    await resetPasswordFromInbox(page, app, email, newPassword);
    await dashboardShot(page, 'reset-password-done-phone');
    await signInWithPassword(page, app, email, GOOD_PASSWORD);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'not right' }).isVisible()).toBe(true);
    await signInWithPassword(page, app, email, newPassword);
    await expect.poll(() => page.locator('dash-app header').isVisible(), { timeout: 10_000 }).toBe(true);
    await context.close();
  });

  it('axe finds nothing on the sign-in, sign-up, verify, forgot and reset pages, and on the account and audit pages at laptop size', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    const base = dashboardBase(app);
    for (const [path, heading] of [
      ['/sign-in', 'Sign in'],
      ['/sign-up', 'Create your organisation'],
      ['/forgot-password', 'Reset your password'],
      ['/reset-password?token=not-a-real-token-at-all', 'Choose a new password'],
      ['/verify-email?token=not-a-real-token-at-all', 'Verify your e-mail'],
    ] as const) {
      await page.goto(`${base}${path}`);
      await expect.poll(() => page.getByRole('heading', { level: 1, name: heading }).isVisible()).toBe(true);
      if (path.startsWith('/verify-email')) await expect.poll(() => page.getByRole('alert').isVisible()).toBe(true);
      expect(await axeViolations(page), path).toEqual([]);
    }
    await page.goto(`${base}/sign-in`);
    await dashboardShot(page, 'sign-in-phone');
    await context.close();

    const laptop = await newDashboardPage(browser);
    const email = uniqueEmail('laptop');
    await signUpOnRelyingParty(laptop.page, app, email);
    // Enough history for two pages: "Load more" follows the cursor.
    const organisationId = await laptop.page.evaluate(async () => ((await (await fetch('/dashboard/api/session')).json()) as { data: { organisation: { id: string } } }).data.organisation.id);
    for (let i = 0; i < 55; i += 1) {
      await writeAudit(app.platform.db, { userId: null, organisationId, action: 'key_created', target: `key:${i}`, origin: { ip: '198.51.100.4', userAgent: 'seed' }, now: new Date(Date.now() - (i + 1) * 60_000) });
    }
    for (const [path, heading] of [['/account', 'Your account'], ['/audit-log', 'Audit log']] as const) {
      await laptop.page.goto(`${base}${path}`);
      await expect.poll(() => main(laptop.page).getByRole('heading', { level: 1, name: heading }).isVisible(), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => main(laptop.page).getByText(/Loading/).count()).toBe(0);
      expect(await axeViolations(laptop.page), path).toEqual([]);
      await dashboardShot(laptop.page, `${path.slice(1)}-laptop`);
    }
    const rows = main(laptop.page).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(50);
    await main(laptop.page).getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBe(57);
    await expect.poll(() => main(laptop.page).getByText('57 entries shown — that is all.').isVisible()).toBe(true);
    expect(await main(laptop.page).getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await laptop.context.close();
  }, 120_000); // several pages, each analysed by axe: a walk, like the other browser walks
});
