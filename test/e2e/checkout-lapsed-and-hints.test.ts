import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { expireMandates } from '../../server/platform/domain/mandates/expire-mandates';
import { formatDate } from '../../widget/format';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { offeredLoan, type LendingTenant } from '../support/lifecycle';
import { liveLendingTenant } from '../support/live-providers';
import { latestOtp, mintSession, nubanCheckDigit, sessionClient, tokenOf, uniquePhone } from '../support/checkout';
import { axeViolations, ensureBundles, launchChromium, PHONE_VIEWPORT, screenshot } from '../support/browser';

/**
 * At 360×640 in the machine's Chromium: a direct debit the borrower never approved lapses (the
 * mandate sweep), the borrower follows the text back, reads that it lapsed and "Try again" sets up a
 * fresh one; the done screen says where the money goes and when; test mode's hints on the phone-code
 * and bank steps, and none on a live session. Sessions last 2 hours here so that the 1-hour
 * authorisation window passes while the borrower's link still works.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let lender: LendingTenant;
let browser: Browser;

beforeAll(async () => {
  await ensureBundles();
  app = await startTestApp({ clock, env: { MANDATE_AUTHORISATION_WINDOW_HOURS: '1', CHECKOUT_SESSION_TTL_MINUTES: '120' } });
  lender = await liveLendingTenant(app, clock.now());
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const nuban = (bank: string, serial: string) => `${serial}${nubanCheckDigit(bank, serial)}`;
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name }).waitFor();
const appUrl = (url: string) => new URL(new URL(url).pathname, app.url).href;

async function shot(page: Page, name: string) {
  await screenshot(page, `lapsed-${name}`);
  expect(await axeViolations(page), name).toEqual([]);
}

async function phonePage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
  return { context, page: await context.newPage() };
}

/** An offered loan whose borrower has (through the session's API) verified the phone, and optionally signed and given an account. */
async function borrowerAt(step: 'otp' | 'bank' | 'mandate') {
  const phone = uniquePhone();
  const { loan } = await offeredLoan(app, lender, { phone });
  const session = sessionClient(app, tokenOf(loan.applicationUrl));
  if (step !== 'otp') {
    await session.post('/v1/checkout/otp/send');
    expect((await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) })).status).toBe(200);
    const signed = await session.post('/v1/checkout/accept', { signatureFullName: 'Ada Obi', documentReference: loan.documentReference, ipAddress: '102.89.34.7', userAgent: 'Mozilla/5.0 (Linux; Android 14)' });
    expect(signed.status).toBe(200);
  }
  if (step === 'mandate') expect((await session.post('/v1/checkout/bank-account', { bankCode: '057', accountNumber: nuban('057', '100000000') })).status).toBe(200);
  return { loan, phone, session };
}

async function inbox(phone: string): Promise<string[]> {
  const res = await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
  return (res.body.data.messages as Array<{ body: string }>).map((m) => m.body);
}

