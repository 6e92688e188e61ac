import path from 'node:path';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';
import { latestOtp, nubanCheckDigit, uniquePhone, verifiedSession, sandboxTexts } from '../support/checkout';
import { ARTIFACTS, axeViolations, ensureBundles, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { en } from '../../widget/i18n/en';
import { yo } from '../../widget/i18n/yo';
import { ha } from '../../widget/i18n/ha';
import { lentLoan, mintBorrowerSession } from '../support/borrower-loans';
import { formatKobo } from '../../widget/format';

/**
 * The borrower's loan page in the machine's Chromium at 360×640, against the real server on the sandbox: a checkout
 * finished over the API texts the receipt; its link opens `/checkout/my-loan`; the borrower signs in with the code from
 * the sandbox inbox (pasted with a space), sees the next debit, pays ₦5,000 on the sandbox rail and sees the receipt and
 * the new balance, then gets a payoff quote, pays it and sees the loan completed. In English and in Yorùbá (picked in
 * the language menu); axe-clean and without sideways scroll on every screen. Screenshots in test-artifacts/my-loan/.
 */
const SHOTS = path.join(path.dirname(ARTIFACTS), 'my-loan');

let app: TestApp;
let tenant: LendingTenant;
let browser: Browser;

beforeAll(async () => {
  await ensureBundles();
  if (!fs.existsSync(path.resolve('dist/my-loan/my-loan.js'))) throw new Error('dist/my-loan/my-loan.js is missing: run browser tests through the e2e project');
  fs.mkdirSync(SHOTS, { recursive: true });
  // The sandbox rail confirms a mandate and decides a charge at once.
  app = await startTestApp({ env: { RAIL_CHARGE_LAG_MS: '0', RAIL_CONFIRMATION_LAG_MS: '0' } });
  tenant = await lendingTenant(app);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const inbox = (phone: string) => sandboxTexts(app, phone);

/** A checkout finished over the checkout API (code, signature, bank, direct debit), then disbursed: the receipt is texted. */
async function checkedOutLoan() {
  const { session, loan, phone } = await verifiedSession(app, tenant);
  await session.post('/v1/checkout/accept', { signatureFullName: 'Ada Obi', documentReference: loan.documentReference, ipAddress: '102.89.34.7', userAgent: 'Mozilla/5.0 E2E' });
  const accountNumber = `100000000${nubanCheckDigit('058', '100000000')}`;
  expect((await session.post('/v1/checkout/bank-account', { bankCode: '058', accountNumber })).status).toBe(200);
  const created = await session.post('/v1/checkout/mandate', { email: 'ada@example.com' });
  await fetch(created.body.data.authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
  await expect.poll(async () => (await session.post('/v1/checkout/mandate/activate')).body.data?.status, { timeout: 10_000 }).toBe('active');
  const disbursed = await client(app, tenant.test).post(`/v1/loans/${loan.id}/disburse`);
  expect(disbursed.status).toBe(200);
  return { loan: disbursed.body.data as { id: string; outstandingKobo: number; principalKobo: number }, phone };
}

/** What the borrower sees without scrolling sideways, checked by axe, kept as a screenshot. */
async function checkScreen(page: Page, name: string) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${name}: sideways scroll`).toBe(0);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  expect(await axeViolations(page), name).toEqual([]);
}

describe.each([
  ['en', en],
  ['yo', { ...en, ...yo }],
] as const)('the loan page in %s', (locale, texts) => {
  const T = (key: keyof typeof en, params: Record<string, string | number> = {}) => (texts[key] as string).replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));

  it('from the receipt\'s link: sign in by code, see the next debit, pay ₦5,000, then pay off and see the loan completed', async () => {
    const { loan, phone } = await checkedOutLoan();
    const receipt = (await inbox(phone)).find((m) => m.body.includes('/checkout/my-loan'));
    expect(receipt, 'the receipt text links to the loan page').toBeDefined();
    const link = /(http:\/\/\S+\/checkout\/my-loan\?mode=test)$/.exec(receipt!.body)![1]!;

    const context = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'en-NG' });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    try {
      await page.goto(link);
      await page.getByRole('heading', { name: en['myLoan.signIn.title'] }).waitFor();
      if (locale !== 'en') {
        await page.getByRole('combobox', { name: en['checkout.language'] }).selectOption(locale);
        await page.getByRole('heading', { name: T('myLoan.signIn.title') }).waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
      }
      await checkScreen(page, `${locale}-01-sign-in`);

      // The phone, then the code: pasted with a space, it goes in whole and is checked at once.
      await page.getByLabel(T('myLoan.signIn.phone')).fill(phone);
      await page.getByRole('button', { name: T('otp.send') }).click();
      const code = page.locator('#lc-otp-code');
      await code.waitFor();
      await expect.poll(() => latestOtp(app, phone).catch(() => ''), { timeout: 10_000 }).toMatch(/^\d{6}$/);
      await checkScreen(page, `${locale}-02-code`);
      const otp = await latestOtp(app, phone);
      await code.focus();
      await page.keyboard.insertText(`${otp.slice(0, 3)} ${otp.slice(3)}`);

      // The list: the lender's loan with its next debit.
      const loanButton = page.getByRole('button', { name: new RegExp(T('myLoan.loanOf', { amount: formatKobo(loan.principalKobo) }).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
      await loanButton.waitFor({ timeout: 15_000 });
      await checkScreen(page, `${locale}-03-loans`);
      await loanButton.click();

      // The loan: what is left, the next debit (date and amount), the schedule.
      const outstanding = page.locator('#lc-outstanding');
      await outstanding.waitFor();
      expect(await outstanding.innerText()).toBe(formatKobo(loan.outstandingKobo));
      const next = await page.locator('#lc-next-debit').innerText();
      expect(next).toMatch(/₦[\d,]+\.\d\d/);
      await page.getByRole('heading', { name: T('myLoan.schedule') }).waitFor();
      await checkScreen(page, `${locale}-04-loan`);

      // Pay now: ₦5,000 on the sandbox rail; the receipt and the new balance.
      await page.getByRole('button', { name: T('myLoan.pay.title'), exact: true }).click();
      // The bank refuses (the sandbox refuses an amount ending in 51 kobo): nothing taken, a way forward.
      await page.getByLabel(T('myLoan.pay.amount')).fill('100.51');
      await page.locator('form').getByRole('button', { name: T('myLoan.pay.submit') }).click();
      await page.getByText(T('error.payment_refused')).waitFor({ timeout: 15_000 });
      expect(await page.locator('form').getByRole('button', { name: T('myLoan.pay.tryAgain') }).count()).toBe(1);
      await checkScreen(page, `${locale}-05-refused`);
      expect(await outstanding.innerText()).toBe(formatKobo(loan.outstandingKobo));
      await page.getByRole('button', { name: T('myLoan.pay.otherAmount') }).click();
      expect(await page.getByLabel(T('myLoan.pay.amount')).inputValue()).toBe('');
      await page.getByLabel(T('myLoan.pay.amount')).fill('5000');
      await checkScreen(page, `${locale}-05-pay`);
      await page.locator('form').getByRole('button', { name: T('myLoan.pay.submit') }).click();
      await page.getByText(T('myLoan.pay.done', { amount: formatKobo(500_000) })).waitFor({ timeout: 15_000 });
      await expect.poll(() => outstanding.innerText()).toBe(formatKobo(loan.outstandingKobo - 500_000));
      const repayments = page.locator('#lc-repayments');
      expect(await repayments.innerText()).toContain(formatKobo(500_000));
      expect(await repayments.innerText()).toMatch(new RegExp(T('myLoan.receipt', { reference: '' }).trim()));
      await checkScreen(page, `${locale}-06-paid`);

      // Pay off early: the quote (valid to the end of the day), paid; the loan is completed.
      await page.getByRole('button', { name: T('myLoan.payoff.quote') }).click();
      const quote = page.locator('#lc-quote');
      await quote.waitFor();
      expect(await quote.innerText()).toContain(T('myLoan.payoff.total'));
      await checkScreen(page, `${locale}-07-quote`);
      await page.getByRole('button', { name: T('myLoan.payoff.pay') }).click();
      await page.getByText(T('myLoan.payoff.done')).waitFor({ timeout: 15_000 });
      await page.getByText(T('myLoan.completed')).waitFor();
      expect(await page.getByText(T('myLoan.status.completed')).count()).toBeGreaterThan(0);
      await checkScreen(page, `${locale}-08-completed`);
      const after = await client(app, tenant.test).get(`/v1/loans/${loan.id}`);
      expect(after.body.data.status).toBe('completed');
      // Paid off, the direct debit ends: nothing more is ever collected on it.
      const mandates = await app.platform.db.selectFrom('loanMandates').select('status').where('loanId', '=', loan.id).execute();
      expect(mandates.map((m) => m.status)).toEqual(['cancelled']);

      // Sign out: back to the sign-in, and the page no longer reads the loan.
      await page.getByRole('button', { name: T('myLoan.signOut') }).click();
      await page.getByRole('heading', { name: T('myLoan.signIn.title') }).waitFor();
      expect((await page.request.get(`${app.url}/checkout/my-loan/api/sessions`)).status()).toBe(401);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('signing in as people do', () => {
  // The platform's clock stands still here, so the 30 s cool-down between codes cannot run out while a busy machine
  // takes its time over the steps below (a second code would then be sent for a reason of its own).
  let still: TestApp;
  let stillTenant: LendingTenant;
  beforeAll(async () => {
    still = await startTestApp({ clock: new FakeClock(new Date()), env: { RAIL_CHARGE_LAG_MS: '0', RAIL_CONFIRMATION_LAG_MS: '0' } });
    stillTenant = await lendingTenant(still);
  }, 120_000);
  afterAll(() => still?.stop());
  const stillInbox = (phone: string) => sandboxTexts(still, phone);

  it('a reload after the code was sent shows the box for that code (no new code, no wait with nowhere to type); a second tab asking again gets the same box; the code signs in', async () => {
    const phone = uniquePhone();
    await lentLoan(still, stillTenant, phone);
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'en-NG' });
    const page = await context.newPage();
    try {
      await page.goto(`${still.url}/checkout/my-loan?mode=test`);
      // Typed as people write it: the local form, with spaces.
      const local = `0${phone.slice(4)}`;
      await page.getByLabel(en['myLoan.signIn.phone']).fill(`${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}`);
      await page.getByRole('button', { name: en['otp.send'] }).click();
      await page.locator('#lc-otp-code').waitFor();
      await expect.poll(async () => (await stillInbox(phone)).length, { timeout: 10_000 }).toBe(1);

      await page.reload();
      await page.locator('#lc-otp-code').waitFor({ timeout: 10_000 });
      await checkScreen(page, 'en-09-code-after-reload');

      // Another tab of the same browser knows nothing of the first: asking for a code within the cool-down shows the box
      // for the code already sent, not "please wait".
      const second = await context.newPage();
      await second.goto(`${still.url}/checkout/my-loan?mode=test`);
      await second.getByLabel(en['myLoan.signIn.phone']).fill(phone);
      await second.getByRole('button', { name: en['otp.send'] }).click();
      await second.locator('#lc-otp-code').waitFor({ timeout: 10_000 });
      expect(await second.getByText(en['error.otp_resend_too_soon']).count()).toBe(0);
      await second.close();
      expect((await stillInbox(phone)).length, 'no second code was sent').toBe(1);

      await page.locator('#lc-otp-code').focus();
      await page.keyboard.insertText(await latestOtp(still, phone));
      await page.getByRole('button', { name: /₦[\d,.]+ loan/ }).first().waitFor({ timeout: 15_000 });
      // Signed in, a reload stays signed in and does not bring the code box back.
      await page.reload();
      await page.getByRole('button', { name: /₦[\d,.]+ loan/ }).first().waitFor({ timeout: 15_000 });
      expect(await page.locator('#lc-otp-code').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe('links a browser lands on', () => {
  it('a partner-minted session\'s link opens the loans signed in, the token gone from the address; a cut-short link is the branded page in the browser\'s language', async () => {
    const { loan } = await lentLoan(app, tenant, uniquePhone());
    const minted = await mintBorrowerSession(app, tenant.test, loan.id);
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'ha-NG' });
    const page = await context.newPage();
    try {
      await page.goto(`${app.url}/checkout/my-loan/s/${minted.token}`);
      expect(new URL(page.url()).pathname).toBe('/checkout/my-loan/');
      await page.getByRole('heading', { level: 2, name: ha['myLoan.title'] }).waitFor();
      expect(await page.content()).not.toContain(minted.token);
      await checkScreen(page, 'ha-01-minted-link');

      // The lender withdraws the session while the loan is open: the next action asks the borrower to sign in again.
      await page.getByRole('button', { name: new RegExp(ha['myLoan.loanOf']!.replace('{amount}', '')) }).click();
      await page.locator('#lc-outstanding').waitFor();
      expect((await client(app, tenant.test).post(`/v1/borrower-sessions/${minted.id}/revoke`)).status).toBe(200);
      await page.getByRole('button', { name: ha['myLoan.payoff.quote'] }).click();
      await page.getByRole('heading', { level: 2, name: ha['myLoan.signIn.title'] }).waitFor();
      await page.getByText(ha['myLoan.signedOut']!).waitFor();
      expect(new URL(page.url()).hash).toBe('');

      const bad = await page.goto(`${app.url}/checkout/my-loan/s/${minted.token.slice(0, 20)}`);
      expect(bad!.status()).toBe(404);
      await page.getByText(ha['myLoan.ended.unknown']!).waitFor();
      await page.getByRole('link', { name: ha['myLoan.openLoans'] }).waitFor();
      await checkScreen(page, 'ha-02-unknown-link');
    } finally {
      await context.close();
    }
  });
});
