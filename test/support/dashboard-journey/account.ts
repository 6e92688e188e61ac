import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { GOOD_PASSWORD, inboxCount, tokenFromInbox, uniqueEmail } from '../dashboard';
import { main } from '../dashboard-browser';
import type { TestApp } from '../harness';

/**
 * Journey steps of the account area (passkeys, two-step sign-in, lockout, password reset, audit log). WebAuthn needs
 * a host name, so these steps use the app's public base URL (`http://localhost:<port>`, the relying party) rather
 * than `app.url` (127.0.0.1): sign up and sign in through `dashboardBase(app)` when a passkey is involved.
 */
export const dashboardBase = (app: TestApp): string => `${new URL(app.platform.baseUrl).origin}/dashboard`;

/** Chromium's virtual platform authenticator (CDP WebAuthn domain): resident keys, user verification that succeeds. */
export async function addVirtualAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    authenticatorId,
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

/** Signs up, verifies from the sandbox inbox and signs in, all on the relying party's host. Answers the e-mail. */
export async function signUpOnRelyingParty(page: Page, app: TestApp, email = uniqueEmail('account')): Promise<string> {
  const base = dashboardBase(app);
  await page.goto(`${base}/sign-up`);
  await page.getByLabel('Organisation name').fill('Yaba Clinic');
  await page.getByLabel('Work e-mail').fill(email);
  await page.getByLabel('Password').fill(GOOD_PASSWORD);
  await page.getByRole('button', { name: 'Create organisation' }).click();
  await expect.poll(() => page.getByText('Check your inbox').isVisible()).toBe(true);
  const token = await tokenFromInbox(app, email, 'verify-email');
  await page.goto(`${base}/verify-email?token=${encodeURIComponent(token)}`);
  await expect.poll(() => page.getByText('Your e-mail is verified').isVisible()).toBe(true);
  await signInWithPassword(page, app, email);
  await expect.poll(() => page.locator('dash-app header').isVisible()).toBe(true);
  return email;
}

