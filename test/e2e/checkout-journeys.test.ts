import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { accountBalance, findAccount } from '../../server/platform/domain/ledger/ledger';
import { createProvider } from '../../server/platform/domain/providers/provider';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, nubanCheckDigit, tokenOf, uniquePhone } from '../support/checkout';
import { axeViolations, deepContent, ensureBundles, focused, launchChromium, PHONE_VIEWPORT, screenshot, WIDGET_BUNDLE } from '../support/browser';
import { chooseBank } from '../support/bank-picker';

/**
 * Whole journeys in the machine's Chromium against the real server, on a platform clock the test
 * moves (the sandbox rail confirms, and sessions expire, only when the clock says so): the
 * settlement catalog, reloads mid-flow and after the rail's redirect, an expired and a tampered
 * session, no secret key or BVN anywhere the browser can see, and axe-core on every step.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let lender: LendingTenant;
let browser: Browser;
const merchants = {} as Record<'alpha' | 'beta' | 'gamma', string>;

beforeAll(async () => {
  await ensureBundles();
  app = await startTestApp({ clock });
  lender = await lendingTenant(app, { product: { settlementDestination: 'merchant_wallet', settlementCatalogEnabled: true } });
  const tag = crypto.randomBytes(3).toString('hex');
  merchants.alpha = (await createProvider(app.platform.db, { code: `A-${tag}`, name: 'Alpha Labs', providerType: 'laboratory', city: 'Ikeja', state: 'Lagos' }, clock.now())).id;
  merchants.beta = (await createProvider(app.platform.db, { code: `B-${tag}`, name: 'Beta Pharmacy', providerType: 'pharmacy', address: '4 Wuse Close', city: 'Abuja', state: 'FCT' }, clock.now())).id;
  merchants.gamma = (await createProvider(app.platform.db, { code: `G-${tag}`, name: 'Gamma Lab & Pharmacy', providerType: 'laboratory_pharmacy', city: 'Kano', state: 'Kano' }, clock.now())).id;
  // Enough merchants for a second page.
  for (let i = 1; i <= 21; i++) {
    await createProvider(app.platform.db, { code: `Z${i}-${tag}`, name: `Zenith Diagnostics ${String(i).padStart(2, '0')}`, providerType: 'laboratory', city: 'Ibadan', state: 'Oyo' }, clock.now());
  }
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const heading = (page: Page, name: string) => page.getByRole('heading', { name }).waitFor();
const appUrl = (applicationUrl: string) => new URL(new URL(applicationUrl).pathname, app.url).href;

/** Every URL, request body and response body the page exchanged (the document, the widget, the JSON calls, the rail's page). */
function recordTraffic(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (req) => {
    seen.push(`${req.method()} ${req.url()}`, req.postData() ?? '');
  });
  page.on('response', async (res) => {
    seen.push(`${res.status()} ${res.url()}`, JSON.stringify(await res.allHeaders()));
    seen.push(await res.text().catch(() => ''));
  });
  return seen;
}

async function verifyPhone(page: Page, phone: string): Promise<void> {
  await page.getByRole('button', { name: 'Send code' }).click();
  const input = page.getByLabel(/Code sent to/);
  await input.waitFor();
  await input.fill(await latestOtp(app, phone));
}

async function newPhonePage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
  return { context, page: await context.newPage() };
}

