import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type Tenant } from '../support/harness';
import { lendingTenant, offeredLoan, operatorLoan } from '../support/lifecycle';
import { latestOtp, mintSession, nubanCheckDigit, uniquePhone } from '../support/checkout';
import { ARTIFACTS, axeViolations, deepContent, ensureBundles, focused, launchChromium } from '../support/browser';
import { chooseBank } from '../support/bank-picker';

/**
 * The hosted checkout in the machine's Chromium against the real server: the applicationUrl opens,
 * the token leaves the address bar, the phone is verified with the code from the sandbox inbox and
 * the flow moves on to the offer. Screenshots at 360×640 go to test-artifacts/checkout/.
 */

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

/** Sends the code and types it in, once the page shows it was sent (the inbox is read only then). */
async function verifyPhone(page: Page, phone: string): Promise<void> {
  await page.getByRole('button', { name: 'Send code' }).click();
  const input = page.getByLabel(/Code sent to/);
  await input.waitFor();
  await input.fill(await latestOtp(app, phone));
}

describe('hosted checkout in a browser', () => {
  it('delegated tier: OTP from the sandbox inbox → offer signed → bank → mandate approved on the rail page → back → done, with no key or token left in the page', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    const context = await browser.newContext({ viewport: { width: 360, height: 640 }, userAgent: 'Mozilla/5.0 (Linux; Android 14) E2E' });
    const page = await context.newPage();
    const responses: string[] = [];
    page.on('response', async (res) => {
      if (res.request().resourceType() === 'fetch' || res.request().resourceType() === 'document' || res.url().endsWith('.js')) {
        responses.push(await res.text().catch(() => ''));
      }
    });
    try {
      await page.goto(new URL(new URL(loan.applicationUrl).pathname, app.url).href);
      // The token moved into the cookie: the address bar is clean.
      expect(new URL(page.url()).pathname).toBe('/checkout/');
      await page.getByRole('heading', { name: 'Confirm your phone number' }).waitFor();
      expect(await page.getByText('Step 1 of 4').count()).toBe(1);
      await page.screenshot({ path: path.join(ARTIFACTS, '01-otp-start.png') });
      expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);

      await page.getByRole('button', { name: 'Send code' }).click();
      const input = page.getByLabel(/Code sent to/);
      await input.waitFor();
      expect(await input.getAttribute('autocomplete')).toBe('one-time-code');
      expect(await input.getAttribute('inputmode')).toBe('numeric');
      await page.screenshot({ path: path.join(ARTIFACTS, '02-otp-code.png') });
      expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);

      // A wrong code is refused with a message tied to the input.
      const code = await latestOtp(app, phone);
      await input.fill(code === '000000' ? '111111' : '000000');
      await page.getByRole('alert').waitFor();
      expect(await input.getAttribute('aria-invalid')).toBe('true');
      expect(await input.getAttribute('aria-describedby')).toContain('lc-otp-error');

      // The right one (typed as a paste would arrive) verifies and the flow moves to the offer, focus on its heading.
      await input.fill(code);
      const offer = page.getByRole('heading', { name: 'Review and sign your offer' });
      await offer.waitFor();
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
      await page.screenshot({ path: path.join(ARTIFACTS, '03-offer-next.png') });

      const borrower = await fetch(`${app.url}/v1/borrowers/${loan.borrowerId}`, {
        headers: { 'X-API-Public-Key': tenant.test.publicKey, 'X-API-Secret-Key': tenant.test.secretKey },
      });
      expect(((await borrower.json()) as { data: { identityStatus: string } }).data.identityStatus).toBe('linked');

      // Reloading resumes at the same step, from server-side state.
      await page.reload();
      await offer.waitFor();

      // The offer: key facts from the frozen pricing, the letter, then sign with the typed name.
      expect(await page.getByText('Total to repay').count()).toBe(1);
      expect(await page.getByRole('link', { name: /offer letter/ }).getAttribute('href')).toMatch(/\/offer-letters\//);
      expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
      await page.getByRole('button', { name: 'Sign and accept' }).click();
      const name = page.getByLabel('Your full name (your signature)');
      expect(await name.getAttribute('aria-invalid')).toBe('true');
      expect((await focused(page)).id).toBe('lc-offer-name');
      await name.fill('Ada Obi');
      await page.getByLabel('I have read the offer and agree to its terms.').check();
      await page.screenshot({ path: path.join(ARTIFACTS, '04-offer-signing.png'), fullPage: true });
      await page.getByRole('button', { name: 'Sign and accept' }).click();
      await page.getByRole('heading', { name: 'Your bank account' }).waitFor();
      expect(await page.getByText('Step 3 of 4').count()).toBe(1);
      const consent = await app.platform.db.selectFrom('loanConsents').selectAll().where('loanId', '=', loan.id).executeTakeFirstOrThrow();
      expect(consent).toMatchObject({ kind: 'accept', signatureFullName: 'Ada Obi', userAgent: 'Mozilla/5.0 (Linux; Android 14) E2E', documentReference: loan.documentReference });
      const after = await app.platform.db.selectFrom('loans').select('status').where('id', '=', loan.id).executeTakeFirstOrThrow();
      expect(after.status).toBe('terms_accepted');

      // Bank: a number that fails the NUBAN check is flagged as typed; a valid one shows the account name to confirm.
      await chooseBank(page, 'Guaranty Trust Bank', { typed: 'gtb' });
      const number = page.getByLabel('Account number');
      const serial = '012345678';
      const check = nubanCheckDigit('058', serial);
      await number.fill(`${serial}${(check + 1) % 10}`);
      await page.getByText('does not match the bank').waitFor();
      expect(await number.getAttribute('aria-invalid')).toBe('true');
      await number.fill(`${serial}${check}`);
      await page.getByText('Account name:').waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, '05-bank-confirm.png'), fullPage: true });
      expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
      await page.getByRole('button', { name: 'This is my account' }).click();
      await page.getByRole('heading', { name: 'Set up your repayments' }).waitFor();
      expect(await page.getByText('Step 4 of 4').count()).toBe(1);

      // Mandate: by redirect to the rail's page (no popup), approve there, come back, confirmed, done.
      await page.screenshot({ path: path.join(ARTIFACTS, '06-mandate.png'), fullPage: true });
      await page.getByRole('button', { name: 'Set up direct debit' }).click();
      await page.waitForURL(/\/sandbox\/rails\//);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(/\/checkout\/\?return=mandate/);
      await page.getByText('Confirming your direct debit').waitFor();
      await page.getByRole('heading', { name: "You're all set" }).waitFor({ timeout: 30_000 });
      await page.screenshot({ path: path.join(ARTIFACTS, '07-done.png'), fullPage: true });
      expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
      const done = await app.platform.db.selectFrom('loans').select(['status', 'activeMandateId']).where('id', '=', loan.id).executeTakeFirstOrThrow();
      expect(done.status).toBe('terms_accepted');
      expect(done.activeMandateId).toEqual(expect.any(String));
      const mandate = await app.platform.db.selectFrom('loanMandates').select('status').where('id', '=', done.activeMandateId!).executeTakeFirstOrThrow();
      expect(mandate.status).toBe('active');

      const seen = [await deepContent(page), ...responses].join('\n');
      expect(seen).not.toMatch(/sk_(test|live)_/);
      expect(seen).not.toContain(new URL(loan.applicationUrl).pathname.split('/').pop()!);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('declines the offer with a reason', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, tenant, { phone });
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    try {
      await page.goto(new URL(new URL(loan.applicationUrl).pathname, app.url).href);
      await verifyPhone(page, phone);
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      await page.getByRole('button', { name: 'Decline' }).click();
      await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
      await page.getByLabel(/Why are you declining/).fill('The repayments are too high for me.');
      await page.screenshot({ path: path.join(ARTIFACTS, '08-offer-declining.png'), fullPage: true });
      await page.getByRole('button', { name: 'Decline the offer' }).click();
      await page.getByRole('heading', { name: 'Offer declined' }).waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, '08-declined.png') });
      expect(await axeViolations(page)).toEqual([]);
      const after = await app.platform.db.selectFrom('loans').select('status').where('id', '=', loan.id).executeTakeFirstOrThrow();
      expect(after.status).toBe('terms_declined');
      const consent = await app.platform.db.selectFrom('loanConsents').selectAll().where('loanId', '=', loan.id).executeTakeFirstOrThrow();
      expect(consent).toMatchObject({ kind: 'decline', reason: 'The repayments are too high for me.' });
    } finally {
      await context.close();
    }
  }, 60_000);

  it('managed tier: KYC with the magic BVNs (failed, pending, then verified), waiting for the lender, then the offer', async () => {
    const phone = uniquePhone();
    const loan = await operatorLoan(app, tenant, { kycTier: 'managed' }, { borrower: { firstName: 'Tunde', lastName: 'Bello', phone } });
    const { url } = await mintSession(app, tenant.test, loan.id);
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    const requests: string[] = [];
    const answers: string[] = [];
    page.on('request', (req) => requests.push(req.url()));
    page.on('response', async (res) => answers.push(await res.text().catch(() => '')));
    try {
      await page.goto(new URL(new URL(url).pathname, app.url).href);
      await verifyPhone(page, phone);
      await page.getByRole('heading', { name: 'Confirm your identity' }).waitFor();
      expect(await page.getByText('Step 2 of 5').count()).toBe(1);
      const bvn = page.getByLabel('BVN (Bank Verification Number)');
      const verify = page.getByRole('button', { name: 'Verify my identity' });
      await bvn.fill('1234');
      await verify.click();
      expect(await bvn.getAttribute('aria-invalid')).toBe('true');
      await page.screenshot({ path: path.join(ARTIFACTS, '10-kyc.png'), fullPage: true });
      expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);

      // A NIN too short for the service: the refusal sits under the NIN field, in the checkout's words.
      const nin = page.getByLabel('NIN (optional)');
      await bvn.fill('00000000000');
      await nin.fill('12345');
      await verify.click();
      await expect.poll(() => nin.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
      expect((await page.locator('#lc-kyc-nin-error').textContent())?.trim()).toBe('Check “NIN (optional)” and try again.');
      expect(await nin.getAttribute('aria-describedby')).toBe('lc-kyc-nin-error');
      expect(await page.locator('lc-kyc form > p.lc-error').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await nin.fill('');
      await verify.click();
      await page.getByText('We could not verify your identity').waitFor();
      expect(await nin.getAttribute('aria-invalid')).toBe('false');
      await bvn.fill('11111111111');
      await verify.click();
      await page.getByText('still being checked').waitFor();
      await verify.click();
      await page.getByRole('heading', { name: 'Waiting for the lender' }).waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, '10-kyc-waiting.png') });
      expect(await axeViolations(page)).toEqual([]);

      const approved = await fetch(`${app.url}/v1/loans/${loan.id}/approve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-API-Public-Key': tenant.test.publicKey, 'X-API-Secret-Key': tenant.test.secretKey },
        body: '{}',
      });
      expect(approved.status).toBe(200);
      await page.reload();
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      // The BVN typed in went only into the KYC request's body: never a URL, never an answer, not left in the page.
      expect(requests.filter((u) => /\d{11}/.test(u))).toEqual([]);
      expect(answers.filter((text) => text.includes('11111111111'))).toEqual([]);
      expect(await deepContent(page)).not.toContain('11111111111');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('guarantors: the borrower names one, types the code the guarantor received, and moves on to the offer', async () => {
    const lender = await lendingTenant(app, { product: { guarantorsRequired: 1 } });
    const phone = uniquePhone();
    const guarantorPhone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    try {
      await page.goto(new URL(new URL(loan.applicationUrl).pathname, app.url).href);
      await verifyPhone(page, phone);
      await page.getByRole('heading', { name: 'Add your guarantors' }).waitFor();
      // The guarantors step comes from the on-demand steps file: its content follows the heading.
      await page.getByText('0 of 1 confirmed').waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, '11-guarantors.png') });
      expect(await axeViolations(page)).toEqual([]);
      await page.getByLabel("Guarantor's full name").fill('Chidi Obi');
      // The borrower's own number is refused, and the refusal sits under the phone field, which says it is invalid.
      const guarantorPhoneField = page.getByLabel("Guarantor's phone number");
      await guarantorPhoneField.fill(phone.replace('+234', '0'));
      await page.getByLabel('Relationship to you').fill('brother');
      await page.getByRole('button', { name: 'Text them a code' }).click();
      await expect.poll(() => guarantorPhoneField.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
      const phoneError = page.locator('#lc-g-phone-error');
      expect((await phoneError.textContent())?.trim()).toBeTruthy();
      expect(await guarantorPhoneField.getAttribute('aria-describedby')).toContain('lc-g-phone-error');
      expect(await page.locator('lc-guarantors form > p.lc-error').count()).toBe(0);
      await page.screenshot({ path: path.join(ARTIFACTS, '11-guarantor-phone-refused.png') });
      expect(await axeViolations(page)).toEqual([]);
      await guarantorPhoneField.fill(guarantorPhone.replace('+234', '0'));
      await page.getByRole('button', { name: 'Text them a code' }).click();
      const code = page.getByLabel('Code Chidi Obi received');
      await code.waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, '11-guarantor-code.png'), fullPage: true });
      expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
      await code.fill(await latestOtp(app, guarantorPhone));
      await page.getByRole('button', { name: 'Confirm guarantor' }).click();
      await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
      const rows = await app.platform.db.selectFrom('loanGuarantors').selectAll().where('loanId', '=', loan.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ fullName: 'Chidi Obi', relationship: 'brother' });
      expect(rows[0]!.verifiedAt).toEqual(expect.any(String));
    } finally {
      await context.close();
    }
  }, 60_000);

  it('shows the expired state, and nothing of the loan, for a tampered link', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    try {
      await page.goto(`${app.url}/checkout/c/cs_test_${'x'.repeat(40)}`);
      await page.getByRole('heading', { name: 'This checkout is not available' }).waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, '09-invalid-link.png') });
      expect(await deepContent(page)).not.toMatch(/Ada|₦|kobo/);
      expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
