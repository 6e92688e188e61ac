import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { formatDate, formatKobo } from '../../widget/format';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, nubanCheckDigit, sessionClient, tokenOf, uniquePhone } from '../support/checkout';
import { axeViolations, ensureBundles, launchChromium, PHONE_VIEWPORT, screenshot } from '../support/browser';
import { chooseBank } from '../support/bank-picker';

/**
 * The mandate step on a 360×640 phone in the machine's Chromium: refusing at the rail is never a
 * dead end (Try again, another bank account), the e-mail is asked up front and only once, the step
 * restates what will be debited, Back and Forward move between steps (and ask before leaving), and
 * a second tab follows the first. axe-core on every screen; screenshots in test-artifacts/checkout.
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

const nuban = (bank: string, serial: string) => `${serial}${nubanCheckDigit(bank, serial)}`;
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name }).waitFor();
const appUrl = (applicationUrl: string) => new URL(new URL(applicationUrl).pathname, app.url).href;

async function shot(page: Page, name: string) {
  await screenshot(page, `mandate-${name}`);
  expect(await axeViolations(page), name).toEqual([]);
}

/** An offered loan whose borrower has (through the session's API) verified the phone, and optionally signed and given an account. */
async function borrowerAt(step: 'otp' | 'bank' | 'mandate', options: { email?: null } = {}) {
  const phone = uniquePhone();
  const { loan } = await offeredLoan(app, lender, { phone });
  if (options.email === null) await app.platform.db.updateTable('borrowers').set({ email: null }).where('id', '=', loan.borrowerId).execute();
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

async function phonePage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
  return { context, page: await context.newPage() };
}

