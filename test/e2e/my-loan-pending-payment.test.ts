import path from 'node:path';
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { startTestApp, type TestApp } from '../support/harness';
import { uniquePhone, sandboxTexts } from '../support/checkout';
import { axeViolations, ensureBundles, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { ensureDashboardBundle, main, newDashboardPage, signUpInBrowser } from '../support/dashboard-browser';
import { lendingOrganisation } from '../support/dashboard-journey/loans';
import { lentLoan, mintBorrowerSession } from '../support/borrower-loans';
import { en } from '../../widget/i18n/en';
import { formatKobo } from '../../widget/format';

/**
 * A payment the borrower's bank decides after the request, in the machine's Chromium: the sandbox rail leaves the charge
 * `processing` for a minute of the server's fake clock, so pay now answers 202 and the loan page says the payment is
 * with the bank; the collector applies it later, one receipt is texted, and the page (reloaded) shows it received. The
 * lender's dashboard lists it as the borrower's own payment, not a scheduled debit.
 */
const LAG_MS = 60_000;
const clock = new FakeClock(new Date());
let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  await ensureBundles();
  ensureDashboardBundle();
  if (!fs.existsSync(path.resolve('dist/my-loan/my-loan.js'))) throw new Error('dist/my-loan/my-loan.js is missing: run browser tests through the e2e project');
  app = await startTestApp({ clock, env: { RAIL_CHARGE_LAG_MS: String(LAG_MS), RAIL_CONFIRMATION_LAG_MS: '0' } });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const inbox = (phone: string) => sandboxTexts(app, phone);

describe('a payment the bank decides later', () => {
  it('the page says it is with the bank; once the collector applies it, one receipt is texted, the page shows it received and the dashboard says the borrower paid it', async () => {
    const dashboard = await newDashboardPage(browser);
    const email = await signUpInBrowser(dashboard.page, app);
    const membership = await app.platform.db
      .selectFrom('dashboardMemberships as m')
      .innerJoin('dashboardUsers as u', 'u.id', 'm.userId')
      .select('m.organisationId')
      .where('u.email', '=', email.toLowerCase())
      .executeTakeFirstOrThrow();
    const tenant = await lendingOrganisation(app, membership.organisationId);
    const phone = uniquePhone();
    const { loan } = await lentLoan(app, tenant, phone);
    const minted = await mintBorrowerSession(app, tenant.test, loan.id);

    const context = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'en-NG' });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    const openLoan = async () => {
      await page.getByRole('button', { name: new RegExp(en['myLoan.loanOf'].replace('{amount}', '')) }).click();
      await page.locator('#lc-outstanding').waitFor();
    };
    try {
      await page.goto(`${app.url}/checkout/my-loan/s/${minted.token}`);
      await page.getByRole('heading', { level: 2, name: en['myLoan.title'] }).waitFor();
      await openLoan();

      await page.getByRole('button', { name: en['myLoan.pay.title'], exact: true }).click();
      await page.getByLabel(en['myLoan.pay.amount']).fill('5000');
      await page.locator('form').getByRole('button', { name: en['myLoan.pay.submit'] }).click();
      await page.getByText(en['myLoan.pay.pending'].replace('{amount}', formatKobo(500_000))).waitFor({ timeout: 15_000 });
      // Nothing is taken off yet: the outstanding stands, the payment is listed as waiting for the bank.
      expect(await page.locator('#lc-outstanding').innerText()).toBe(formatKobo(loan.outstandingKobo));
      const repayments = page.locator('#lc-repayments');
      await expect.poll(() => repayments.innerText()).toContain(en['myLoan.repayment.pending']);
      expect(await axeViolations(page)).toEqual([]);
      const [pending] = await app.platform.db.selectFrom('loanRepayments').select(['reference', 'status', 'initiatedBy']).where('loanId', '=', loan.id).execute();
      expect(pending).toMatchObject({ status: 'pending', initiatedBy: 'borrower' });
      expect((await inbox(phone)).filter((m) => m.body.includes(pending!.reference))).toHaveLength(0);

      // The bank decides; the collector reads it back and applies it: one receipt.
      clock.advance(LAG_MS + 1);
      expect((await runCollections(app.platform, clock.now())).completed).toBe(1);
      await expect.poll(async () => (await inbox(phone)).filter((m) => m.body.includes(`ref ${pending!.reference}`)).length, { timeout: 10_000 }).toBe(1);

      // The page keeps the open loan in its address: a reload reads it again.
      await page.reload();
      await page.locator('#lc-outstanding').waitFor({ timeout: 15_000 });
      await expect.poll(() => page.locator('#lc-outstanding').innerText()).toBe(formatKobo(loan.outstandingKobo - 500_000));
      const listed = await page.locator('#lc-repayments').innerText();
      expect(listed).toContain(en['myLoan.repayment.completed']);
      expect(listed).toContain(en['myLoan.receipt'].replace('{reference}', pending!.reference));
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }

    // The lender's loan page: the borrower's own payment, in words.
    try {
      await dashboard.page.goto(`${app.url}/dashboard/loans/${loan.id}`);
      const row = main(dashboard.page).locator('td[data-repayment-source]');
      await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
      expect(await row.getAttribute('data-repayment-source')).toBe('borrower');
      expect(await row.innerText()).toBe('Paid by the borrower on their loan page');
      expect(await axeViolations(dashboard.page)).toEqual([]);
    } finally {
      await dashboard.context.close();
    }
    expect((await inbox(phone)).filter((m) => m.body.includes('received, ref')).length).toBe(1);
  }, 60_000);
});
