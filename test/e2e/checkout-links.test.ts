import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { loanReference } from '../../server/shared/loan-reference';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, nubanCheckDigit, sessionClient, tokenOf, uniquePhone } from '../support/checkout';
import { chooseBank } from '../support/bank-picker';
import { axeViolations, ensureBundles, launchChromium, PHONE_VIEWPORT, screenshot } from '../support/browser';

/**
 * Links a borrower's page shows must work whenever they are tapped, and a link that no longer works
 * lands on a page in the borrower's words, never the API's JSON. The offer letter's signed link lives
 * `OFFER_LETTER_LINK_TTL_SECONDS` (30 s here, on a fake clock); the page stays open past it.
 * 360×640, axe-core on every screen, screenshots in test-artifacts/checkout/.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let lender: LendingTenant;
let browser: Browser;
const TTL_SECONDS = 30;

beforeAll(async () => {
  await ensureBundles();
  app = await startTestApp({ clock, env: { OFFER_LETTER_LINK_TTL_SECONDS: String(TTL_SECONDS) } });
  lender = await lendingTenant(app);
  const branded = await client(app, lender.test).call('PATCH', '/v1/checkout-settings', {
    body: { displayName: 'Kobo Credit', brandColor: '#b45309', supportEmail: 'help@kobocredit.example', supportPhone: '0803 123 4567' },
  });
  expect(branded.status).toBe(200);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const appUrl = (applicationUrl: string) => new URL(new URL(applicationUrl).pathname, app.url).href;

async function shot(page: Page, name: string) {
  await screenshot(page, `links-${name}`);
  expect(await axeViolations(page), name).toEqual([]);
}

/** An offered loan whose borrower has verified the phone (through the session's API): the page opens on the offer. */
async function borrowerAtOffer() {
  const phone = uniquePhone();
  const { loan } = await offeredLoan(app, lender, { phone });
  const session = sessionClient(app, tokenOf(loan.applicationUrl));
  await session.post('/v1/checkout/otp/send');
  expect((await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) })).status).toBe(200);
  return { loan };
}

async function phonePage(locale = 'en-NG'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT, locale });
  return { context, page: await context.newPage() };
}

describe('the offer letter link', () => {
  it('read past the link\'s lifetime with the page open, the tap still opens the letter (a fresh link); the old link in a browser is a branded, translated page, JSON for API clients', async () => {
    const { loan } = await borrowerAtOffer();
    const { context, page } = await phonePage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      const letter = page.getByRole('link', { name: 'Read the full offer letter (PDF)' });
      const shown = (await letter.getAttribute('href'))!;
      expect(shown).toContain('/offer-letters/');

      // The borrower reads for longer than the link lives.
      clock.advance((TTL_SECONDS + 5) * 1000);
      const stale = await fetch(shown, { headers: { accept: 'application/json' } });
      expect(stale.status).toBe(403);
      expect(((await stale.json()) as { error: string }).error).toBe('LINK_INVALID');

      const opened: string[] = [];
      context.on('request', (request) => request.url().includes('/offer-letters/') && opened.push(request.url()));
      const [tab] = await Promise.all([context.waitForEvent('page'), letter.click()]);
      await expect.poll(() => opened.length, { timeout: 15_000 }).toBeGreaterThan(0);
      expect(opened[0]).not.toBe(shown);
      const pdf = await fetch(opened[0]!);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      await tab.close();

      // The old link opened in the browser: the lender's page, in words, with a way forward — not JSON.
      const old = await context.newPage();
      const landed = await old.goto(shown);
      expect(landed!.status()).toBe(403);
      expect(landed!.headers()['content-type']).toMatch(/^text\/html/);
      await old.getByRole('heading', { name: 'This link to your offer letter has expired' }).waitFor();
      const text = await old.locator('body').innerText();
      expect(text).not.toContain('LINK_INVALID');
      expect(text).toContain('Kobo Credit');
      expect(text).toContain('tap “Read the full offer letter (PDF)” again');
      await old.getByRole('link', { name: 'help@kobocredit.example' }).waitFor();
      await old.getByRole('link', { name: '+234 803 123 4567' }).waitFor();
      await shot(old, '01-letter-link-expired');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('an expired link in a Yorùbá browser is in Yorùbá; a link that was altered names no lender', async () => {
    const { loan } = await borrowerAtOffer();
    const state = await sessionClient(app, tokenOf(loan.applicationUrl)).get('/v1/checkout/session');
    const link = state.body.data.offer.offerLetter.url as string;
    clock.advance((TTL_SECONDS + 5) * 1000);
    const { context, page } = await phonePage('yo-NG');
    try {
      await page.goto(link);
      await page.getByRole('heading', { name: 'Ìjápọ̀ sí lẹ́tà àbá yín ti dópin' }).waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('yo');
      await page.getByText('Ka lẹ́tà àbá náà ní kíkún (PDF)', { exact: false }).waitFor();
      await shot(page, '02-letter-link-expired-yo');

      const altered = link.replace(/signature=[0-9a-f]{4}/, 'signature=0000');
      await page.goto(altered);
      await page.getByRole('heading', { name: 'Ìjápọ̀ sí lẹ́tà àbá yín kò ṣiṣẹ́' }).waitFor();
      expect(await page.locator('body').innerText()).not.toContain('Kobo Credit');
      await shot(page, '03-letter-link-altered-yo');
    } finally {
      await context.close();
    }
  }, 60_000);
});

/** A single-payment loan (30 days, monthly): pushed with its own conditions, then offered; the phone verified through the session's API. */
async function singlePaymentLoan(options: { email?: null } = {}) {
  const phone = uniquePhone();
  const api = client(app, lender.test);
  const body = pushBody({ phone });
  body.decision.decision.conditions = { interest_rate: 4.5, tenor_days: 30, repayment_frequency: 'monthly' };
  const pushed = await api.post('/v1/preapprovals', body);
  expect(pushed.status).toBe(202);
  const issued = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
  expect(issued.status).toBe(200);
  const loan = issued.body.data;
  if (options.email === null) await app.platform.db.updateTable('borrowers').set({ email: null }).where('id', '=', loan.borrowerId).execute();
  const session = sessionClient(app, tokenOf(loan.applicationUrl));
  await session.post('/v1/checkout/otp/send');
  expect((await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) })).status).toBe(200);
  return { loan, session };
}

