import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { axeViolations, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { signedInOwner } from '../support/dashboard';
import { dashboardShot, ensureDashboardBundle, main, newDashboardPage, openPage, signInInBrowser } from '../support/dashboard-browser';
import { enableLive, memberOf } from '../support/dashboard-members';
import { eventsOf, offeredLoan, operatorLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, nubanCheckDigit, sessionClient, tokenOf, uniquePhone } from '../support/checkout';
import { lendingOrganisation } from '../support/dashboard-journey/loans';

/**
 * The Reviews page as a compliance member uses it: a live loan with no AML provider waits for a person, the member
 * finds it in the queue with its evidence, gives a reason (too short first: the error is beside the field) and clears
 * it — the loan goes on to `awaiting_acceptance`, `review.opened` and `review.closed` in the event log — or rejects
 * another. At 1280×800 and at 360×640, axe clean.
 */
let app: TestApp;
let browser: Browser;
let tenant: LendingTenant;
let complianceEmail: string;
beforeAll(async () => {
  ensureDashboardBundle();
  app = await startTestApp();
  browser = await launchChromium();
  const owner = await signedInOwner(app);
  tenant = await lendingOrganisation(app, owner.organisationId);
  await enableLive(app, owner.organisationId);
  complianceEmail = (await memberOf(app, owner.organisationId, 'compliance', 'compliance')).email;
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A live pushed decision that waits for a person (no live AML provider): its loan id. */
async function parkedLiveLoan(): Promise<string> {
  const api = client(app, tenant.live);
  const pushed = await api.post('/v1/preapprovals', pushBody({ lastName: 'Okafor' }));
  const issued = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
  expect(issued.body.data.status).toBe('under_review');
  return issued.body.data.id;
}
const loanStatus = async (id: string) => (await app.platform.db.selectFrom('loans').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const card = (page: Page, loanId: string) => main(page).locator('article.review', { has: page.locator(`a[href$="/loans/${loanId}"]`) });

async function signInLive(page: Page): Promise<void> {
  await signInInBrowser(page, app, complianceEmail);
  await page.locator('dash-app select#mode').selectOption('live');
  await expect.poll(() => page.getByText('Test mode: sandbox data').isVisible()).toBe(false);
}

async function decide(page: Page, loanId: string, button: 'Clear' | 'Reject', reason: string): Promise<void> {
  const review = card(page, loanId);
  await review.getByLabel('Reason for your decision').fill(reason);
  await review.getByRole('button', { name: button, exact: true }).click();
}

describe('the Reviews page', () => {
  it('a compliance member clears a live loan waiting for a person: the reason is required beside its field, then the loan goes on (1280×800)', async () => {
    const loanId = await parkedLiveLoan();
    const { context, page } = await newDashboardPage(browser);
    await signInLive(page);
    await expect.poll(() => page.locator('dash-app nav').getByRole('link', { name: 'Reviews' }).isVisible()).toBe(true);
    // A compliance member has no keys, team or products to manage: those are not in the menu.
    expect(await page.locator('dash-app nav').getByRole('link', { name: 'API keys' }).count()).toBe(0);
    expect(await page.locator('dash-app nav').getByRole('link', { name: 'Team' }).count()).toBe(0);

    await openPage(page, app, '/reviews', 'Reviews');
    const review = card(page, loanId);
    await review.waitFor();
    expect(await review.getByRole('heading', { level: 2 }).textContent()).toBe('Not screened for sanctions (no AML provider)');
    expect(await review.textContent()).toMatch(/open \d+ min/);
    expect(await review.textContent()).toContain('Ada O.');
    expect(await review.textContent()).toContain('₦150,000.50');
    expect(await review.getByText('Not screened', { exact: true }).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'reviews-queue-laptop');

    await decide(page, loanId, 'Clear', 'ok');
    await expect.poll(() => review.locator('.field-error').textContent()).toContain('at least 3 characters');
    expect(await review.getByLabel('Reason for your decision').getAttribute('aria-invalid')).toBe('true');
    expect(await loanStatus(loanId)).toBe('under_review');
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'reviews-reason-required-laptop');

    await decide(page, loanId, 'Clear', 'Screened by hand against the sanctions lists: no match');
    await expect.poll(() => review.getByRole('status').textContent()).toContain('Cleared. The loan is now awaiting acceptance.');
    expect(await review.textContent()).toContain('Screened by hand against the sanctions lists');
    expect(await loanStatus(loanId)).toBe('awaiting_acceptance');
    const names = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loanId).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['review.opened', 'review.closed']));
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'reviews-cleared-laptop');

    // The loan's page lists its review, with a link back to it.
    await openPage(page, app, `/loans/${loanId}`, /Ada Okafor/);
    const reviews = main(page).locator('section', { has: page.getByRole('heading', { name: 'Reviews' }) });
    await reviews.waitFor();
    expect(await reviews.textContent()).toContain('cleared');
    expect(await reviews.getByRole('link', { name: 'See in Reviews' }).getAttribute('href')).toContain(`loanId=${loanId}`);
    await context.close();
  }, 90_000);

  it('rejects another on a phone (360×640): the loan is rejected with the reason', async () => {
    const loanId = await parkedLiveLoan();
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    await signInLive(page);
    await openPage(page, app, '/reviews', 'Reviews');
    const review = card(page, loanId);
    await review.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'reviews-queue-phone');
    await decide(page, loanId, 'Reject', 'Confirmed match on a sanctions list');
    await expect.poll(() => review.getByRole('status').textContent()).toContain('Rejected. The loan is now rejected.');
    const row = await app.platform.db.selectFrom('loans').select(['status', 'rejectionReason']).where('id', '=', loanId).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'rejected', rejectionReason: 'Confirmed match on a sanctions list' });
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'reviews-rejected-phone');

    // Closed reviews: who decided, when, why.
    await main(page).getByLabel('Status').selectOption('closed');
    await expect.poll(() => card(page, loanId).locator('.decided').textContent()).toContain(complianceEmail.toLowerCase());
    await dashboardShot(page, 'reviews-closed-phone');
    await context.close();
  }, 90_000);

  it('shows an undecided identity check and a bank account in another name with their evidence side by side (test mode, both sizes)', async () => {
    // A managed-KYC loan the sandbox's identity provider cannot decide.
    const managed = await operatorLoan(app, tenant, { kycTier: 'managed' });
    expect((await client(app, tenant.test).post(`/v1/loans/${managed.id}/kyc`, { bvn: '33333333333' })).body.data.loanStatus).toBe('under_review');
    // An offered loan whose borrower confirms someone else's account, on a product that asks for a review.
    await app.platform.db.updateTable('loanProducts').set({ nameMismatchPolicy: 'review' }).where('id', '=', tenant.pushedProductId).execute();
    const phone = uniquePhone();
    const { loan: offered } = await offeredLoan(app, tenant, { phone });
    const session = sessionClient(app, tokenOf(offered.applicationUrl));
    await session.post('/v1/checkout/otp/send');
    await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) });
    const kept = await session.post('/v1/checkout/bank-account', { bankCode: '058', accountNumber: `777777777${nubanCheckDigit('058', '777777777')}`, confirmNameMismatch: true });
    expect(kept.status).toBe(200);

    for (const [label, viewport] of [['laptop', undefined], ['phone', PHONE_VIEWPORT]] as const) {
      const { context, page } = await newDashboardPage(browser, viewport);
      await signInInBrowser(page, app, complianceEmail);
      await openPage(page, app, '/reviews', 'Reviews');
      const kyc = card(page, managed.id);
      const name = card(page, offered.id);
      await kyc.waitFor();
      await name.waitFor();
      expect(await kyc.getByRole('heading', { level: 2 }).textContent()).toBe('Identity check could not decide');
      expect(await kyc.textContent()).toContain('BVN checkThe provider could not decide');
      expect(await name.getByRole('heading', { level: 2 }).textContent()).toBe('Bank account in another name');
      expect(await name.textContent()).toContain('ADEYEMI NGOZI');
      expect(await name.textContent()).toContain('Another name');
      expect(await name.textContent()).toMatch(/Borrower confirmed it is theirsyes, /);
      expect(await axeViolations(page)).toEqual([]);
      await dashboardShot(page, `reviews-kyc-and-name-${label}`);
      await context.close();
    }

    // Filtering by reason shows only that reason's reviews.
    const { context, page } = await newDashboardPage(browser);
    await signInInBrowser(page, app, complianceEmail);
    await openPage(page, app, '/reviews?reason=name_mismatch', 'Reviews');
    await card(page, offered.id).waitFor();
    expect(await card(page, managed.id).count()).toBe(0);
    await decide(page, offered.id, 'Clear', 'Called the borrower: her business account');
    await expect.poll(() => card(page, offered.id).getByRole('status').textContent()).toContain('Cleared. The loan is now awaiting acceptance.');
    await context.close();
  }, 120_000);
});