/** Fills the sign-in form (does not wait for an outcome: the caller expects a session, a passkey step or an alert). */
export async function signInWithPassword(page: Page, app: TestApp, email: string, password = GOOD_PASSWORD): Promise<void> {
  if (!page.url().includes('/dashboard/sign-in')) await page.goto(`${dashboardBase(app)}/sign-in`);
  await page.getByLabel('Work e-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

export async function signOutInBrowser(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
}

/** On "Your account": adds a passkey with a name (the virtual authenticator answers) and waits for it in the list. */
export async function registerPasskeyInBrowser(page: Page, app: TestApp, name = 'Work laptop'): Promise<void> {
  await page.goto(`${dashboardBase(app)}/account`);
  await expect.poll(() => main(page).getByRole('heading', { level: 1, name: 'Your account' }).isVisible(), { timeout: 10_000 }).toBe(true);
  await main(page).getByLabel('Name of the new passkey (optional)').fill(name);
  await main(page).getByRole('button', { name: 'Add a passkey' }).click();
  await expect.poll(() => main(page).getByText(`Passkey “${name}” added`).isVisible(), { timeout: 10_000 }).toBe(true);
  await expect.poll(() => main(page).getByRole('table', { name: 'Your passkeys' }).getByText(name, { exact: true }).isVisible()).toBe(true);
}

/** From the sign-in page, "Use a passkey instead" (no e-mail typed), until the shell shows. */
export async function signInWithPasskeyInBrowser(page: Page, app: TestApp): Promise<void> {
  await page.goto(`${dashboardBase(app)}/sign-in`);
  await page.getByRole('button', { name: 'Use a passkey instead' }).click();
  await expect.poll(() => page.locator('dash-app header').isVisible(), { timeout: 10_000 }).toBe(true);
}

/** On "Your account": switches on "Ask for a passkey after my password". */
export async function requirePasskeyInBrowser(page: Page, app: TestApp): Promise<void> {
  await page.goto(`${dashboardBase(app)}/account`);
  const toggle = main(page).getByLabel('Ask for a passkey after my password');
  await expect.poll(() => toggle.isEnabled(), { timeout: 10_000 }).toBe(true);
  await toggle.check();
  await expect.poll(() => main(page).getByText('a passkey is asked after your password').isVisible()).toBe(true);
}

/** Password, then "Confirm with your passkey": the session opens only after the second step. */
export async function signInWithSecondFactorInBrowser(page: Page, app: TestApp, email: string): Promise<void> {
  await signInWithPassword(page, app, email);
  await expect.poll(() => page.getByRole('heading', { name: 'Confirm it is you' }).isVisible()).toBe(true);
  await page.getByRole('button', { name: 'Confirm with your passkey' }).click();
  await expect.poll(() => page.locator('dash-app header').isVisible(), { timeout: 10_000 }).toBe(true);
}

/** Ten wrong passwords lock the account: the eleventh attempt, even the right password, shows the 429 message. */
export async function lockOutInBrowser(page: Page, app: TestApp, email: string): Promise<void> {
  await page.goto(`${dashboardBase(app)}/sign-in`);
  for (let i = 0; i < 10; i += 1) {
    const answered = page.waitForResponse((r) => r.url().endsWith('/dashboard/api/sign-in'));
    await signInWithPassword(page, app, email, `wrong password number ${i} here`);
    expect((await answered).status()).toBe(401);
  }
  const locked = page.waitForResponse((r) => r.url().endsWith('/dashboard/api/sign-in'));
  await signInWithPassword(page, app, email, GOOD_PASSWORD);
  expect((await locked).status()).toBe(429);
  await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Too many failed sign-ins' }).isVisible()).toBe(true);
}

/** "Forgot your password?" → the link from the sandbox inbox → a new password → signed in with it. */
export async function resetPasswordFromInbox(page: Page, app: TestApp, email: string, newPassword: string): Promise<void> {
  const before = inboxCount(app, email);
  await page.goto(`${dashboardBase(app)}/sign-in`);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByLabel('Work e-mail').fill(email);
  await page.getByRole('button', { name: 'Send me a link' }).click();
  await expect.poll(() => page.getByText('we sent it a link').isVisible()).toBe(true);
  const token = await tokenFromInbox(app, email, 'reset-password', before);
  await page.goto(`${dashboardBase(app)}/reset-password?token=${encodeURIComponent(token)}`);
  await page.getByLabel('Password').fill(newPassword);
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await expect.poll(() => page.getByText('Your password is changed').isVisible()).toBe(true);
}

/** On the audit log page, filters by an action (its label in the select) and answers the rows' "What" codes. */
export async function filterAuditLogInBrowser(page: Page, app: TestApp, actionLabel: string): Promise<string[]> {
  await page.goto(`${dashboardBase(app)}/audit-log`);
  await expect.poll(() => main(page).getByRole('heading', { level: 1, name: 'Audit log' }).isVisible(), { timeout: 10_000 }).toBe(true);
  await main(page).getByLabel('Action').selectOption({ label: actionLabel });
  const answered = page.waitForResponse((r) => r.url().includes('/dashboard/api/audit-log?'));
  await main(page).getByRole('button', { name: 'Filter' }).click();
  await answered;
  await expect.poll(() => main(page).getByRole('status').filter({ hasText: /entries shown|^$/ }).count()).toBeGreaterThan(0);
  return main(page).locator('tbody tr td .code').allTextContents();
}

/** Clicks the confirm dialog's confirm button (the dialog is appended to the document body). */
async function confirmDialog(page: Page, label: string): Promise<void> {
  const button = page.locator('dash-confirm-dialog').getByRole('button', { name: label, exact: true });
  await button.waitFor();
  await button.click();
}

/** On "Your account": renames a passkey inline. */
export async function renamePasskeyInBrowser(page: Page, app: TestApp, from: string, to: string): Promise<void> {
  await page.goto(`${dashboardBase(app)}/account`);
  await main(page).getByRole('button', { name: `Rename ${from}` }).click();
  await main(page).getByLabel(`New name for “${from}”`).fill(to);
  await main(page).getByRole('button', { name: 'Save', exact: true }).click();
  await expect.poll(() => main(page).getByText(`Passkey renamed “${to}”`).isVisible()).toBe(true);
}

/**
 * On "Your account": "Remove" → confirm. Answers the page's outcome: the notice when removed, the alert when refused
 * (e.g. the last passkey while the passkey step is on).
 */
export async function removePasskeyInBrowser(page: Page, app: TestApp, name: string): Promise<{ removed: boolean; message: string }> {
  if (!page.url().endsWith('/dashboard/account')) await page.goto(`${dashboardBase(app)}/account`);
  const answered = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes('/dashboard/api/passkeys/'));
  await main(page).getByRole('button', { name: `Remove ${name}` }).click();
  await confirmDialog(page, 'Remove passkey');
  const removed = (await answered).ok();
  const outcome = removed ? main(page).getByText(`Passkey “${name}” removed.`) : main(page).getByRole('alert');
  await outcome.waitFor();
  return { removed, message: (await outcome.textContent()) ?? '' };
}

/** On "Your account": switches off "Ask for a passkey after my password" (confirmed). */
export async function stopRequiringPasskeyInBrowser(page: Page, app: TestApp): Promise<void> {
  if (!page.url().endsWith('/dashboard/account')) await page.goto(`${dashboardBase(app)}/account`);
  await main(page).getByLabel('Ask for a passkey after my password').uncheck();
  await confirmDialog(page, 'Stop asking');
  await expect.poll(() => main(page).getByText('Your password alone signs you in again.').isVisible()).toBe(true);
}

/** On "Your account": "Sign out everywhere" (confirmed) ends up on the sign-in page. */
export async function signOutEverywhereFromAccount(page: Page, app: TestApp): Promise<void> {
  if (!page.url().endsWith('/dashboard/account')) await page.goto(`${dashboardBase(app)}/account`);
  await main(page).getByRole('button', { name: 'Sign out everywhere' }).click();
  await confirmDialog(page, 'Sign out everywhere');
  await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible(), { timeout: 10_000 }).toBe(true);
}