describe('the borrower\'s screens say what is true', () => {
  it('a withdrawn link names the lender and its contact from the checkout settings', async () => {
    const { loan } = await offeredLoan(app, lender, { phone: uniquePhone() });
    const minted = await client(app, lender.test).post(`/v1/loans/${loan.id}/checkout-sessions`);
    expect((await client(app, lender.test).post(`/v1/checkout-sessions/${minted.body.data.id}/revoke`)).status).toBe(200);
    const { context, page } = await phonePage();
    try {
      await page.goto(appUrl(minted.body.data.url));
      await page.getByRole('heading', { name: 'This checkout is not available' }).waitFor();
      await page.getByText('Questions? Contact Kobo Credit.').waitFor();
      await page.getByRole('link', { name: 'help@kobocredit.example' }).waitFor();
      await shot(page, '10-revoked-names-lender');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a code past its five minutes says it has expired, never "valid for 5 minutes"', async () => {
    const { loan } = await offeredLoan(app, lender, { phone: uniquePhone() });
    const { context, page } = await phonePage();
    try {
      await page.clock.install();
      await page.goto(appUrl(loan.applicationUrl));
      await page.getByRole('button', { name: 'Send code' }).click();
      await page.getByText('6 digits. The code is valid for 5 minutes.').waitFor();
      await page.clock.fastForward('05:01');
      await page.getByText('This code has expired. Send a new code.').waitFor();
      expect(await page.getByText('valid for 5 minutes').count()).toBe(0);
      await page.getByRole('button', { name: 'Send a new code' }).waitFor();
      await shot(page, '11-code-expired');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a single-payment loan reads as one payment on a date; the mandate step marks the e-mail required; the done screen gives a short reference', async () => {
    const { loan } = await singlePaymentLoan({ email: null });
    const { context, page } = await phonePage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      const hero = page.locator('lc-offer .lc-hero');
      await expect.poll(() => hero.innerText()).toMatch(/One payment of ₦[\d,.]+\s+Due on \d{2} \w{3} \d{4}$/);
      expect(await hero.innerText()).not.toMatch(/once|First payment/);
      await shot(page, '12-single-payment-offer');
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByLabel('I have read the offer and agree to its terms.').check();
      await page.getByRole('button', { name: 'Sign and accept' }).click();

      await page.getByRole('heading', { name: 'Your bank account' }).waitFor();
      await chooseBank(page, 'Guaranty Trust Bank');
      await page.getByLabel('Account number').fill(`012345678${nubanCheckDigit('058', '012345678')}`);
      await page.getByText('Account name:').waitFor();
      await page.getByRole('button', { name: 'This is my account' }).click();
      await page.getByRole('heading', { name: 'Set up your repayments' }).waitFor();
      const email = page.getByLabel('Your e-mail address (required)');
      expect(await email.evaluate((input) => (input as HTMLInputElement).required)).toBe(true);
      await shot(page, '13-mandate-email-required');
      await email.fill('ada@example.com');
      await page.getByRole('button', { name: 'Set up direct debit' }).click();
      await page.waitForURL(/\/sandbox\/rails\//);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(/\/checkout\/\?return=mandate/);
      clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1_000);
      await page.getByRole('heading', { name: "You're all set" }).waitFor({ timeout: 30_000 });
      const receipt = await page.locator('.lc-receipt').innerText();
      expect(receipt).toContain(loanReference(loan.id));
      expect(receipt).not.toContain(loan.id);
      expect(loanReference(loan.id)).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
      await shot(page, '14-done-short-reference');
    } finally {
      await context.close();
    }
  }, 120_000);
});