describe('hosted checkout journeys', () => {
  it('catalog → offer → bank → mandate: the borrower picks the merchant, reloads resume every step, the rail return confirms, and the chosen merchant is paid; no secret key or BVN reaches the browser', async () => {
    const phone = uniquePhone();
    const bvn = String(crypto.randomInt(30_000_000_000, 99_999_999_999));
    const { loan } = await offeredLoan(app, lender, { phone, bvn });
    const { context, page } = await newPhonePage();
    const traffic = recordTraffic(page);
    const html: string[] = [];
    const step = async (name: string) => {
      html.push(await deepContent(page));
      await screenshot(page, name);
      expect(await axeViolations(page)).toEqual([]);
    };
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await heading(page, 'Confirm your phone number');
      expect(await page.getByText('Step 1 of 5').count()).toBe(1);
      await step('20-otp');
      await verifyPhone(page, phone);

      // Catalog: the whole directory a page at a time, searchable, chosen with the keyboard.
      await heading(page, 'Choose who receives the money');
      expect(await page.getByText('Step 2 of 5').count()).toBe(1);
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
      await page.getByText('24 merchants.').waitFor();
      expect(await page.getByRole('radio').count()).toBe(20);
      expect(await page.getByRole('button', { name: 'Pay this merchant' }).isDisabled()).toBe(true);
      await step('21-catalog');
      await page.getByRole('button', { name: 'Show more' }).click();
      await page.getByRole('radio', { name: /Zenith Diagnostics 21/ }).waitFor();
      expect(await page.getByRole('radio').count()).toBe(24);
      expect(await page.getByRole('button', { name: 'Show more' }).count()).toBe(0);

      const search = page.getByLabel('Search by name or area');
      await search.fill('nowhere at all');
      await page.getByText('No merchant matches “nowhere at all”').waitFor();
      expect(await page.getByRole('radio').count()).toBe(0);
      await step('22-catalog-empty');
      await search.fill('pharm');
      await page.getByText('2 merchants matching “pharm”.').waitFor();
      const beta = page.getByRole('radio', { name: /Beta Pharmacy/ });
      await beta.focus();
      await page.keyboard.press('ArrowDown');
      expect(await page.getByRole('radio', { name: /Gamma Lab & Pharmacy/ }).isChecked()).toBe(true);
      await page.keyboard.press('ArrowUp');
      expect(await beta.isChecked()).toBe(true);
      await step('23-catalog-chosen');
      await page.keyboard.press('Tab');
      expect((await focused(page)).text).toBe('Pay this merchant');
      await page.keyboard.press('Enter');

      // Offer: reloading resumes here, from server-side state.
      await heading(page, 'Review and sign your offer');
      const chosen = await app.platform.db.selectFrom('loans').select('settlementProviderId').where('id', '=', loan.id).executeTakeFirstOrThrow();
      expect(chosen.settlementProviderId).toBe(merchants.beta);
      await page.reload();
      await heading(page, 'Review and sign your offer');
      expect(await page.getByText('Step 3 of 5').count()).toBe(1);
      await step('24-offer');
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByLabel('I have read the offer and agree to its terms.').check();
      await page.getByRole('button', { name: 'Sign and accept' }).click();

      // Bank: reloading resumes here too.
      await heading(page, 'Your bank account');
      await page.reload();
      await heading(page, 'Your bank account');
      expect(await page.getByText('Step 4 of 5').count()).toBe(1);
      await chooseBank(page, 'Access Bank', { typed: 'access' });
      await page.getByLabel('Account number').fill(`100000000${nubanCheckDigit('044', '100000000')}`);
      await page.getByText('Account name:').waitFor();
      await step('25-bank');
      await page.getByRole('button', { name: 'This is my account' }).click();

      // Mandate: to the rail's page by redirect, approve, back to "confirming" (the rail confirms only when the clock has moved on).
      await heading(page, 'Set up your repayments');
      expect(await page.getByText('Step 5 of 5').count()).toBe(1);
      await step('26-mandate');
      await page.getByRole('button', { name: 'Set up direct debit' }).click();
      await page.waitForURL(/\/sandbox\/rails\//);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(/\/checkout\/\?return=mandate/);
      const confirming = page.getByText('Confirming your direct debit');
      await confirming.waitFor();
      await step('27-mandate-confirming');
      // Reloaded after the rail's redirect, or opened again later without the return marker: still confirming, not a second mandate.
      await page.reload();
      await confirming.waitFor();
      await page.goto(`${app.url}/checkout/`);
      await confirming.waitFor();
      expect(await app.platform.db.selectFrom('loanMandates').select('id').where('loanId', '=', loan.id).execute()).toHaveLength(1);

      clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1_000);
      await heading(page, "You're all set");
      await step('28-done');
      const done = await app.platform.db.selectFrom('loans').select(['status', 'hasActiveMandate']).where('id', '=', loan.id).executeTakeFirstOrThrow();
      expect(done.status).toBe('terms_accepted');
      expect(Boolean(done.hasActiveMandate)).toBe(true);

      // Nothing the browser saw, nor the widget bundle, holds a secret key or the BVN the partner pushed.
      const bundle = fs.readFileSync(WIDGET_BUNDLE, 'utf8');
      expect(traffic.some((t) => /\/checkout\/assets\/checkout\.[0-9a-f]{10}\.js/.test(t))).toBe(true);
      expect(traffic.some((t) => t.includes('/checkout/api/merchant'))).toBe(true);
      for (const [what, text] of [['page HTML', html.join('\n')], ['network traffic', traffic.join('\n')], ['widget bundle', bundle]] as const) {
        expect(text, what).not.toMatch(/sk_(test|live)_/);
        expect(text, what).not.toContain(lender.test.secretKey);
        expect(text, what).not.toContain(lender.live.secretKey);
        expect(text, what).not.toContain(bvn);
      }
    } finally {
      await context.close();
    }

    // The partner disburses: the merchant the borrower chose is the one paid.
    expect((await client(app, lender.test).post(`/v1/loans/${loan.id}/disburse`)).status).toBe(200);
    const wallet = await findAccount(app.platform.db, { organisationId: lender.organisationId, mode: 'test', kind: 'merchant_wallet', code: merchants.beta });
    expect(-(await accountBalance(app.platform.db, wallet!.id))).toBe(loan.principalKobo);
  }, 180_000);

  it('catalog: a network failure while listing shows the error with a retry that recovers', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const { context, page } = await newPhonePage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      // The browser loses the network for the merchant list once.
      let failures = 0;
      await page.route('**/checkout/api/merchants*', (route) => (failures++ === 0 ? route.abort('internetdisconnected') : route.continue()));
      await verifyPhone(page, phone);
      await heading(page, 'Choose who receives the money');
      await page.getByRole('alert').filter({ hasText: 'We could not reach the server' }).waitFor();
      await screenshot(page, '21-catalog-error');
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Try again' }).click();
      await page.getByText('24 merchants.').waitFor();
      expect(failures).toBe(2);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('an expired session mid-flow shows the expired state at once, and nothing of the loan stays on the page; a reload shows the same', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const { context, page } = await newPhonePage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await verifyPhone(page, phone);
      await page.getByRole('radio', { name: /Alpha Labs/ }).check();
      await page.getByRole('button', { name: 'Pay this merchant' }).click();
      await heading(page, 'Review and sign your offer');
      expect(await page.getByText('Total to repay').count()).toBe(1);
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByLabel('I have read the offer and agree to its terms.').check();

      // The session's 30 minutes pass on the platform's clock while the offer is open.
      clock.advance((app.platform.config.CHECKOUT_SESSION_TTL_MINUTES + 1) * 60_000);
      await page.getByRole('button', { name: 'Sign and accept' }).click();
      await heading(page, 'This checkout is not available');
      await page.getByText('This link has expired: links stop working after a while, to keep your loan safe.').waitFor();
      // A way forward: a new link by text (to the phone on record), and the lender's contact.
      await page.getByRole('button', { name: 'Text me a new link' }).waitFor();
      await page.getByText(/Questions\? Contact /).waitFor();
      // Focus follows the flow to the ended page's heading.
      expect((await focused(page)).tagName).toBe('H2');
      const noLoanData = async () => {
        const content = await deepContent(page);
        for (const secret of [loan.id, loan.documentReference, 'Ada', 'Obi', '₦', 'Total to repay', 'Alpha Labs', phone.slice(-4)]) expect(content).not.toContain(secret);
      };
      await noLoanData();
      await screenshot(page, '29-expired');
      expect(await axeViolations(page)).toEqual([]);
      expect((await app.platform.db.selectFrom('loans').select('status').where('id', '=', loan.id).executeTakeFirstOrThrow()).status).toBe('awaiting_acceptance');

      const reloaded = await page.reload();
      expect(reloaded?.status()).toBe(401);
      await heading(page, 'This checkout is not available');
      await page.getByText('This link has expired').waitFor();
      await noLoanData();
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('a tampered token (one character changed), in the link or in the cookie mid-flow, shows the unavailable state and nothing of the loan', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const token = tokenOf(loan.applicationUrl);
    const tampered = `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`;
    const { context, page } = await newPhonePage();
    try {
      await page.goto(`${app.url}/checkout/c/${tampered}`);
      await heading(page, 'This checkout is not available');
      const content = await deepContent(page);
      for (const secret of [loan.id, loan.documentReference, 'Ada', '₦', phone.slice(-4)]) expect(content).not.toContain(secret);
      await screenshot(page, '30-tampered');
      expect(await axeViolations(page)).toEqual([]);

      // The real link, then the cookie tampered with mid-flow: the next call ends the checkout on screen.
      await page.goto(appUrl(loan.applicationUrl));
      await verifyPhone(page, phone);
      await heading(page, 'Choose who receives the money');
      const [cookie] = await context.cookies();
      expect(cookie?.httpOnly).toBe(true);
      await context.addCookies([{ ...cookie!, value: tampered }]);
      await page.getByRole('radio', { name: /Alpha Labs/ }).check();
      await page.getByRole('button', { name: 'Pay this merchant' }).click();
      await heading(page, 'This checkout is not available');
      const after = await deepContent(page);
      for (const secret of [loan.id, 'Alpha Labs', 'Ada', phone.slice(-4)]) expect(after).not.toContain(secret);
      expect((await app.platform.db.selectFrom('loans').select('settlementProviderId').where('id', '=', loan.id).executeTakeFirstOrThrow()).settlementProviderId).toBeNull();
    } finally {
      await context.close();
    }
  }, 60_000);
});
