import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySdkWebhook } from '../../server/platform/domain/financing/sdk-webhooks';
import { WebhookDispatcher } from '../../server/workers/webhook-dispatcher';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { latestOtp } from '../support/checkout';
import { bvnEnding, fundFinancingPool, initiatedApplication } from '../support/financing';
import { startReceiver, type Receiver } from '../support/webhooks';
import { deepContent } from '../support/browser';
import { signOfferAndGiveBank } from '../support/checkout-steps';

/**
 * The hosted patient-financing application in the machine's Chromium against the real server, for each bureau
 * outcome: approved → tenor → signed → bank → mandate approved on the sandbox rail page → disbursed to the partner's
 * wallet; rejected (delinquent file); offer declined. The partner's loopback receiver verifies every webhook with the
 * organisation's secret key and the events arrive in the spec's order. Screenshots at 360×640 in test-artifacts/financing/.
 */
const ARTIFACTS = path.resolve('test-artifacts/financing');
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

let app: TestApp;
let partner: Tenant;
let browser: Browser;
let receiver: Receiver;
let dispatcher: WebhookDispatcher;

beforeAll(async () => {
  await build({ configFile: path.resolve('vite.config.ts'), logLevel: 'warn' });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  app = await startTestApp();
  partner = await createTenant(app, { loanTenant: false, preapprovedLending: false });
  receiver = await startReceiver();
  dispatcher = new WebhookDispatcher(app.platform);
  await client(app, partner.test).post('/api/v1/sdk/webhook-endpoints', { url: receiver.url('/financing') });
  await fundFinancingPool(app, 1_000_000_000);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.stop();
  await app?.stop();
});

const axe = async (page: Page) => (await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id);

/** The partner's view: every delivery for this application verified with its secret key, in emission order. */
async function partnerEvents(sdkReference: string): Promise<string[]> {
  await dispatcher.runOnce();
  return receiver.received
    .map((r) => ({ id: String(r.headers['x-service-event-id']), envelope: verifySdkWebhook(r.rawBody, r.headers, partner.test.secretKey) }))
    .filter((r) => r.envelope.data.sdkReference === sdkReference)
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((r) => r.envelope.event);
}

async function openAndVerify(page: Page, applicationUrl: string, phone: string) {
  await page.goto(new URL(new URL(applicationUrl).pathname, app.url).href);
  expect(new URL(page.url()).pathname).toBe('/checkout/');
  await page.getByRole('heading', { name: 'Confirm your phone number' }).waitFor();
  await page.getByRole('button', { name: 'Send code' }).click();
  const input = page.getByLabel(/Code sent to/);
  await input.waitFor();
  await input.fill(await latestOtp(app, phone));
  await page.getByRole('heading', { name: 'Confirm your identity' }).waitFor();
}

async function fillIdentity(page: Page, bvn: string) {
  await page.getByLabel('Full name (as on your BVN)').fill('Ada Obi');
  await page.getByLabel('BVN (Bank Verification Number)').fill(bvn);
  await page.getByLabel('Date of birth').fill('1990-04-01');
  await page.getByLabel('Monthly income (₦)').fill('200,000');
  await page.getByLabel('E-mail (optional)').fill('ada@example.com');
  await page.getByRole('button', { name: 'Check my eligibility' }).click();
}

