import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/harness';
import { SECRET_KEY, startDemoApp } from '../support/demo';
import { nubanCheckDigit } from '../support/checkout';
import { axeViolationsWithFrames } from '../support/browser';
import { chooseBank } from '../support/bank-picker';

/**
 * The sales demo in the machine's Chromium at a laptop viewport, by clicks alone: push a decision,
 * complete the borrower's checkout in the phone frame with the code read from the inbox the page
 * shows, approve the mandate on the rail's page, disburse, record repayments until the loan is
 * completed, and watch the event feed. Screenshots go to test-artifacts/demo/. The widget and the
 * demo bundle are built once by the e2e project's global setup (test/support/build-bundles.ts).
 */
const ARTIFACTS = path.resolve('test-artifacts/demo');
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const LAPTOP = { width: 1366, height: 768 };

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  app = await startDemoApp({ RAIL_CONFIRMATION_LAG_MS: '300' });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
const feedEvents = (page: Page) => page.locator('demo-feed li.event').evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.event));
const caption = (page: Page, title: string) => page.getByRole('heading', { name: title }).waitFor({ timeout: 15_000 });

/** Opens the demo (through its local alias, which sends the browser to the public origin) and records everything the page receives. */
async function openDemo(): Promise<{ page: Page; received: string[]; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: LAPTOP });
  const page = await context.newPage();
  const received: string[] = [];
  page.on('response', async (res) => {
    const type = res.request().resourceType();
    if (type === 'fetch' || type === 'xhr' || type === 'document' || type === 'script') received.push(`${res.url()}\n${await res.text().catch(() => '')}`);
  });
  await page.goto(`${app.url}/demo`);
  expect(page.url()).toBe(`${app.platform.baseUrl}/demo`);
  await page.getByRole('radio', { name: /Delegated tier/ }).waitFor();
  return { page, received, close: () => context.close() };
}

/** The code the inbox panel shows, once the checkout says it was sent. */
async function codeFromInbox(page: Page): Promise<string> {
  const code = page.locator('demo-inbox .code').first();
  await code.waitFor({ timeout: 15_000 });
  return (await code.textContent())!.trim();
}

async function verifyPhone(page: Page, phone: FrameLocator): Promise<void> {
  await phone.getByRole('button', { name: 'Send code' }).click();
  const input = phone.getByLabel(/Code sent to/);
  await input.waitFor();
  await input.fill(await codeFromInbox(page));
}

async function signBankAndMandate(page: Page, phone: FrameLocator, name: string, prefix: string): Promise<void> {
  await phone.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
  await shot(page, `${prefix}-offer`);
  await phone.getByLabel('Your full name (your signature)').fill(name);
  await phone.getByLabel('I have read the offer and agree to its terms.').check();
  await phone.getByRole('button', { name: 'Sign and accept' }).click();
  await phone.getByRole('heading', { name: 'Your bank account' }).waitFor();
  await caption(page, 'Signed: now the bank account and the direct debit');

  await chooseBank(phone, 'Guaranty Trust Bank');
  const serial = '012345678';
  await phone.getByLabel('Account number').fill(`${serial}${nubanCheckDigit('058', serial)}`);
  await phone.getByText('Account name:').waitFor();
  await shot(page, `${prefix}-bank`);
  await phone.getByRole('button', { name: 'This is my account' }).click();
  await phone.getByRole('button', { name: 'Set up direct debit' }).click();
  // The rail's authorisation page opens inside the phone frame (same origin), then returns to the checkout.
  await phone.getByRole('button', { name: 'Approve' }).click();
  await phone.getByRole('heading', { name: "You're all set" }).waitFor({ timeout: 30_000 });
  await caption(page, 'Mandate active: ready to pay out');
  await shot(page, `${prefix}-mandate-active`);
}

async function disburseAndRepay(page: Page, prefix: string): Promise<void> {
  await page.getByRole('button', { name: /^Disburse ₦/ }).click();
  await caption(page, 'Disbursed: now the repayments');
  await shot(page, `${prefix}-disbursed`);
  for (let instalment = 1; instalment <= 3; instalment += 1) {
    await page.getByRole('button', { name: new RegExp(`^Record repayment · ₦[\\d,]+\\.\\d{2} \\(instalment ${instalment} of 3\\)$`) }).click();
    if (instalment < 3) await page.getByText(`${instalment} of 3`, { exact: true }).waitFor();
  }
  await caption(page, 'Fully repaid: the loan is completed');
  expect(await page.getByTestId('loan-status').textContent()).toBe('Completed');
  expect(await page.getByRole('button', { name: /Record repayment/ }).count()).toBe(0);
}

