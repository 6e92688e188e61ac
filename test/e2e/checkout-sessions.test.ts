import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { OTP_RULES } from '../../server/platform/domain/checkout/otp';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, operatorLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, mintSession, sessionClient, tokenOf, uniquePhone } from '../support/checkout';
import { axeViolations, deepContent, ensureBundles, launchChromium, PHONE_VIEWPORT, screenshot } from '../support/browser';

/**
 * Sessions that survive real life, in the machine's Chromium at 360×640 against the real server on
 * a platform clock the test moves (and, where the page's own timers matter, the page's clock moved
 * with it): the OTP step restored after a reload, a code replaced by a newer one, a code pasted
 * with spaces, a session kept alive past 30 minutes while the page is open, "text me a new link"
 * from an expired page, a link that is not recognised, and "waiting for the lender" that moves on
 * by itself when the offer is issued (with a text to the borrower).
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let lender: LendingTenant;
let browser: Browser;

beforeAll(async () => {
  await ensureBundles();
  app = await startTestApp({ clock });
  lender = await lendingTenant(app);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const heading = (page: Page, name: string) => page.getByRole('heading', { name }).waitFor();
const appUrl = (url: string) => new URL(new URL(url).pathname, app.url).href;
const minutes = (n: number) => n * 60_000;

async function newPhonePage(options: { fakeTimers?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
  const page = await context.newPage();
  // The page's timers (countdowns, keep-alive, polling) then move only when the test moves them, in step with the platform's clock.
  if (options.fakeTimers) await page.clock.install();
  return { context, page };
}

async function inbox(phone: string): Promise<string[]> {
  const res = await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
  return (res.body.data.messages as Array<{ body: string }>).map((m) => m.body);
}

async function sendCode(page: Page) {
  await page.getByRole('button', { name: 'Send code' }).click();
  const input = page.getByLabel(/Code sent to/);
  await input.waitFor();
  return input;
}

async function verifyPhone(page: Page, phone: string): Promise<void> {
  const input = await sendCode(page);
  await input.fill(await latestOtp(app, phone));
}

/** Both clocks move: the platform's (expiry) and the page's (its timers fire). */
async function advanceBoth(page: Page, ms: number) {
  clock.advance(ms);
  await page.clock.fastForward(ms);
}

