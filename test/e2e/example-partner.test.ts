import { spawn, type ChildProcess } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDispatcher } from '../../server/workers/webhook-dispatcher';
import { startTestApp, type TestApp } from '../support/harness';
import type { Page } from 'playwright-core';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';
import { latestOtp, uniquePhone } from '../support/checkout';
import { signOfferAndGiveBank } from '../support/checkout-steps';
import { axeViolations, ensureBundles, launchChromium, PHONE_VIEWPORT, screenshot } from '../support/browser';
import { client } from '../support/harness';

/**
 * The example partner backend (`examples/partner-backend`, `npm run example`) as a partner's customer uses it, at
 * 360×640: the app runs as its own process with only the client package, against the platform (with its webhook
 * dispatcher); the borrower applies on the app's page, completes the checkout embedded there with the script tag,
 * and the app's page shows the loan's status and the webhooks it verified.
 */
let app: TestApp;
let tenant: LendingTenant;
let dispatcher: WebhookDispatcher;
let browser: Browser;
let example: ChildProcess | undefined;
let exampleUrl: string;
let output = '';

beforeAll(async () => {
  await ensureBundles();
  // The package is built into sdk/dist by the e2e global setup (the root's node_modules links @lending-platform/client there).
  app = await startTestApp();
  tenant = await lendingTenant(app);
  dispatcher = new WebhookDispatcher(app.platform);
  dispatcher.start();
  example = spawn(process.execPath, ['examples/partner-backend/server.mjs'], {
    env: { ...process.env, LENDING_BASE_URL: app.url, LENDING_PUBLIC_KEY: tenant.test.publicKey, LENDING_SECRET_KEY: tenant.test.secretKey, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  exampleUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the example did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /\(open (http:\/\/localhost:\d+)\)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    example!.stdout!.on('data', onData);
    example!.stderr!.on('data', onData);
    example!.on('exit', (code) => reject(new Error(`the example exited (${code}):\n${output}`)));
  });
  browser = await launchChromium();
}, 90_000);
afterAll(async () => {
  example?.kill('SIGTERM');
  await browser?.close();
  await dispatcher?.stop();
  await app?.stop();
});

/** Nothing on the page is wider than the phone: no sideways scrolling at 360px. */
const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

/** A new page at 360×640 that collects page errors and console errors. */
async function phonePage() {
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  return { context, page, problems };
}

/** Fills the app's form (the BVN stays the fresh one the form offers) and applies. */
async function apply(page: Page, who: { firstName?: string; lastName?: string; phone: string; amount?: string }) {
  await page.goto(exampleUrl);
  if (who.firstName) await page.getByLabel('First name').fill(who.firstName);
  if (who.lastName) await page.getByLabel('Last name').fill(who.lastName);
  await page.getByLabel('Phone number').fill(who.phone);
  await page.getByLabel('Amount (naira)').fill(who.amount ?? '150000');
  await page.getByRole('button', { name: 'Apply' }).click();
}

describe('the example partner backend', () => {
  it('at 360×640: apply, complete the embedded checkout, and see the loan and its verified webhooks on the partner page', async () => {
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    const consoleErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    try {
      await page.goto(exampleUrl);
      await screenshot(page, 'example-partner-apply');
      expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
      const phone = uniquePhone();
      await page.getByLabel('Phone number').fill(phone);
      await page.getByLabel('Amount (naira)').fill('₦150,000');
      await page.getByRole('button', { name: 'Apply' }).click();

      // The partner's loan page: the embedded checkout, the status, the webhooks so far.
      await page.getByRole('heading', { name: 'Your loan' }).waitFor();
      await expect.poll(() => page.locator('#status').textContent()).toBe('awaiting_acceptance');
      await page.getByRole('heading', { name: 'Confirm your phone number' }).waitFor();
      await expect.poll(() => page.locator('#events li').allTextContents(), { timeout: 15_000 }).toEqual(
        expect.arrayContaining(['preapproval.received (verified)', 'loan.offer.issued (verified)']),
      );
      await screenshot(page, 'example-partner-checkout');
      expect(await axeViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Send code' }).click();
      const code = page.getByLabel(/Code sent to/);
      await code.waitFor();
      await code.fill(await latestOtp(app, phone));
      // A reload keeps the page's checkout session: the verified phone holds, the borrower is back at the offer.
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      await page.reload();
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      expect(await page.getByRole('button', { name: 'Send code' }).count()).toBe(0);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
      await signOfferAndGiveBank(page);
      await page.getByRole('button', { name: 'Set up direct debit' }).click();
      await page.getByRole('link', { name: /Continue to your bank/ }).waitFor();
      await screenshot(page, 'example-partner-mandate');
      const [rail] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: /Continue to your bank/ }).click()]);
      await rail.waitForURL(/\/sandbox\/rails\//);
      await rail.getByRole('button', { name: 'Approve' }).click();
      await rail.getByRole('heading', { name: 'Back from your bank' }).waitFor();
      await page.getByRole('heading', { name: "You're all set" }).waitFor({ timeout: 45_000 });

      // The partner's page follows: the accepted offer, the live mandate, each delivery verified by the package.
      await expect.poll(() => page.locator('#status').textContent(), { timeout: 15_000 }).toBe('terms_accepted');
      await expect.poll(() => page.locator('#events li').allTextContents(), { timeout: 20_000 }).toEqual(
        expect.arrayContaining(['loan.offer.accepted (verified)', 'mandate.active (verified)']),
      );
      await screenshot(page, 'example-partner-done');
      expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
      expect(pageErrors).toEqual([]);
      expect(consoleErrors, consoleErrors.join("\n")).toEqual([]);

      // Back on the app's home page, the application is listed.
      await page.getByRole('link', { name: 'Example partner' }).click();
      await page.getByRole('link', { name: 'Ada Obi' }).waitFor();
      expect(await page.getByText('₦150,000').count()).toBe(1);
    } finally {
      await context.close();
    }
  }, 180_000);

  it('a second applicant is their own borrower: the code goes to the phone they gave, not to an earlier applicant\'s', async () => {
    const { context, page, problems } = await phonePage();
    try {
      const first = uniquePhone();
      await apply(page, { phone: first });
      await page.getByRole('heading', { name: 'Confirm your phone number' }).waitFor();
      const second = uniquePhone();
      await apply(page, { firstName: 'Bola', lastName: 'Ade', phone: second });
      await page.getByRole('heading', { name: 'Confirm your phone number' }).waitFor();
      await page.getByText(`phone ending ${second.slice(-4)}`).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a session that expires while the page is open is replaced: the borrower carries on instead of a dead end', async () => {
    const { context, page, problems } = await phonePage();
    try {
      const phone = uniquePhone();
      await apply(page, { phone });
      await page.getByRole('button', { name: 'Send code' }).waitFor();
      const loanId = new URL(page.url()).pathname.split('/').pop()!;
      // The borrower left the page idle past the session's lifetime.
      await app.platform.db.updateTable('checkoutSessions').set({ expiresAt: new Date(Date.now() - 60_000).toISOString() }).where('loanId', '=', loanId).execute();
      const renewed = page.waitForRequest((request) => request.url() === `${exampleUrl}/loans/${loanId}?renew`);
      // The page the app serves after the renewal (a new document at the loan's own address), not the one left behind.
      const reloaded = page.waitForResponse((response) => response.url() === `${exampleUrl}/loans/${loanId}` && response.request().resourceType() === 'document');
      await page.getByRole('button', { name: 'Send code' }).click();
      // The checkout says the session ended; the page asks the app for a new one and the step works again.
      await renewed;
      expect((await reloaded).status()).toBe(200);
      await page.waitForLoadState('load');
      try {
        // The renewed page is at the phone step: "Send code", or the code already in play for this phone (when the
        // first tap reached the renewed page) — either way the borrower carries on.
        const sendCode = page.getByRole('button', { name: 'Send code' });
        await sendCode.or(page.getByLabel(/Code sent to/)).first().waitFor({ timeout: 20_000 });
        if (await sendCode.isVisible()) await sendCode.click();
      } catch (error) {
        // What the borrower saw instead, so a failure says where the renewal stopped.
        const frames = await Promise.all(page.frames().map(async (frame) => `${frame.url()}: ${(await frame.locator('body').ariaSnapshot().catch(() => '')).slice(0, 600)}`));
        throw new Error(`${(error as Error).message}\n${page.url()}\n${frames.join('\n')}`);
      }
      await page.getByLabel(/Code sent to/).waitFor();
      expect(problems.filter((p) => !/401/.test(p))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('a loan with nothing left to check out shows its status (no error page); a refused application shows the error and its doc link, all within 360px', async () => {
    const { context, page, problems } = await phonePage();
    try {
      // Apply without following the app's redirect, so the loan is closed before its page is ever shown.
      const form = new URLSearchParams({ firstName: 'Chi', lastName: 'Eze', phone: uniquePhone(), email: '', bvn: '22233344455', amount: '150000' });
      const applied = await fetch(`${exampleUrl.replace('localhost', '127.0.0.1')}/apply`, { method: 'POST', body: form, redirect: 'manual' });
      expect(applied.status).toBe(303);
      const loanPath = applied.headers.get('location')!;
      const cancelled = await client(app, tenant.test).post(`/v1/loans/${loanPath.split('/').pop()}/cancel`, {});
      expect(cancelled.status).toBe(200);
      const response = await page.goto(`${exampleUrl}${loanPath}`);
      expect(response?.status()).toBe(200);
      await expect.poll(() => page.locator('#status').textContent()).toBe('cancelled');
      await page.getByText('Nothing is left to do in the checkout for this loan.').waitFor();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(360);

      // Far above the product's limits: the platform refuses; the page says why and links the code's entry.
      await apply(page, { phone: uniquePhone(), amount: '999999999' });
      await page.getByText(/outside_product_limits/).waitFor();
      const link = page.getByRole('link', { name: 'What this error means' });
      expect(await link.getAttribute('href')).toBe(`${app.url}/docs/errors#outside_product_limits`);
      expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
      await link.click();
      await page.locator('tr#outside_product_limits').waitFor();
      expect(await scrollWidth(page)).toBeLessThanOrEqual(360);
      // The only console errors: the app's own 502 answer for the refused application.
      expect(problems.filter((p) => !/502/.test(p))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('refuses a webhook whose signature does not verify (the delivery never counts)', async () => {
    const forged = await fetch(`${exampleUrl.replace('localhost', '127.0.0.1')}/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-timestamp': String(Math.floor(Date.now() / 1000)), 'x-service-signature': 'v1=00' },
      body: JSON.stringify({ id: 'evt_forged', event: 'loan.disbursed', data: {} }),
    });
    expect(forged.status).toBe(400);
  });
});