describe('a direct debit that lapsed', () => {
  it('the borrower left the bank\'s page unanswered: after the window the sweep expires it and texts them; the link shows that it lapsed, Try again finishes, and the done screen says where the money goes, then when it was released', async () => {
    const { loan, phone } = await borrowerAt('mandate');
    const { context, page } = await phonePage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await heading(page, 'Set up your repayments');
      await page.getByRole('button', { name: 'Set up direct debit' }).click();
      await page.waitForURL(/\/sandbox\/rails\//);
      // The borrower closes the bank's page without answering; an hour on, the sweep runs.
      clock.advance(61 * 60_000);
      const swept = await expireMandates(app.platform.db, app.platform, { windowHours: 1, now: clock.now() });
      expect(swept.expired).toBe(1);
      const text = (await inbox(phone)).find((body) => /direct debit request expired/.test(body));
      expect(text).toBeDefined();
      const link = /(https?:\/\/\S+)/.exec(text!)![1]!;

      await page.goto(appUrl(link));
      const lapsed = page.getByText('The request expired before you approved it.');
      await lapsed.waitFor();
      await page.getByRole('button', { name: 'Try again' }).waitFor();
      await shot(page, '01-expired');

      await page.getByRole('button', { name: 'Try again' }).click();
      await page.waitForURL(/\/sandbox\/rails\//);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(/\/checkout\/\?return=mandate/);
      await page.getByText('Confirming your direct debit').waitFor();
      clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1_000);
      await heading(page, "You're all set");
      const done = page.locator('.lc-done [role="status"]');
      await expect.poll(() => done.innerText()).toMatch(/The money will be paid to your bank account once .+ releases your loan\./);
      await shot(page, '02-done-pending-payout');
      const statuses = await app.platform.db.selectFrom('loanMandates').select('status').where('loanId', '=', loan.id).orderBy('createdAt').execute();
      expect(statuses.map((m) => m.status)).toEqual(['expired', 'active']);

      // The lender releases the loan: the done screen says when.
      const disbursed = await client(app, lender.test).post(`/v1/loans/${loan.id}/disburse`, {});
      expect(disbursed.status, JSON.stringify(disbursed.body)).toBe(200);
      await page.reload();
      await heading(page, "You're all set");
      await expect.poll(() => done.innerText()).toMatch(new RegExp(`released your loan on ${formatDate(clock.now().toISOString())}: the money is paid to your bank account\\.`));
      await shot(page, '03-done-released');
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('test-mode hints', () => {
  it('on the phone-code step: where the code is, with a link to the sandbox inbox that opens it', async () => {
    const { loan } = await borrowerAt('otp');
    const { context, page } = await phonePage();
    try {
      const fetched: string[] = [];
      page.on('request', (request) => fetched.push(request.url()));
      await page.goto(appUrl(loan.applicationUrl));
      await page.getByRole('button', { name: 'Send code' }).waitFor();
      await page.getByText('Test mode: no text is sent; the code is in the sandbox inbox.').waitFor();
      // The hints come in their own small file, not with the rarer steps.
      expect(fetched.filter((url) => url.includes('/steps/checkout-test-hints.'))).toHaveLength(1);
      expect(fetched.filter((url) => url.includes('/steps/checkout-steps.'))).toEqual([]);
      const link = page.getByRole('link', { name: 'Open the sandbox inbox' });
      const href = await link.getAttribute('href');
      expect(href).toMatch(/\/sandbox\/mail#texts$/);
      expect((await fetch(href!.replace(/#.*$/, ''))).status).toBe(200);
      await shot(page, '04-hint-otp');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('on the bank step: an account that goes through and the magic account numbers, collapsed until opened', async () => {
    const { loan } = await borrowerAt('bank');
    const { context, page } = await phonePage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await heading(page, 'Your bank account');
      const summary = page.getByText('Test accounts (choose GTBank)');
      await summary.waitFor();
      expect(await page.getByText('7777777778').isVisible()).toBe(false);
      await summary.click();
      await page.getByText('7777777778').waitFor();
      expect(await page.locator('lc-test-hints li').allInnerTexts()).toEqual([
        '0123456785 your own name: accepted',
        '9999999990 no such account',
        '8888888889 bank unreachable',
        "7777777778 someone else's name",
        '6666666667 surname and initial only',
        'Refuse on the test bank page declines the debit.',
      ]);
      await page.locator('lc-test-hints').scrollIntoViewIfNeeded();
      await shot(page, '05-hint-bank');
      // In Yorùbá the summary wraps at 360 px: its lines read as text lines, not a tap target's height each,
      // and the summary is still at least 44 px tall to tap.
      await page.getByLabel('Language').selectOption('yo');
      const yoSummary = page.locator('lc-test-hints summary');
      await expect.poll(() => yoSummary.textContent()).toBe('Àwọn nọ́ńbà àkọọ́lẹ̀ ìdánwò (yan GTBank)');
      const box = await yoSummary.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return { height: el.getBoundingClientRect().height, lines: new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size };
      });
      expect(box.height).toBeGreaterThanOrEqual(44);
      expect(box.height / box.lines).toBeLessThan(36);
      await shot(page, '05-hint-bank-yo');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a live session shows no hints (and no TEST MODE strip) on the phone-code step', async () => {
    const live = client(app, lender.live);
    const pushed = await live.post('/v1/preapprovals', pushBody({ phone: uniquePhone() }));
    const issued = await live.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    // Live mode without an AML provider holds the loan for a person: cleared by hand, the offer issues.
    const review = await app.platform.db.selectFrom('loanReviews').select('id').where('loanId', '=', issued.body.data.id).executeTakeFirstOrThrow();
    expect((await live.post(`/v1/reviews/${review.id}/clear`, { reason: 'Checked the borrower against the sanctions lists by hand' })).status).toBe(200);
    const session = await mintSession(app, lender.live, issued.body.data.id);
    const { context, page } = await phonePage();
    try {
      const fetched: string[] = [];
      page.on('request', (request) => fetched.push(request.url()));
      await page.goto(appUrl(session.url));
      await page.getByRole('button', { name: 'Send code' }).waitFor();
      expect(await page.locator('lc-test-hints').count()).toBe(0);
      // The hints' own file is never even downloaded in live mode.
      expect(fetched.filter((url) => url.includes('checkout-test-hints'))).toEqual([]);
      expect(await page.locator('lc-checkout').innerText()).not.toMatch(/test mode|sandbox/i);
      await shot(page, '06-live-otp');
    } finally {
      await context.close();
    }
  }, 60_000);
});
