import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { GOOD_PASSWORD, inboxCount, tokenFromInbox } from '../dashboard';
import { main, openPage } from '../dashboard-browser';
import type { KeyPair, TestApp } from '../harness';

/**
 * Journey steps of the API keys and team pages, for the dashboard's one big journey. Each starts from a signed-in page
 * (except accepting an invitation, which starts signed out) and leaves the browser on the page it used.
 */

/** On the API keys page: generates a pair in the current mode and reads it from the one-time reveal. */
export async function generateKeyInBrowser(page: Page, app: TestApp): Promise<KeyPair> {
  await openPage(page, app, '/keys', 'API keys');
  await main(page).getByRole('button', { name: /^Generate a (test|live) key pair$/ }).click();
  const secret = main(page).getByTestId('new-secret-key');
  await expect.poll(() => secret.isVisible(), { timeout: 10_000 }).toBe(true);
  const publicKey = (await main(page).getByTestId('new-public-key').textContent())!.trim();
  const secretKey = (await secret.textContent())!.trim();
  // The list shows the new key as active.
  await expect.poll(() => main(page).locator(`tr[data-key="${publicKey}"]`).getByText('Active').isVisible()).toBe(true);
  return { publicKey, secretKey };
}

/** On the API keys page: revokes the key (through the confirmation) and waits for the list to say so. */
export async function revokeKeyInBrowser(page: Page, app: TestApp, publicKey: string): Promise<void> {
  await openPage(page, app, '/keys', 'API keys');
  await main(page).getByRole('button', { name: `Revoke ${publicKey}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke this key?' });
  await expect.poll(() => dialog.isVisible()).toBe(true);
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await expect.poll(() => main(page).locator(`tr[data-key="${publicKey}"]`).getByText(/^Revoked/).isVisible(), { timeout: 10_000 }).toBe(true);
}

/** On the team page: invites `email` with `role` and answers the invitation link's token from the sandbox inbox. */
export async function inviteMemberInBrowser(page: Page, app: TestApp, invitee: { email: string; role: 'owner' | 'admin' | 'developer' | 'analyst' }): Promise<string> {
  const before = inboxCount(app, invitee.email);
  await openPage(page, app, '/team', 'Team');
  await main(page).getByLabel('Work e-mail').fill(invitee.email);
  await main(page).getByLabel('Role', { exact: true }).selectOption(invitee.role);
  await main(page).getByRole('button', { name: 'Send invitation' }).click();
  await expect.poll(() => main(page).getByText(`Invitation sent to ${invitee.email.toLowerCase()}`).isVisible(), { timeout: 10_000 }).toBe(true);
  await expect.poll(() => main(page).locator(`tr[data-invitation="${invitee.email.toLowerCase()}"]`).isVisible()).toBe(true);
  return tokenFromInbox(app, invitee.email, 'accept-invitation', before);
}

/**
 * Signed out (a fresh context): follows the e-mailed link, sets a password (a new person) or enters the account's
 * (an existing one), and waits for the signed-in dashboard.
 */
export async function acceptInvitationInBrowser(page: Page, app: TestApp, token: string, password = GOOD_PASSWORD): Promise<void> {
  await page.goto(`${app.url}/dashboard/accept-invitation?token=${encodeURIComponent(token)}`);
  const join = page.getByRole('button', { name: /^Join / });
  await expect.poll(() => join.isVisible(), { timeout: 10_000 }).toBe(true);
  await page.getByLabel(/^(Choose a password|Password)$/).fill(password);
  await join.click();
  await expect.poll(() => page.locator('dash-app header').isVisible(), { timeout: 10_000 }).toBe(true);
}
