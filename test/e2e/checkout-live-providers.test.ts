import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { startTestApp, type TestApp } from '../support/harness';
import { offeredLoan, type LendingTenant } from '../support/lifecycle';
import { nubanCheckDigit, uniquePhone } from '../support/checkout';
import { chooseBank } from '../support/bank-picker';
import { axeViolations, ensureBundles, launchChromium, PHONE_VIEWPORT, screenshot } from '../support/browser';
import type { FakePaystack } from '../support/fakes/paystack-fake';
import type { FakeTermii } from '../support/fakes/termii-fake';
import { liveLendingTenant, startLiveProviders, type LiveProviders } from '../support/live-providers';

/**
 * A live borrower on a 360×640 phone, every outside call through a real adapter against a local fake:
 * the code texted by Termii, typed with spaces; the direct debit on Paystack's own page
 * (another origin), declined, tried again and approved; back on the hosted checkout by Paystack's
 * redirect, which carries only `?reference=` — the checkout reads the state back and finishes.
 */
const clock = new FakeClock(new Date());
const ACCOUNT = `012345678${nubanCheckDigit('058', '012345678')}`;
let app: TestApp;
let lender: LendingTenant;
let browser: Browser;
let providers: LiveProviders;
let paystack: FakePaystack;
let termii: FakeTermii;

beforeAll(async () => {
  await ensureBundles();
  providers = await startLiveProviders({ paystack: { accounts: { [`058:${ACCOUNT}`]: 'OBI ADA' } } });
  ({ paystack, termii } = providers);
  app = await startTestApp({ clock, env: providers.env });
  providers.connect(app);
  lender = await liveLendingTenant(app, clock.now());
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await providers?.close();
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name }).waitFor();
const appUrl = (applicationUrl: string) => new URL(new URL(applicationUrl).pathname, app.url).href;

async function shot(page: Page, name: string) {
  await screenshot(page, `live-${name}`);
  expect(await axeViolations(page), name).toEqual([]);
}

describe('a live checkout on a phone, through real provider adapters', () => {
  it('code by Termii (typed with a space) → sign → bank named by Paystack → Paystack page: decline, try again, approve → all set', async () => {
    const phone = uniquePhone();
    // A live offer: the pushed decision is screened by Dojah's AML (clear), then issued.
    const { loan } = await offeredLoan(app, { ...lender, test: lender.live }, { phone });
    expect(loan.status).toBe('awaiting_acceptance');
    expect(loan.applicationUrl).toMatch(/\/c\/cs_live_/);

    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const page = await context.newPage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await page.getByRole('button', { name: 'Send code' }).click();
      const input = page.getByLabel(/Code sent to/);
      await input.waitFor();
      const text = termii.messages.filter((m) => m.to === phone.replace(/^\+/, '')).at(-1)!.sms;
      const code = /#(\d{6})$/.exec(text)![1]!;
      // As a borrower copies it out of the text: with a space in the middle.
      await input.fill(`${code.slice(0, 3)} ${code.slice(3)}`);
      await page.getByRole('button', { name: 'Sign and accept' }).waitFor();
      await shot(page, '01-offer');
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByLabel('I have read the offer and agree to its terms.').check();
      await page.getByRole('button', { name: 'Sign and accept' }).click();
      await heading(page, 'Your bank account');
      // The account name comes from Paystack's /bank/resolve.
      await chooseBank(page, 'Guaranty Trust Bank', { typed: 'gtb' });
      await page.getByLabel('Account number').fill(ACCOUNT);
      await page.getByText('OBI ADA').waitFor();
      await shot(page, '02-bank-named-by-paystack');
      await page.getByRole('button', { name: 'This is my account' }).click();
      await heading(page, 'Set up your repayments');
      await shot(page, '03-mandate');

      await page.getByRole('button', { name: 'Set up direct debit' }).click();
      await page.waitForURL((url) => url.href.startsWith(paystack.url));
      await page.getByRole('button', { name: 'Decline' }).click();
      await page.waitForURL(/\/checkout\/\?return=mandate&loan=[0-9a-f-]+&reference=/);
      await page.getByText('You declined the direct debit at your bank.').waitFor();
      await shot(page, '04-declined');

      await page.getByRole('button', { name: 'Try again' }).click();
      await page.waitForURL((url) => url.href.startsWith(paystack.url));
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(/\/checkout\/\?return=mandate&loan=[0-9a-f-]+&reference=/);
      await heading(page, "You're all set");
      await shot(page, '05-done');
      const mandates = await app.platform.db.selectFrom('loanMandates').select(['status', 'mode']).where('loanId', '=', loan.id).orderBy('createdAt').orderBy('id').execute();
      expect(mandates).toEqual([{ status: 'failed', mode: 'live' }, { status: 'active', mode: 'live' }]);
      const db = app.platform.db;
      expect(Number((await db.selectFrom('sandboxRailAuthorisations').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(0);
    } finally {
      await context.close();
    }
  }, 120_000);
});