describe('the OTP step survives a reload', () => {
  it('after "Send code", a reload shows the code box, the live countdown to "Send a new code" and the attempts left; a wrong code lowers them, and they survive another reload', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const { context, page } = await newPhonePage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await heading(page, 'Confirm your phone number');
      await sendCode(page);
      await page.reload();
      const input = page.getByLabel(`Code sent to •••• ${phone.slice(-4)}`);
      await input.waitFor();
      expect(await page.getByRole('button', { name: 'Send code' }).count()).toBe(0);
      const resend = page.getByRole('button', { name: /Send a new code in \d+ s/ });
      await resend.waitFor();
      expect(await resend.isDisabled()).toBe(true);
      const first = Number((await resend.textContent())!.match(/(\d+) s/)![1]);
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThanOrEqual(OTP_RULES.resendCooldownMs / 1000);
      // The countdown is live: it goes down by itself.
      await page.waitForFunction((n) => /Send a new code in (\d+) s/.exec(document.body.innerText)?.[1] !== String(n), first, { timeout: 5_000 });
      await page.getByText('Attempts left: 5').waitFor();
      await screenshot(page, '40-otp-restored');
      expect(await axeViolations(page)).toEqual([]);

      const code = await latestOtp(app, phone);
      await input.fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('alert').filter({ hasText: 'That code is not correct' }).waitFor();
      await page.getByText('Attempts left: 4').waitFor();
      await page.reload();
      await page.getByText('Attempts left: 4').waitFor();
      await page.getByLabel(/Code sent to/).fill(code);
      await heading(page, 'Review and sign your offer');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('"Send code" within the cool-down (a code was sent from elsewhere meanwhile) shows the box for the code already sent and the countdown, not "please wait"', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const { context, page } = await newPhonePage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await heading(page, 'Confirm your phone number');
      // Another tab sent a code after this page loaded.
      expect((await sessionClient(app, tokenOf(loan.applicationUrl)).post('/v1/checkout/otp/send')).status).toBe(200);
      await page.getByRole('button', { name: 'Send code' }).click();
      await page.getByText(`A code was already sent to •••• ${phone.slice(-4)}`).waitFor();
      await page.getByLabel(/Code sent to/).waitFor();
      await page.getByRole('button', { name: /Send a new code in \d+ s/ }).waitFor();
      expect(await page.getByText('Please wait a moment').count()).toBe(0);
      await screenshot(page, '41-otp-already-sent');
      expect(await axeViolations(page)).toEqual([]);
      await page.getByLabel(/Code sent to/).fill(await latestOtp(app, phone));
      await heading(page, 'Review and sign your offer');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('typing the older code after a newer one was sent says a newer code was sent (and the attempts left); the newer code then verifies', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const { context, page } = await newPhonePage({ fakeTimers: true });
    try {
      await page.goto(appUrl(loan.applicationUrl));
      const input = await sendCode(page);
      const first = await latestOtp(app, phone);
      let second = first;
      while (second === first) {
        await advanceBoth(page, OTP_RULES.resendCooldownMs + 1_000);
        await page.getByRole('button', { name: 'Send a new code', exact: true }).click();
        await page.waitForFunction(() => /Send a new code in \d+ s/.test(document.body.innerText));
        second = await latestOtp(app, phone);
      }
      await input.fill(first);
      await page.getByRole('alert').filter({ hasText: 'A newer code was sent: use the code in the latest text message.' }).waitFor();
      await page.getByText('Attempts left: 4').waitFor();
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, '42-otp-superseded');
      expect(await axeViolations(page)).toEqual([]);
      await input.fill(second);
      await heading(page, 'Review and sign your offer');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('pasting "477 707" (with a space) into the code box keeps all six digits and verifies', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const { context, page } = await newPhonePage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      const input = await sendCode(page);
      const code = await latestOtp(app, phone);
      expect(await input.getAttribute('maxlength')).toBeNull();
      await input.focus();
      // As a paste arrives: the whole text at once, through the browser's editing (a maxlength would cut it here).
      await page.keyboard.insertText(`${code.slice(0, 3)} ${code.slice(3)}`);
      await heading(page, 'Review and sign your offer');
      const session = await app.platform.db.selectFrom('checkoutSessions').select('otpVerifiedAt').where('loanId', '=', loan.id).executeTakeFirstOrThrow();
      expect(session.otpVerifiedAt).toEqual(expect.any(String));
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('sessions that slide, end and come back', () => {
  it('a session kept alive past 30 minutes while the page is open: the page refreshes it as time passes, and the borrower signs at minute 40', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const minted = clock.now().getTime();
    const { context, page } = await newPhonePage({ fakeTimers: true });
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await verifyPhone(page, phone);
      await heading(page, 'Review and sign your offer');
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByLabel('I have read the offer and agree to its terms.').check();
      for (let step = 0; step < 8; step++) {
        const refreshed = page.waitForResponse((res) => res.url().endsWith('/checkout/api/session/refresh') && res.status() === 200);
        await advanceBoth(page, minutes(5) + 1_000);
        await refreshed;
      }
      expect(clock.now().getTime() - minted).toBeGreaterThan(minutes(40));
      const row = await app.platform.db.selectFrom('checkoutSessions').select(['expiresAt', 'maxExpiresAt']).where('loanId', '=', loan.id).executeTakeFirstOrThrow();
      expect(new Date(row.expiresAt).getTime()).toBeGreaterThan(minted + minutes(60));
      expect(new Date(row.expiresAt).getTime()).toBeLessThanOrEqual(new Date(row.maxExpiresAt).getTime());
      const partner = (await client(app, lender.test).get(`/v1/loans/${loan.id}`)).body.data;
      expect(partner.checkoutSession.expiresAt).toBe(new Date(row.expiresAt).toISOString());
      await page.getByRole('button', { name: 'Sign and accept' }).click();
      await heading(page, 'Your bank account');
      await screenshot(page, '43-kept-alive-bank');
      expect(await axeViolations(page)).toEqual([]);
      expect((await app.platform.db.selectFrom('loans').select('status').where('id', '=', loan.id).executeTakeFirstOrThrow()).status).toBe('terms_accepted');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('an expired page offers "Text me a new link" and the lender\'s contact; the link from the text opens a fresh checkout where the borrower finishes the step', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const { context, page } = await newPhonePage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await heading(page, 'Confirm your phone number');
      clock.advance(minutes(app.platform.config.CHECKOUT_SESSION_TTL_MINUTES + 1));
      await page.reload();
      await heading(page, 'This checkout is not available');
      await page.getByText('This link has expired').waitFor();
      const button = page.getByRole('button', { name: 'Text me a new link' });
      await button.waitFor();
      await page.getByText(/Questions\? Contact Tenant /).waitFor();
      const before = await deepContent(page);
      for (const secret of [loan.id, 'Ada', '₦', phone.slice(-4)]) expect(before).not.toContain(secret);
      await screenshot(page, '44-expired-new-link');
      expect(await axeViolations(page)).toEqual([]);

      await button.click();
      await page.getByText(`We've texted a new link to •••• ${phone.slice(-4)}. Open it to carry on.`).waitFor();
      await screenshot(page, '45-expired-link-sent');
      expect(await axeViolations(page)).toEqual([]);

      const text = (await inbox(phone)).find((body) => body.includes('new link'))!;
      const link = text.match(/http\S+\/checkout\/c\/cs_test_[0-9A-Za-z]{40}/)![0];
      await page.goto(appUrl(link));
      expect(new URL(page.url()).pathname).toBe('/checkout/');
      await heading(page, 'Confirm your phone number');
      await verifyPhone(page, phone);
      await heading(page, 'Review and sign your offer');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a made-up link, or one cut short, says it is not recognised: never "expired"', async () => {
    const { context, page } = await newPhonePage();
    try {
      for (const path of ['/checkout/c/cs_test_abc', `/checkout/c/cs_test_${'Q'.repeat(40)}`]) {
        await page.goto(`${app.url}${path}`);
        await heading(page, 'This checkout is not available');
        await page.getByText('We do not recognise this link. Check that you opened the whole link from the text message').waitFor();
        expect(await page.getByText(/expired/).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Text me a new link' }).count()).toBe(0);
      }
      await screenshot(page, '46-unknown-link');
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('the ended page comes from the on-demand steps file: when that file cannot load, the borrower gets "Try again", which loads it', async () => {
    const { context, page } = await newPhonePage();
    try {
      const requested: string[] = [];
      let failNext = true;
      await page.route('**/checkout/api/steps/*', async (route) => {
        requested.push(route.request().url());
        if (failNext) {
          failNext = false;
          return route.abort('connectionfailed');
        }
        return route.continue();
      });
      await page.goto(`${app.url}/checkout/c/cs_test_${'Z'.repeat(40)}`);
      await page.getByText('We cannot reach the lending service right now').waitFor();
      await heading(page, 'Something went wrong');
      await screenshot(page, '49-steps-file-failed');
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.getByText('We do not recognise this link.').waitFor();
      expect(requested).toHaveLength(2);
      expect(requested[0]).toMatch(/\/checkout\/api\/steps\/checkout-steps\.[0-9a-f]{10}\.js$/);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('"Waiting for the lender" moves on by itself when the lender issues the offer, and the borrower gets a text with the link', async () => {
    const phone = uniquePhone();
    const loan = await operatorLoan(app, lender, { kycTier: 'managed' }, { borrower: { firstName: 'Tunde', lastName: 'Bello', phone } });
    const { url } = await mintSession(app, lender.test, loan.id);
    const { context, page } = await newPhonePage({ fakeTimers: true });
    try {
      await page.goto(appUrl(url));
      await verifyPhone(page, phone);
      await heading(page, 'Confirm your identity');
      await page.getByLabel('BVN (Bank Verification Number)').fill('22222222222');
      await page.getByRole('button', { name: 'Verify my identity' }).click();
      await heading(page, 'Waiting for the lender');
      await page.getByText('This page updates by itself').waitFor();
      await screenshot(page, '47-waiting');
      expect(await axeViolations(page)).toEqual([]);

      const approved = await client(app, lender.test).post(`/v1/loans/${loan.id}/approve`, {});
      expect(approved.status).toBe(200);
      const polled = page.waitForResponse((res) => res.url().endsWith('/checkout/api/state'));
      await advanceBoth(page, 11_000);
      await polled;
      await heading(page, 'Review and sign your offer');
      await screenshot(page, '48-waiting-moved-on');
      let texts: string[] = [];
      for (let i = 0; i < 50 && !texts.some((body) => body.includes('offer is ready')); i++) {
        texts = await inbox(phone);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(texts.find((body) => body.includes('offer is ready'))).toContain(approved.body.data.applicationUrl);
    } finally {
      await context.close();
    }
  }, 60_000);
});