/** On the mandate step: tap the button, land on the rail's page, decide there, come back by its redirect. */
async function decideAtRail(page: Page, button: string, decision: 'Approve' | 'Refuse') {
  await page.getByRole('button', { name: button }).click();
  await page.waitForURL(/\/sandbox\/rails\//);
  await page.getByRole('button', { name: decision }).click();
  await page.waitForURL(/\/checkout\/\?return=mandate/);
}

const mandatesOf = (loanId: string) =>
  app.platform.db.selectFrom('loanMandates').select(['id', 'status', 'accountNumber', 'email']).where('loanId', '=', loanId).orderBy('createdAt').orderBy('id').execute();

describe('the mandate step', () => {
  it('refused at the rail: back on the checkout the borrower reads why, Try again sets up a fresh mandate, approving it finishes; the refused rail page links back', async () => {
    const { loan } = await borrowerAt('mandate');
    const { context, page } = await phonePage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await heading(page, 'Set up your repayments');
      await decideAtRail(page, 'Set up direct debit', 'Refuse');

      const declined = page.getByText('You declined the direct debit at your bank.');
      await declined.waitFor();
      const text = await page.locator('lc-checkout').innerText();
      expect(text).not.toContain('create a new one');
      expect(text).not.toContain('mandate is failed');
      await page.getByRole('button', { name: 'Use another bank account' }).waitFor();
      await page.getByText(/Rather not use a direct debit\? Talk to .+\./).waitFor();
      await shot(page, '10-declined');

      // The rail's page of the refused authorisation, opened again, leads back here (no dead end).
      const refused = await mandatesOf(loan.id);
      const { authorizationUrl } = await app.platform.db.selectFrom('loanMandates').select('authorizationUrl').where('id', '=', refused[0]!.id).executeTakeFirstOrThrow();
      await page.goto(authorizationUrl!);
      await heading(page, 'Direct debit refused');
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, 'mandate-11-rail-refused');
      await page.getByRole('link', { name: 'Back to the checkout' }).click();
      await declined.waitFor();

      // A reload keeps the explanation (from the server's state), and Try again is a fresh mandate.
      await page.reload();
      await declined.waitFor();
      await decideAtRail(page, 'Try again', 'Approve');
      await page.getByText('Confirming your direct debit').waitFor();
      clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1_000);
      await heading(page, "You're all set");
      await shot(page, '12-done-after-retry');
      const rows = await mandatesOf(loan.id);
      expect(rows.map((m) => m.status)).toEqual(['failed', 'active']);
      const done = await app.platform.db.selectFrom('loans').select(['hasActiveMandate', 'activeMandateId']).where('id', '=', loan.id).executeTakeFirstOrThrow();
      expect(Boolean(done.hasActiveMandate)).toBe(true);
      expect(done.activeMandateId).toBe(rows[1]!.id);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('"Use another bank account" after a refusal: the bank step again, the new account on the mandate step and at the rail', async () => {
    const { loan } = await borrowerAt('mandate');
    const { context, page } = await phonePage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await heading(page, 'Set up your repayments');
      await decideAtRail(page, 'Set up direct debit', 'Refuse');
      await page.getByRole('button', { name: 'Use another bank account' }).click();

      await heading(page, 'Your bank account');
      await page.getByText(/Repayments come from .+ ••••\d{4}/).waitFor();
      await shot(page, '20-change-bank');
      const other = nuban('058', '200001234');
      await chooseBank(page, 'Guaranty Trust Bank', { typed: 'gtb' });
      await page.getByLabel('Account number').fill(other);
      await page.getByText('Account name:').waitFor();
      await page.getByRole('button', { name: 'This is my account' }).click();

      await heading(page, 'Set up your repayments');
      await page.getByText(`••••${other.slice(-4)}`).waitFor();
      // The refusal was on the old account: the step starts afresh on the new one.
      await page.getByText('You declined the direct debit at your bank.').waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Set up direct debit' }).waitFor();
      await shot(page, '21-new-account');
      await page.getByRole('button', { name: 'Set up direct debit' }).click();
      await page.waitForURL(/\/sandbox\/rails\//);
      await page.getByText(`******${other.slice(-4)}`).or(page.getByText(new RegExp(`${other.slice(-4)}$`))).first().waitFor();
      const rows = await mandatesOf(loan.id);
      expect(rows.map((m) => [m.status, m.accountNumber])).toEqual([
        ['failed', nuban('057', '100000000')],
        ['initiated', other],
      ]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('asks for the e-mail up front when none is on record, restates the account, the amount and the dates, and after a reload does not ask again', async () => {
    const { loan, session } = await borrowerAt('mandate', { email: null });
    const state = (await session.get('/v1/checkout/session')).body.data;
    const schedule = state.offer.schedule as Array<{ dueDate: string; totalKobo: number }>;
    const { context, page } = await phonePage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await heading(page, 'Set up your repayments');
      // Up front: the field is there before any tap.
      const email = page.getByLabel('Your e-mail address');
      await email.waitFor();
      const summary = page.locator('lc-mandate').getByRole('region', { name: 'What will be debited' });
      const text = await summary.innerText();
      expect(text).toContain(`${state.bank.bankName} ••••${state.bank.accountNumberLast4}`);
      expect(text).toContain(formatKobo(schedule[0]!.totalKobo));
      expect(text).toContain(String(schedule.length));
      expect(text).toContain(formatDate(schedule[0]!.dueDate));
      expect(text).toContain(formatDate(schedule[schedule.length - 1]!.dueDate));
      await shot(page, '30-email-up-front');

      await page.getByRole('button', { name: 'Set up direct debit' }).click();
      await page.getByText('Enter an e-mail address like name@example.com.').waitFor();
      await email.fill('tunde.bello@example.com');
      await decideAtRail(page, 'Set up direct debit', 'Refuse');
      await page.getByText('You declined the direct debit at your bank.').waitFor();
      await page.reload();
      await page.getByText('You declined the direct debit at your bank.').waitFor();
      await page.getByRole('button', { name: 'Try again' }).waitFor();
      expect(await page.getByLabel('Your e-mail address').count()).toBe(0);
      expect((await session.get('/v1/checkout/session')).body.data.borrower.emailHint).toBe('t•••@example.com');
      await shot(page, '31-email-kept');
      await decideAtRail(page, 'Try again', 'Approve');
      const rows = await mandatesOf(loan.id);
      expect(rows.map((m) => m.email)).toEqual(['tunde.bello@example.com', 'tunde.bello@example.com']);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('history and tabs', () => {
  it('Back goes back a step (the signed offer read-only, the bank editable) and Forward returns; at the first step Back asks before leaving and Back again leaves; a reload on a reviewed step stays there', async () => {
    const { loan, phone } = await borrowerAt('otp');
    const { context, page } = await phonePage();
    try {
      await page.goto('about:blank');
      await page.goto(appUrl(loan.applicationUrl));
      await heading(page, 'Confirm your phone number');
      // Back at the first step asks, in the page; Back once more leaves; Forward returns to the question, Stay to the step.
      await page.goBack();
      await heading(page, 'Leave the checkout?');
      expect(page.url()).toContain('/checkout/');
      await page.getByText('Press Back again to leave.').waitFor();
      await shot(page, '40-leave-prompt');
      await page.goBack();
      await page.waitForURL('about:blank');
      await page.goForward();
      await heading(page, 'Leave the checkout?');
      await page.getByRole('button', { name: 'Stay' }).click();
      await heading(page, 'Confirm your phone number');
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H2');

      await page.getByRole('button', { name: 'Send code' }).click();
      // The inbox is read once the page shows the code was sent (the click returns before the send does).
      await page.getByLabel(/Code sent to/).waitFor();
      await page.getByLabel(/Code sent to/).fill(await latestOtp(app, phone));
      await heading(page, 'Review and sign your offer');
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByLabel('I have read the offer and agree to its terms.').check();
      await page.getByRole('button', { name: 'Sign and accept' }).click();
      await heading(page, 'Your bank account');

      await page.goBack();
      await heading(page, 'Review and sign your offer');
      await page.getByText('You have signed this offer; it cannot be changed.').waitFor();
      expect(await page.getByRole('button', { name: 'Sign and accept' }).count()).toBe(0);
      await shot(page, '41-offer-read-only');
      await page.goForward();
      await heading(page, 'Your bank account');

      await chooseBank(page, 'Access Bank');
      await page.getByLabel('Account number').fill(nuban('044', '100000000'));
      await page.getByText('Account name:').waitFor();
      await page.getByRole('button', { name: 'This is my account' }).click();
      await heading(page, 'Set up your repayments');

      await page.goBack();
      await heading(page, 'Your bank account');
      await page.getByRole('button', { name: 'Keep this account' }).waitFor();
      await shot(page, '42-bank-editable');
      await page.reload();
      await heading(page, 'Your bank account');
      await page.getByRole('button', { name: 'Keep this account' }).waitFor();
      await page.goForward();
      await heading(page, 'Set up your repayments');
      await page.getByRole('button', { name: 'Set up direct debit' }).waitFor();
    } finally {
      await context.close();
    }
  }, 120_000);

  it('a second tab follows the first: when one tab gives the bank account, the other moves to the mandate step without a reload', async () => {
    const { loan } = await borrowerAt('bank');
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    try {
      const first = await context.newPage();
      await first.goto(appUrl(loan.applicationUrl));
      await heading(first, 'Your bank account');
      const second = await context.newPage();
      await second.goto(`${app.url}/checkout/`);
      await heading(second, 'Your bank account');
      await second.evaluate(() => ((window as unknown as { lcSameDocument?: boolean }).lcSameDocument = true));

      await first.bringToFront();
      await chooseBank(first, 'Access Bank');
      await first.getByLabel('Account number').fill(nuban('044', '100000000'));
      await first.getByText('Account name:').waitFor();
      await first.getByRole('button', { name: 'This is my account' }).click();
      await heading(first, 'Set up your repayments');

      await heading(second, 'Set up your repayments');
      // The same document all along: no reload happened in the second tab.
      expect(await second.evaluate(() => (window as unknown as { lcSameDocument?: boolean }).lcSameDocument)).toBe(true);
      await shot(second, '50-second-tab-followed');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('the mandate step comes in its own file: fetched ahead on the bank step; when it cannot load, "Try again" loads it and the step works', async () => {
    const { loan } = await borrowerAt('bank');
    const { context, page } = await phonePage();
    try {
      const requested: string[] = [];
      await page.route('**/checkout/api/steps/checkout-mandate.*', async (route) => {
        requested.push(route.request().url());
        return route.continue();
      });
      await page.goto(appUrl(loan.applicationUrl));
      await heading(page, 'Your bank account');
      // Fetched while the borrower is still on the bank step.
      await expect.poll(() => requested.length, { timeout: 10_000 }).toBe(1);
      expect(requested[0]).toMatch(/\/checkout\/api\/steps\/checkout-mandate\.[0-9a-f]{10}\.js$/);
      await context.close();
    } catch (error) {
      await context.close();
      throw error;
    }

    // A fresh page whose first fetch of the file fails (a dropped connection): a way forward, then the step.
    const second = await phonePage();
    try {
      let failNext = true;
      await second.page.route('**/checkout/api/steps/checkout-mandate.*', async (route) => {
        if (failNext) {
          failNext = false;
          return route.abort('connectionfailed');
        }
        return route.continue();
      });
      const session = sessionClient(app, tokenOf(loan.applicationUrl));
      expect((await session.post('/v1/checkout/bank-account', { bankCode: '057', accountNumber: nuban('057', '100000000') })).status).toBe(200);
      await second.page.goto(appUrl(loan.applicationUrl));
      await heading(second.page, 'Set up your repayments');
      await second.page.getByText('We cannot reach the lending service right now').waitFor();
      await shot(second.page, '50-file-failed');
      await second.page.getByRole('button', { name: 'Try again' }).click();
      await second.page.getByRole('button', { name: 'Set up direct debit' }).waitFor();
      await shot(second.page, '51-file-loaded');
    } finally {
      await second.context.close();
    }
  }, 60_000);
});
