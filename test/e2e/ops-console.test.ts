import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, launchChromium } from '../support/browser';
import { ensureOpsBundle, LAPTOP, opsShot, PHONE } from '../support/ops-browser';
import { GOOD_PASSWORD, uniqueEmail } from '../support/dashboard';
import { addVirtualAuthenticator } from '../support/dashboard-journey/account';
import { startTestApp, type TestApp } from '../support/harness';
import { livePayout } from '../support/ops';
import { inviteStaff } from '../../server/platform/domain/ops/staff-accounts';

/**
 * The operations console in Chromium on the relying party's host (localhost), with every staff member asked a
 * passkey (OPS_PASSKEY_REQUIRED, the production default): two finance staff accept their invitations, register a
 * passkey with the virtual authenticator and sign in with it; one works the payouts queue and proposes a live
 * settlement, is refused when approving it herself, and the other approves it; the audit log shows both. At
 * 1280×800 and 360×640, axe clean; screenshots in test-artifacts/ops/.
 */

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  ensureOpsBundle();
  app = await startTestApp({ env: { OPS_PASSKEY_REQUIRED: 'true' } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const base = () => `${new URL(app.platform.baseUrl).origin}/ops`;
const shot = (page: Page, name: string) => opsShot(page, name);
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/** Invites (as `admin staff invite` does), then in a fresh browser: the link, a password, a passkey; then signs out and back in with the passkey alone. */
async function staffInBrowser(role: 'finance', viewport: { width: number; height: number }, tag: string): Promise<{ context: BrowserContext; page: Page; email: string }> {
  const email = uniqueEmail(tag).toLowerCase();
  const invitation = await inviteStaff(
    { db: app.platform.db, clock: app.platform.clock, baseUrl: app.platform.baseUrl, passkeyAlways: true },
    { email, role, invitedBy: { staffId: null, origin: { ip: null, userAgent: 'test' } } },
  );
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const authenticator = await addVirtualAuthenticator(context, page);
  await page.goto(invitation.link);
  await expect.poll(() => heading(page, 'Join the operations console').isVisible(), { timeout: 10_000 }).toBe(true);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByLabel('New password').fill(GOOD_PASSWORD);
  await page.getByRole('button', { name: 'Join the console' }).click();
  await expect.poll(() => heading(page, 'Register your passkey').isVisible(), { timeout: 10_000 }).toBe(true);
  await shot(page, `enrol-${tag}`);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect.poll(() => heading(page, "Today's queues").isVisible(), { timeout: 10_000 }).toBe(true);
  expect(await authenticator.credentials()).toHaveLength(1);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect.poll(() => heading(page, 'Operations console').isVisible(), { timeout: 10_000 }).toBe(true);
  await shot(page, `sign-in-${tag}`);
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Use a passkey instead' }).click();
  await expect.poll(() => heading(page, "Today's queues").isVisible(), { timeout: 10_000 }).toBe(true);
  await expect.poll(() => page.getByText(`${email} · ${role}`).isVisible()).toBe(true);
  return { context, page, email };
}

const open = async (page: Page, link: string, title: string | RegExp) => {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: link }).click();
  await expect.poll(() => heading(page, title).isVisible(), { timeout: 10_000 }).toBe(true);
};

