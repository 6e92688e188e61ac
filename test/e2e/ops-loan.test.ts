import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteStaff } from '../../server/platform/domain/ops/staff-accounts';
import type { StaffRole } from '../../server/platform/db/schema';
import { axeViolations, launchChromium } from '../support/browser';
import { ensureOpsBundle, LAPTOP, opsShot, PHONE } from '../support/ops-browser';
import { GOOD_PASSWORD, uniqueEmail } from '../support/dashboard';
import { bvnEnding, fundFinancingPool, identity, initiatedApplication, verifyOtp } from '../support/financing';
import { createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { lendingTenant, pendingMandateRepayment } from '../support/lifecycle';
import { FakeClock } from '../../server/integrations/clock';

/**
 * A loan's page in the console, in Chromium: a compliance staff member finds a patient-financing loan parked for the
 * service's review by its id on the home's search, opens it, reads its facts and clears the review there (the
 * application is approved); on a phone, a lending loan's page (schedule, repayments, events) opened from a charge's
 * queue row, read-only. At 1280×800 and 360×640, axe clean, no sideways scroll; screenshots in test-artifacts/ops/.
 */
const clock = new FakeClock(new Date());

let app: TestApp;
let browser: Browser;
let partner: Tenant;
beforeAll(async () => {
  ensureOpsBundle();
  app = await startTestApp({ clock });
  partner = await createTenant(app);
  await fundFinancingPool(app, 1_000_000_000);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const shot = (page: Page, name: string) => opsShot(page, name);
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

async function staffInBrowser(viewport: { width: number; height: number }, role: StaffRole): Promise<Page> {
  const email = uniqueEmail(role).toLowerCase();
  const invitation = await inviteStaff(
    { db: app.platform.db, clock: app.platform.clock, baseUrl: app.platform.baseUrl, passkeyAlways: false },
    { email, role, invitedBy: { staffId: null, origin: { ip: null, userAgent: 'test' } } },
  );
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(invitation.link);
  await expect.poll(() => heading(page, 'Join the operations console').isVisible(), { timeout: 10_000 }).toBe(true);
  await page.getByLabel('New password').fill(GOOD_PASSWORD);
  await page.getByRole('button', { name: 'Join the console' }).click();
  await expect.poll(() => heading(page, "Today's queues").isVisible(), { timeout: 10_000 }).toBe(true);
  return page;
}

/** A financing application the sandbox screen matched: its loan waits for the service's staff. */
async function parkedFinancing(): Promise<string> {
  const { initiation, session, phone } = await initiatedApplication(app, partner);
  await verifyOtp(app, session, phone);
  const decided = await session.post('/v1/checkout/financing/identity', identity(bvnEnding('6'), { fullName: 'Ada Sanctioned' }));
  expect(decided.body.data.status).toBe('application_submitted');
  return initiation.sdkReference;
}

describe('a loan\'s page in the console', { timeout: 180_000 }, () => {
  it('at 1280×800: found by its id, its facts and review shown, the review cleared there moves the application on', async () => {
    const loanId = await parkedFinancing();
    const page = await staffInBrowser(LAPTOP, 'compliance');
    await page.getByLabel('Loan or payout id, reference, phone or organisation').fill(loanId);
    await page.getByRole('button', { name: 'Search' }).click();
    const link = page.getByRole('link', { name: /Loan of 15000000 kobo/ });
    await expect.poll(() => link.isVisible(), { timeout: 10_000 }).toBe(true);
    await link.click();
    await expect.poll(() => heading(page, /Loan of/).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(page.url()).toContain(`/ops/loans/${loanId}`);
    await expect.poll(() => page.getByText('under review').first().isVisible()).toBe(true);
    expect(await page.locator('ops-loan p.id .badge').first().textContent()).toBe('test');
    await expect.poll(() => page.getByRole('cell', { name: 'the service (staff)' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('review.opened').isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(await noSidewaysScroll(page)).toBe(true);
    await shot(page, 'loan-page-review-1280');

    // A reason the server refuses shows under its field; nothing changes.
    await page.getByLabel('Reason for your decision on the review').fill('   a   ');
    await page.getByRole('button', { name: 'Clear the review' }).click();
    await expect.poll(() => page.locator('#review-reason[aria-invalid="true"]').count(), { timeout: 10_000 }).toBe(1);
    expect((await app.platform.db.selectFrom('loans').select('status').where('id', '=', loanId).executeTakeFirstOrThrow()).status).toBe('under_review');

    await page.getByLabel('Reason for your decision on the review').fill('Different person: date of birth differs from the list entry');
    await page.getByRole('button', { name: 'Clear the review' }).click();
    await expect.poll(() => page.getByText('Review decided.').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.getByText('What the queues offer for this loan').count()).toBe(0);
    await expect.poll(() => page.getByText('review.closed').isVisible()).toBe(true);
    const app_ = await app.platform.db.selectFrom('financingApplications').select('status').where('id', '=', loanId).executeTakeFirstOrThrow();
    expect(app_.status).toBe('approved');
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'loan-page-cleared-1280');
    // The page's address is its own: reloading it opens the same loan.
    await page.reload();
    await expect.poll(() => page.getByRole('cell', { name: /cleared/ }).isVisible(), { timeout: 10_000 }).toBe(true);
  });

  it('at 360×640: a lending loan opened from the charges queue shows its schedule and repayments, read-only, no sideways scroll', async () => {
    const tenant = await lendingTenant(app);
    // A charge whose outcome was lost puts its (disbursed) loan in the charges queue.
    const lost = await pendingMandateRepayment(app, tenant);
    await app.platform.db.updateTable('loanRepayments').set({ chargeReference: null, failureReason: 'charge_outcome_unknown' }).where('id', '=', lost.repaymentId).execute();

    const page = await staffInBrowser(PHONE, 'support');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Charges' }).click();
    await expect.poll(() => heading(page, 'Charges that need a person').isVisible(), { timeout: 10_000 }).toBe(true);
    const row = page.locator(`a[href="/ops/loans/${lost.loanId}"]`);
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await row.first().click();
    await expect.poll(() => heading(page, /Loan of/).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.getByRole('heading', { name: 'Schedule' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('heading', { name: 'Repayments' }).isVisible()).toBe(true);
    expect(await page.getByText('No schedule yet').count()).toBe(0);
    // Read-only: nothing to decide on this loan.
    expect(await page.getByRole('button').filter({ hasText: /Clear the review|Write off/ }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    expect(await noSidewaysScroll(page)).toBe(true);
    expect(await page.getByRole('cell', { name: /pending/ }).count()).toBeGreaterThan(0);
    await shot(page, 'loan-page-lending-360');
  });
});