describe('sales demo in a browser', () => {
  it('delegated tier to completed by clicks alone: push → OTP from the inbox → sign → bank → mandate → disburse → repayments; the feed shows every event in order and nothing holds a secret key', async () => {
    const { page, received, close } = await openDemo();
    try {
      await shot(page, '01-start');
      expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);

      await page.getByRole('button', { name: 'Push pre-approval' }).click();
      await caption(page, 'The offer is on the borrower’s phone');
      const phone = page.frameLocator('iframe[title^="Borrower"]');
      await phone.getByRole('heading', { name: 'Confirm your phone number' }).waitFor();
      await page.locator('demo-feed li.event[data-event="loan.offer.issued"]').waitFor();
      await shot(page, '02-offer-sent');

      await verifyPhone(page, phone);
      await shot(page, '03-otp-verified');
      await signBankAndMandate(page, phone, 'Amaka Okafor', '04');
      await disburseAndRepay(page, '05');
      await page.locator('demo-feed li.event[data-event="loan.completed"]').waitFor();
      await shot(page, '06-completed');
      // With the borrower's phone framed in the page: axe must reach into the frame.
      expect(await axeViolationsWithFrames(page)).toEqual([]);

      expect(await feedEvents(page)).toEqual([
        'preapproval.received',
        'loan.kyc.attested',
        'loan.approved',
        'loan.offer.issued',
        'loan.offer.accepted',
        'mandate.active',
        'loan.disbursed',
        'loan.repayment.completed',
        'loan.repayment.completed',
        'loan.repayment.completed',
        'loan.completed',
      ]);
      const loan = await app.platform.db.selectFrom('loans').select(['status', 'outstandingKobo']).where('clientReference', 'like', 'demo-delegated-%').executeTakeFirstOrThrow();
      expect(loan).toEqual({ status: 'completed', outstandingKobo: 0 });

      // The page, its scripts (the demo bundle and the widget) and every answer it received: no secret key anywhere.
      expect(received.some((r) => r.includes('/demo/assets/demo.js'))).toBe(true);
      expect(received.some((r) => r.includes('/checkout/widget.js'))).toBe(true);
      expect([await page.content(), ...received].join('\n')).not.toMatch(SECRET_KEY);

      await page.getByRole('button', { name: 'New scenario' }).click();
      await page.getByRole('button', { name: 'Push pre-approval' }).waitFor();
    } finally {
      await close();
    }
  }, 120_000);

  it('managed tier: KYC in the phone, the lender approves with one click, the phone moves on to the offer', async () => {
    const { page, received, close } = await openDemo();
    try {
      await page.getByRole('radio', { name: /Managed tier/ }).check();
      await page.getByRole('button', { name: 'Book the application' }).click();
      await caption(page, 'The platform runs KYC');
      const phone = page.frameLocator('iframe[title^="Borrower"]');
      await verifyPhone(page, phone);
      await phone.getByRole('heading', { name: 'Confirm your identity' }).waitFor();
      const hint = (await page.locator('demo-app .caption').textContent())!.match(/e\.g\. (\d{11})/)![1]!;
      await phone.getByLabel('BVN (Bank Verification Number)').fill(hint);
      await phone.getByRole('button', { name: 'Verify my identity' }).click();
      await phone.getByRole('heading', { name: 'Waiting for the lender' }).waitFor();
      await caption(page, 'Identity verified: the lender’s turn');
      await shot(page, '10-managed-waiting-for-lender');
      await page.getByRole('button', { name: 'Approve as the lender' }).click();
      await phone.getByRole('heading', { name: 'Review and sign your offer' }).waitFor({ timeout: 15_000 });
      await page.locator('demo-feed li.event[data-event="loan.offer.issued"]').waitFor();
      expect(await feedEvents(page)).toEqual(['loan.approved', 'loan.offer.issued']);
      await shot(page, '11-managed-offer');
      expect([await page.content(), ...received].join('\n')).not.toMatch(SECRET_KEY);
    } finally {
      await close();
    }
  }, 90_000);

  it('AML hit and decline: no checkout on the phone; compliance rejects the hit with one click', async () => {
    const { page, close } = await openDemo();
    try {
      await page.getByRole('radio', { name: /AML hit/ }).check();
      await page.getByRole('button', { name: 'Push pre-approval' }).click();
      await caption(page, 'AML screen hit: held for review');
      await page.getByText('Nothing was sent to the borrower').waitFor();
      await page.getByText('No texts: this borrower is not contacted.').waitFor();
      expect(await page.locator('iframe').count()).toBe(0);
      await page.locator('demo-feed li.event[data-event="loan.kyc.attested"]').waitFor();
      await shot(page, '20-aml-hit');
      await page.getByRole('button', { name: 'Reject: confirmed match' }).click();
      await caption(page, 'Rejected by compliance');
      expect(await page.getByTestId('loan-status').textContent()).toBe('Rejected');

      await page.getByRole('button', { name: 'New scenario' }).click();
      await page.getByRole('radio', { name: /Decline/ }).check();
      await page.getByRole('button', { name: 'Push pre-approval' }).click();
      await caption(page, 'The credit engine said no');
      await page.locator('demo-feed li.event[data-event="preapproval.received"]').waitFor();
      expect(await feedEvents(page)).toEqual(['preapproval.received']);
      expect(await page.getByTestId('loan-status').textContent()).toBe('Declined');
      await shot(page, '21-decline');
      // A smaller laptop: everything still on one screen.
      await page.setViewportSize({ width: 1280, height: 720 });
      await shot(page, '22-decline-1280x720');
    } finally {
      await close();
    }
  }, 60_000);
});