describe('the operations console in the browser', { timeout: 180_000 }, () => {
  it('a live payout settlement proposed by one staff member is refused when she approves it herself and takes effect when another does; the audit log shows both', async () => {
    const { payoutId } = await livePayout(app, { amountKobo: 1_250_000 });
    const ada = await staffInBrowser('finance', LAPTOP, 'ada');
    const bayo = await staffInBrowser('finance', PHONE, 'bayo');

    // Ada works the payouts queue: the live payout, its bank reference, Settle → a proposal.
    await ada.page.reload();
    await expect.poll(() => ada.page.getByText('Payouts to settle').first().isVisible(), { timeout: 10_000 }).toBe(true);
    await shot(ada.page, 'home-laptop');
    expect(await axeViolations(ada.page)).toEqual([]);
    await open(ada.page, 'Payouts', 'Payouts to settle');
    await expect.poll(() => ada.page.getByRole('cell', { name: '₦12,500.00' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await ada.page.getByLabel(/Bank reference for ₦12,500\.00/).fill('NIP-E2E-0001');
    await ada.page.getByRole('button', { name: 'Settle', exact: true }).click();
    await expect.poll(() => ada.page.getByText('Proposed: another staff member must approve it under Proposals.').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => ada.page.getByText('Awaiting approval').isVisible()).toBe(true);
    await shot(ada.page, 'payouts-laptop');
    expect(await axeViolations(ada.page)).toEqual([]);

    // She cannot approve her own proposal.
    await open(ada.page, 'Proposals', 'Proposals awaiting a second person');
    await expect.poll(() => ada.page.getByText('NIP-E2E-0001').isVisible(), { timeout: 10_000 }).toBe(true);
    await ada.page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => ada.page.getByRole('alert').getByText('You proposed this: another staff member must approve it.').isVisible(), { timeout: 10_000 }).toBe(true);
    await shot(ada.page, 'proposals-refused-laptop');
    expect(await axeViolations(ada.page)).toEqual([]);
    expect((await app.platform.db.selectFrom('payoutRequests').select('status').where('id', '=', payoutId).executeTakeFirstOrThrow()).status).toBe('requested');

    // Bayo, on his phone, approves it: the payout is settled under Ada's reference.
    await open(bayo.page, 'Proposals', 'Proposals awaiting a second person');
    await expect.poll(() => bayo.page.getByText('NIP-E2E-0001').isVisible(), { timeout: 10_000 }).toBe(true);
    await shot(bayo.page, 'proposals-phone');
    expect(await axeViolations(bayo.page)).toEqual([]);
    await bayo.page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => bayo.page.getByText('Approved: it took effect.').isVisible(), { timeout: 10_000 }).toBe(true);
    const payout = await app.platform.db.selectFrom('payoutRequests').select(['status', 'settlementReference']).where('id', '=', payoutId).executeTakeFirstOrThrow();
    expect(payout).toEqual({ status: 'completed', settlementReference: 'NIP-E2E-0001' });

    // The audit log names both: Ada's proposal, Bayo's approval.
    await open(bayo.page, 'Audit log', 'Staff audit log');
    await expect.poll(() => bayo.page.getByText('proposal approved').isVisible(), { timeout: 10_000 }).toBe(true);
    const rows = await bayo.page.locator('ops-page tbody tr').allInnerTexts();
    expect(rows.some((row) => row.includes('proposal created') && row.includes(ada.email))).toBe(true);
    expect(rows.some((row) => row.includes('proposal approved') && row.includes(bayo.email))).toBe(true);
    await shot(bayo.page, 'audit-phone');
    expect(await axeViolations(bayo.page)).toEqual([]);
    await open(ada.page, 'Audit log', 'Staff audit log');
    await expect.poll(() => ada.page.getByText('payout settled').isVisible(), { timeout: 10_000 }).toBe(true);
    await shot(ada.page, 'audit-laptop');
    expect(await axeViolations(ada.page)).toEqual([]);

    // Search from the home page: the payout by its bank reference, now completed.
    await open(ada.page, 'Home', "Today's queues");
    await ada.page.getByLabel('Loan or payout id, reference, phone or organisation').fill('NIP-E2E-0001');
    await ada.page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => ada.page.getByText(payoutId).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await ada.page.getByRole('listitem').filter({ hasText: payoutId }).innerText()).toContain('completed');
    await shot(ada.page, 'search-laptop');
    expect(await axeViolations(ada.page)).toEqual([]);
    await ada.context.close();
    await bayo.context.close();
  });
});
