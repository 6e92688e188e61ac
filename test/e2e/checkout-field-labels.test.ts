import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type Tenant } from '../support/harness';
import { lendingTenant, offeredLoan } from '../support/lifecycle';
import { latestOtp, nubanCheckDigit, sessionClient, tokenOf, uniquePhone } from '../support/checkout';
import { ARTIFACTS, axeViolations, ensureBundles, launchChromium } from '../support/browser';

/**
 * Every refusal the checkout shows the borrower is the checkout's own text naming the field as the borrower sees
 * it: at 360×640, the phone code, the signature and the copy's e-mail are sent values the server refuses (a wrong
 * code, a name that is not the borrower's, an address Chromium takes and the server does not); no message shown matches a code name, a `body.`/`query.` path or a snake_case code, and each
 * sits under its field (the input is aria-invalid and described by it); axe clean. Screenshots in
 * test-artifacts/checkout/field-labels-*.png.
 */
const CODE_NAME = /\b[a-z]+[A-Z][a-zA-Z]*\b/;
const SNAKE_CODE = /\b[a-z]+_[a-z_]+\b/;

let app: TestApp;
let tenant: Tenant;
let browser: Browser;
beforeAll(async () => {
  await ensureBundles();
  app = await startTestApp();
  tenant = await lendingTenant(app);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** The error texts shown (through any shadow root) and, for the one about `controlId`, where it sits. */
async function expectErrorUnder(page: Page, controlId: string): Promise<void> {
  await expect.poll(() => page.locator(`#${controlId}[aria-invalid="true"]`).count(), { timeout: 10_000 }).toBe(1);
  const shown = await page.evaluate((id) => {
    const all = (from: Document | Element | ShadowRoot, selector: string): HTMLElement[] => {
      const found = [...from.querySelectorAll<HTMLElement>(selector)];
      for (const el of from.querySelectorAll('*')) if (el.shadowRoot) found.push(...all(el.shadowRoot, selector));
      return found;
    };
    const texts = all(document, '.lc-error, [role="alert"]').map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim()).filter(Boolean);
    const control = all(document, `#${id}`)[0]!;
    const described = (control.getAttribute('aria-describedby') ?? '').split(' ');
    const errors = all(document, '.lc-error').filter((e) => described.includes(e.id));
    const c = control.getBoundingClientRect();
    return {
      texts,
      under: errors.map((error) => {
        const e = error.getBoundingClientRect();
        return { text: (error.textContent ?? '').trim(), below: e.top >= c.bottom - 1 && e.top - c.bottom < 120 && e.left < c.right && e.right > c.left, visible: e.width > 0 && e.height > 0 };
      }),
    };
  }, controlId);
  expect(shown.texts.length).toBeGreaterThan(0);
  for (const text of shown.texts) {
    expect(text, text).not.toMatch(CODE_NAME);
    expect(text, text).not.toMatch(/\b(?:body|query)\./);
    expect(text, text).not.toMatch(SNAKE_CODE);
  }
  expect(shown.under.length, `an error described by #${controlId}`).toBeGreaterThan(0);
  for (const error of shown.under) expect(error, error.text).toMatchObject({ below: true, visible: true });
  expect(await axeViolations(page)).toEqual([]);
}

describe('every checkout message names the field as the borrower sees it', () => {
  it('the phone code, the signature and the copy’s e-mail refused by the server show the checkout’s own words under their fields (360×640)', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    try {
      await page.goto(new URL(new URL(loan.applicationUrl).pathname, app.url).href);
      await page.getByRole('heading', { name: 'Confirm your phone number' }).waitFor();
      await page.getByRole('button', { name: 'Send code' }).click();
      const input = page.getByLabel(/Code sent to/);
      await input.waitFor();
      const code = await latestOtp(app, phone);
      // A wrong code: the server refuses it.
      await input.fill(code === '000000' ? '111111' : '000000');
      await expectErrorUnder(page, 'lc-otp-code');
      await page.screenshot({ path: path.join(ARTIFACTS, 'field-labels-otp.png'), fullPage: true });
      await input.fill(code);
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();

      // A signature that is not the borrower's name: the server's name check refuses it.
      await page.getByLabel('Your full name (your signature)').fill('Zainab Musa-Kolawole');
      await page.getByLabel('I have read the offer and agree to its terms.').check();
      await page.getByRole('button', { name: 'Sign and accept' }).click();
      await expectErrorUnder(page, 'lc-offer-name');
      await page.screenshot({ path: path.join(ARTIFACTS, 'field-labels-offer.png'), fullPage: true });

      // The copy's e-mail: Chromium takes `ada@localhost`, the server refuses it; the refusal sits under the e-mail, in words.
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByLabel(/E-mail for your copy/).fill('ada@localhost');
      await page.getByRole('button', { name: 'Sign and accept' }).click();
      await expectErrorUnder(page, 'lc-offer-email');
      expect(await page.locator('#lc-offer-email-error').innerText()).toBe('Enter an e-mail address like name@example.com.');
      await page.screenshot({ path: path.join(ARTIFACTS, 'field-labels-offer-email.png'), fullPage: true });
      const after = await app.platform.db.selectFrom('loans').select('status').where('id', '=', loan.id).executeTakeFirstOrThrow();
      expect(after.status).not.toBe('terms_accepted');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('the direct debit’s e-mail refused by the server shows the checkout’s words under the e-mail (360×640)', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    await app.platform.db.updateTable('borrowers').set({ email: null }).where('id', '=', loan.borrowerId).execute();
    const session = sessionClient(app, tokenOf(loan.applicationUrl));
    await session.post('/v1/checkout/otp/send');
    expect((await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) })).status).toBe(200);
    expect((await session.post('/v1/checkout/accept', { signatureFullName: 'Ada Obi', documentReference: loan.documentReference, ipAddress: '102.89.34.7', userAgent: 'E2E' })).status).toBe(200);
    expect((await session.post('/v1/checkout/bank-account', { bankCode: '057', accountNumber: `100000000${nubanCheckDigit('057', '100000000')}` })).status).toBe(200);
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    try {
      await page.goto(new URL(new URL(loan.applicationUrl).pathname, app.url).href);
      await page.getByRole('heading', { name: 'Set up your repayments' }).waitFor();
      // The checkout's own check takes it (something@something.something); the server's does not (two dots in a row).
      await page.getByLabel('Your e-mail address').fill('ada..obi@example.com');
      await page.getByRole('button', { name: 'Set up direct debit' }).click();
      await expectErrorUnder(page, 'lc-mandate-email');
      expect(await page.locator('#lc-mandate-email-error').innerText()).toBe('Enter an e-mail address like name@example.com.');
      await page.screenshot({ path: path.join(ARTIFACTS, 'field-labels-mandate-email.png'), fullPage: true });
      expect(await app.platform.db.selectFrom('loanMandates').select('id').where('loanId', '=', loan.id).execute()).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
