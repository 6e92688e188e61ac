import http from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';
import { latestOtp, nubanCheckDigit, uniquePhone } from '../support/checkout';
import { axeViolations, deepText, ensureBundles, launchChromium, PHONE_VIEWPORT, screenshot } from '../support/browser';
import { chooseBank } from '../support/bank-picker';
import { loanReference } from '../../server/shared/loan-reference';

/**
 * A checkout page people trust, in the machine's Chromium at 360×640: the lender's
 * branding from its checkout settings (a logo served from a loopback server, the brand colour, the
 * footer's privacy, terms and support links), the TEST MODE badge, a header that leaves the step
 * the room, the offer's headline (the repayment per instalment) and its monthly rate, labels on one
 * line, and the receipt on the done screen; axe-core on every screen and a screenshot of each.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let lender: LendingTenant;
let browser: Browser;
let logo: { server: http.Server; url: string; requests: number };

// A 120×32 wordmark: a green square and the name.
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32" viewBox="0 0 120 32"><rect width="32" height="32" rx="8" fill="#0b6e4f"/><path d="M10 9v14M10 16l9-7M13 14l7 9" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round"/><text x="40" y="22" font-family="Arial" font-size="16" font-weight="700" fill="#111827">Kudi</text></svg>`;

const BRANDING = {
  displayName: 'Kudi Loans',
  brandColor: '#0b6e4f',
  supportEmail: 'help@kudi.example',
  supportPhone: '0700 123 4567',
  privacyUrl: 'https://kudi.example/privacy',
  termsUrl: 'https://kudi.example/terms',
};

beforeAll(async () => {
  await ensureBundles();
  app = await startTestApp({ clock });
  // A monthly-quoting product at 3.5% a month (42% a year).
  lender = await lendingTenant(app, { product: { rateDisplay: 'monthly', interestRateBps: 4200, lateFeeBps: 500 } });
  const server = http.createServer((req, res) => {
    logo.requests += 1;
    res.writeHead(req.url === '/logo.svg' ? 200 : 404, { 'content-type': 'image/svg+xml' }).end(req.url === '/logo.svg' ? LOGO_SVG : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  logo = { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/logo.svg`, requests: 0 };
  const set = await client(app, lender.test).call('PATCH', '/v1/checkout-settings', { body: { ...BRANDING, logoUrl: logo.url } });
  expect(set.status).toBe(200);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  logo?.server.closeAllConnections();
  await new Promise<void>((resolve) => logo?.server.close(() => resolve()) ?? resolve());
  await app?.stop();
});

/** An offer of ₦150,000 over 90 days, repaid monthly, at the product's rate. */
async function offeredLoan(phone: string) {
  const api = client(app, lender.test);
  const body = pushBody({ phone, amount: 150000 });
  body.decision.decision.conditions = { interest_rate: 42, tenor_days: 90, repayment_frequency: 'monthly' };
  const pushed = await api.post('/v1/preapprovals', body);
  expect(pushed.status).toBe(202);
  const issued = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
  expect(issued.status).toBe(200);
  return issued.body.data as { id: string; applicationUrl: string; principalKobo: number };
}

const heading = (page: Page, name: string) => page.getByRole('heading', { name }).waitFor();

/** A new lender with these checkout settings, an offer pushed and issued, and its checkout open at 360×640 on the code step. */
async function openCheckoutOf(settings: Record<string, unknown>) {
  const tenant = await lendingTenant(app);
  expect((await client(app, tenant.test).call('PATCH', '/v1/checkout-settings', { body: settings })).status).toBe(200);
  const api = client(app, tenant.test);
  const pushed = await api.post('/v1/preapprovals', pushBody({ phone: uniquePhone() }));
  const issued = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
  expect(issued.status).toBe(200);
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
  const page = await context.newPage();
  await page.goto(new URL(new URL(issued.body.data.applicationUrl).pathname, app.url).href);
  await heading(page, 'Confirm your phone number');
  return { context, page };
}