describe('the hosted patient-financing application in a browser', () => {
  it('approved: identity → tenor → offer signed → bank → mandate on the rail page → done, disbursed to the partner, events in order', async () => {
    const { initiation, phone } = await initiatedApplication(app, partner);
    const context = await browser.newContext({ viewport: { width: 360, height: 640 }, userAgent: 'Mozilla/5.0 (Linux; Android 14) E2E' });
    const page = await context.newPage();
    try {
      await openAndVerify(page, initiation.applicationUrl, phone);
      expect(await page.getByText('Step 2 of 6').count()).toBe(1);
      await page.screenshot({ path: path.join(ARTIFACTS, '01-identity.png'), fullPage: true });
      expect(await axe(page)).toEqual([]);
      // A BVN of the wrong length is caught before anything is sent.
      await page.getByLabel('BVN (Bank Verification Number)').fill('1234');
      await page.getByRole('button', { name: 'Check my eligibility' }).click();
      await page.getByText('Your BVN is exactly 11 digits.').waitFor();
      await fillIdentity(page, bvnEnding('0'));

      await page.getByRole('heading', { name: 'Choose your repayment plan' }).waitFor();
      expect(await page.getByRole('radio').count()).toBe(2);
      await page.screenshot({ path: path.join(ARTIFACTS, '02-decision.png'), fullPage: true });
      expect(await axe(page)).toEqual([]);
      await page.getByRole('radio', { name: /6 months/ }).check();
      await page.getByRole('button', { name: 'See my offer' }).click();

      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      expect(await page.getByText('Total to repay').count()).toBe(1);
      await signOfferAndGiveBank(page);
      await page.getByRole('button', { name: 'Set up direct debit' }).click();
      await page.waitForURL(/\/sandbox\/rails\//);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(/\/checkout\/\?return=mandate/);
      await page.getByRole('heading', { name: "You're all set" }).waitFor({ timeout: 30_000 });
      expect(await page.getByText(/will be notified/).count()).toBe(1);
      await page.screenshot({ path: path.join(ARTIFACTS, '03-done.png'), fullPage: true });
      expect(await axe(page)).toEqual([]);

      const loan = await app.platform.db.selectFrom('loans').selectAll().where('id', '=', initiation.sdkReference).executeTakeFirstOrThrow();
      expect(loan).toMatchObject({ status: 'active', disbursedAmountKobo: 15_000_000, tenorDays: 180 });
      const events = await partnerEvents(initiation.sdkReference);
      expect(events.filter((e) => e !== 'mandate.active')).toEqual([
        'loan.initiated', 'loan.application.submitted', 'loan.approved', 'loan.offer.accepted', 'loan.disbursed',
      ]);
      expect(await deepContent(page)).not.toMatch(/sk_(test|live)_/);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('rejected: a delinquent bureau file ends on a clear page and the partner gets loan.rejected', async () => {
    const { initiation, phone } = await initiatedApplication(app, partner);
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    try {
      await openAndVerify(page, initiation.applicationUrl, phone);
      await fillIdentity(page, bvnEnding('9'));
      await page.getByRole('heading', { name: "We can't offer you financing" }).waitFor();
      expect(await page.getByText('Your credit history does not meet our lending criteria').count()).toBe(1);
      await page.screenshot({ path: path.join(ARTIFACTS, '04-rejected.png'), fullPage: true });
      expect(await axe(page)).toEqual([]);
      expect(await partnerEvents(initiation.sdkReference)).toEqual(['loan.initiated', 'loan.application.submitted', 'loan.rejected']);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('offer declined: the patient declines, a clear page, and the partner gets loan.offer.rejected', async () => {
    const { initiation, phone } = await initiatedApplication(app, partner);
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    try {
      await openAndVerify(page, initiation.applicationUrl, phone);
      await fillIdentity(page, bvnEnding('3'));
      await page.getByRole('heading', { name: 'Choose your repayment plan' }).waitFor();
      await page.getByRole('button', { name: 'See my offer' }).click();
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      await page.getByRole('button', { name: 'Decline' }).click();
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByLabel(/Why are you declining/).fill('I will pay at the clinic.');
      await page.getByRole('button', { name: 'Decline the offer' }).click();
      await page.getByRole('heading', { name: 'Offer declined' }).waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, '05-declined.png'), fullPage: true });
      expect(await partnerEvents(initiation.sdkReference)).toEqual(['loan.initiated', 'loan.application.submitted', 'loan.approved', 'loan.offer.rejected']);
    } finally {
      await context.close();
    }
  }, 90_000);
});