/** The text of every element matching `selector` inside the offer's shadow root that sets on more than one line. */
async function wrappedIn(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const root = document.querySelector('lc-offer')!.shadowRoot!;
    const lines = (el: Element) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.bottom))).size;
    };
    return [...root.querySelectorAll(sel)].filter((el) => lines(el) > 1).map((el) => el.textContent!.trim());
  }, selector);
}

describe('a branded, trustworthy checkout', () => {
  it('shows the lender\'s logo, the test badge and the footer on every step; the offer leads with the monthly repayment and rate on single-line rows; the done screen is a receipt', async () => {
    const phone = uniquePhone();
    const loan = await offeredLoan(phone);
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const page = await context.newPage();
    const shot = async (name: string) => {
      await screenshot(page, name);
      expect(await axeViolations(page), name).toEqual([]);
    };
    try {
      await page.goto(new URL(new URL(loan.applicationUrl).pathname, app.url).href);
      await heading(page, 'Confirm your phone number');

      // The header: a thin TEST MODE strip, then one compact row: the logo (loaded from the lender's server, its alt text the display name) and the language.
      const img = page.locator('lc-checkout header img');
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(120);
      expect(await img.getAttribute('alt')).toBe('Kudi Loans');
      expect(logo.requests).toBeGreaterThan(0);
      expect(await page.locator('lc-checkout header').getByText('Test mode').isVisible()).toBe(true);
      expect(await page.getByLabel('Language').isVisible()).toBe(true);
      const header = await page.locator('lc-checkout header').boundingBox();
      // At most 15 % of the screen (the title, lender name and language select took about 40 % before).
      expect(header!.height).toBeLessThanOrEqual(PHONE_VIEWPORT.height * 0.15);
      // The step's heading starts in the top quarter of the screen (it was near 40 % down before).
      const h2 = await page.locator('lc-checkout h2').boundingBox();
      expect(h2!.y).toBeLessThan(PHONE_VIEWPORT.height / 4);
      // The page's title and (visually hidden) h1 name the task and the lender; a favicon is set.
      expect(await page.title()).toBe('Complete your loan · Kudi Loans');
      expect(await page.locator('link[rel=icon]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/);
      // The brand colour drives the primary button (the theme keeps its text AA).
      const button = page.getByRole('button', { name: 'Send code' });
      expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(11, 110, 79)');

      // The footer: secured by the platform, the lender's privacy notice, terms and support contact.
      const footer = page.locator('lc-checkout footer');
      expect(await footer.getByText(`Secured by ${app.platform.config.CHECKOUT_PLATFORM_NAME}`).count()).toBe(1);
      expect(await footer.getByRole('link', { name: 'Privacy' }).getAttribute('href')).toBe(BRANDING.privacyUrl);
      expect(await footer.getByRole('link', { name: 'Terms' }).getAttribute('href')).toBe(BRANDING.termsUrl);
      expect(await footer.getByRole('link', { name: 'help@kudi.example' }).getAttribute('href')).toBe('mailto:help@kudi.example');
      expect(await footer.getByRole('link', { name: '+234 700 123 4567' }).getAttribute('href')).toBe('tel:+2347001234567');
      await shot('design-01-otp');
      await page.locator('lc-checkout footer').scrollIntoViewIfNeeded();
      await shot('design-02-otp-footer');

      await page.getByRole('button', { name: 'Send code' }).click();
      const code = page.getByLabel(/Code sent to/);
      await code.waitFor();
      await code.fill(await latestOtp(app, phone));

      // The offer: the repayment per instalment is the headline, the rate a month (the product says so), the APR beside it.
      await heading(page, 'Review and sign your offer');
      const state = await (await page.request.get(`${app.url}/checkout/api/state`)).json();
      const instalment = state.data.offer.schedule[0].totalKobo as number;
      const naira = (kobo: number) => `₦${(kobo / 100).toLocaleString('en-NG', { minimumFractionDigits: kobo % 100 ? 2 : 0, maximumFractionDigits: 2 })}`;
      const offerText = await deepText(page, 'lc-offer');
      expect(offerText).toContain(`You repay ${naira(instalment)} a month for 3 months`);
      expect(offerText).toContain('Interest rate 3.5% a month');
      expect(offerText).toContain('Interest type Flat');
      expect(offerText).toMatch(/APR \d+(\.\d+)?% a year/);
      expect(offerText).toContain('Loan length 90 days');
      expect(offerText).not.toContain('Tenor');
      expect(await page.locator('lc-offer').evaluate((el) => el.shadowRoot!.querySelector('.lc-hero strong')!.textContent)).toBe(naira(instalment));
      await shot('design-03-offer');
      // No label or value of the key facts wraps at 360 px.
      expect(await wrappedIn(page, 'dl > dt, dl > dd')).toEqual([]);
      expect(await wrappedIn(page, '.lc-note'), 'the measure sees a paragraph that does wrap').toHaveLength(1);
      // In Pidgin too (longer words), then back to English.
      await page.getByLabel('Language').selectOption('pcm');
      await heading(page, 'Read and sign your offer');
      expect(await wrappedIn(page, 'dl > dt, dl > dd')).toEqual([]);
      await shot('design-03-offer-pcm');
      await page.getByLabel('Language').selectOption('en');
      await heading(page, 'Review and sign your offer');
      await page.locator('lc-offer').evaluate((el) => el.shadowRoot!.querySelector('form')!.scrollIntoView());
      await shot('design-04-offer-sign');
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByLabel('I have read the offer and agree to its terms.').check();
      await page.getByRole('button', { name: 'Sign and accept' }).click();

      await heading(page, 'Your bank account');
      await chooseBank(page, 'Access Bank');
      const accountNumber = `100000000${nubanCheckDigit('044', '100000000')}`;
      await page.getByLabel('Account number').fill(accountNumber);
      await page.getByText('Account name:').waitFor();
      await shot('design-05-bank');
      await page.getByRole('button', { name: 'This is my account' }).click();

      await heading(page, 'Set up your repayments');
      await shot('design-06-mandate');
      await page.getByRole('button', { name: 'Set up direct debit' }).click();
      await page.waitForURL(/\/sandbox\/rails\//);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(/\/checkout\/\?return=mandate/);
      await page.getByText('Confirming your direct debit').waitFor();
      clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1_000);

      // The receipt: amount, the account repayments come from (masked), the first debit, the reference, the text.
      await heading(page, "You're all set");
      const receipt = page.locator('lc-checkout dl.lc-receipt');
      const first = state.data.offer.schedule[0];
      const date = new Date(first.dueDate).toLocaleDateString('en-NG', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
      const formatted = (kobo: number) => `₦${(kobo / 100).toLocaleString('en-NG', { minimumFractionDigits: 2 })}`;
      await page.getByText('We have texted you a copy.').waitFor();
      const receiptText = (await receipt.innerText()).replace(/\s+/g, ' ');
      expect(receiptText).toContain(`Loan amount ${formatted(loan.principalKobo)}`);
      expect(receiptText).toContain(`Repaid from Access Bank ••••${accountNumber.slice(-4)}`);
      expect(receiptText).toContain(`First repayment ${formatted(first.totalKobo)} on ${date}`);
      // A short human reference, not the UUID.
      expect(receiptText).toContain(`Reference ${loanReference(loan.id)}`);
      expect(receiptText).not.toContain(loan.id);
      expect(receiptText).not.toContain(accountNumber);
      expect(await page.getByText('Your loan with Kudi Loans is confirmed.').count()).toBe(1);
      // The way back later: the borrower's own loan page, beside this checkout (test mode: it signs in to sandbox loans).
      const myLoan = page.getByRole('link', { name: 'See your loan any time, pay early or pay it off' });
      expect(new URL((await myLoan.getAttribute('href'))!).pathname).toBe('/checkout/my-loan/');
      expect(new URL((await myLoan.getAttribute('href'))!).search).toBe('?mode=test');
      // The page no longer says "Complete your loan".
      expect(await page.locator('h1').innerText()).toBe('Loan confirmed');
      expect(await page.title()).toBe('Loan confirmed · Kudi Loans');
      // The text really went out, once.
      const inbox = (await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.data.messages as Array<{ body: string }>;
      expect(inbox.filter((m) => m.body.startsWith('Kudi Loans: your loan'))).toHaveLength(1);
      await shot('design-07-done');
    } finally {
      await context.close();
    }
  }, 180_000);

  it('without branding: the organisation\'s name in the header, no footer links beyond "Secured by", and a logo that fails to load falls back to the name', async () => {
    const { context, page } = await openCheckoutOf({ logoUrl: `${logo.url.replace('logo.svg', 'missing.svg')}` });
    try {
      const name = page.locator('lc-checkout header .lc-name');
      await name.waitFor();
      expect((await name.innerText()).length).toBeGreaterThan(0);
      expect(await page.locator('lc-checkout header img').count()).toBe(0);
      expect(await page.locator('lc-checkout footer a').count()).toBe(0);
      expect(await page.locator('lc-checkout footer').innerText()).toContain('Secured by');
      await screenshot(page, 'design-08-unbranded');
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a long lender name is shown whole in the header at 360 px: on a row of its own, wrapped, never cut with an ellipsis; the step still starts in the top third', async () => {
    // The longest a display name may be is 80 characters; this one is 69.
    const displayName = 'Lagos University Teaching Hospital Staff Cooperative Patient Financing';
    const { context, page } = await openCheckoutOf({ displayName });
    try {
      const name = page.locator('lc-checkout header .lc-name');
      expect(await name.innerText()).toBe(displayName);
      // Nothing of it hidden: no overflow either way, and more than one line (it did not fit on one).
      const box = await name.evaluate((el) => ({ scrollHeight: el.scrollHeight, clientHeight: el.clientHeight, scrollWidth: el.scrollWidth, clientWidth: el.clientWidth, lineHeight: parseFloat(getComputedStyle(el).lineHeight) }));
      expect(box.scrollHeight).toBeLessThanOrEqual(box.clientHeight + 1);
      expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth + 1);
      expect(box.clientHeight).toBeGreaterThan(box.lineHeight * 1.5);
      // On a row of its own: as wide as the header row, the language below it.
      const bar = await page.locator("lc-checkout header .lc-bar").boundingBox();
      expect((await name.boundingBox())!.width).toBeGreaterThan(bar!.width * 0.8);
      // The language control below it, whole, on the right.
      const language = await page.getByLabel('Language').boundingBox();
      expect(language!.x + language!.width).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
      const h2 = await page.locator('lc-checkout h2').boundingBox();
      expect(h2!.y).toBeLessThan(PHONE_VIEWPORT.height / 3);
      expect(await page.title()).toBe(`Complete your loan · ${displayName}`);
      await screenshot(page, 'design-09-long-name');
      expect(await axeViolations(page)).toEqual([]);
      // In Yorùbá, after a reload (the choice is kept): the name still whole, the language control still on screen.
      const select = page.locator('lc-checkout .lc-language select');
      await select.selectOption('yo');
      await page.reload();
      await expect.poll(() => select.inputValue(), { timeout: 10_000 }).toBe('yo');
      expect(await name.innerText()).toBe(displayName);
      expect(await name.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      const yoLanguage = await select.boundingBox();
      expect(yoLanguage!.x + yoLanguage!.width).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
      await screenshot(page, 'design-09-long-name-yo');
    } finally {
      await context.close();
    }
  }, 60_000);
});
