import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, operatorLoan, type LendingTenant } from '../support/lifecycle';
import { axeViolations, ensureBundles, focused, launchChromium, PHONE_VIEWPORT, screenshot } from '../support/browser';
import { latestOtp, mintSession, nubanCheckDigit, uniquePhone } from '../support/checkout';
import { chooseBank } from '../support/bank-picker';

/**
 * Ownership checks and paste-tolerant inputs at 360×640 in the machine's Chromium:
 * a signature in someone else's name is refused on the name field, a partial
 * one needs the box ticked; the bank is found by typing ("moni", "opay") or with the keyboard; an
 * account number or a BVN pasted with spaces or dashes keeps every digit; an account in another
 * name gets a clear warning with "use another account" or an explicit confirmation. axe-core on
 * every screen, screenshots in test-artifacts/checkout/.
 */
let app: TestApp;
let lender: LendingTenant;
let browser: Browser;

beforeAll(async () => {
  await ensureBundles();
  app = await startTestApp();
  lender = await lendingTenant(app);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const appUrl = (url: string) => new URL(new URL(url).pathname, app.url).href;
const heading = (page: Page, name: string) => page.getByRole('heading', { name }).waitFor();

async function verifyPhone(page: Page, phone: string): Promise<void> {
  await page.getByRole('button', { name: 'Send code' }).click();
  const input = page.getByLabel(/Code sent to/);
  await input.waitFor();
  await input.fill(await latestOtp(app, phone));
}

/** Puts text into the focused field as a paste does (one insertion, not keystrokes). */
async function paste(page: Page, selector: string, text: string): Promise<void> {
  await page.locator(selector).fill('');
  await page.locator(selector).focus();
  await page.keyboard.insertText(text);
}

async function expectClean(page: Page, shot: string): Promise<void> {
  await screenshot(page, shot);
  expect(await axeViolations(page), shot).toEqual([]);
}

describe('ownership checks and paste-tolerant inputs', () => {
  it('Amaka Okafor: a signature as "Mickey Mouse" is refused, "A. Okafor" needs the box; the bank found by typing and by keyboard; an account number pasted with spaces; ADEYEMI NGOZI\'s account warned about, then confirmed', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone, lastName: 'Okafor' });
    await app.platform.db.updateTable('borrowers').set({ firstName: 'Amaka' }).where('id', '=', loan.borrowerId).execute();
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const page = await context.newPage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await verifyPhone(page, phone);

      // Signature: the name on record is the hint; someone else's name is refused on the field.
      await heading(page, 'Review and sign your offer');
      await page.getByText('Type your own name, as your lender has it: Amaka Okafor.').waitFor();
      const name = page.getByLabel('Your full name (your signature)');
      await name.fill('Mickey Mouse');
      await page.getByLabel('I have read the offer and agree to its terms.').check();
      await page.getByRole('button', { name: 'Sign and accept' }).click();
      await page.getByText('This is not the name on your loan (Amaka Okafor). Sign with your own full name.').waitFor();
      expect(await name.getAttribute('aria-invalid')).toBe('true');
      expect((await focused(page)).id).toBe('lc-offer-name');
      await expectClean(page, 'ownership-01-signature-mismatch');
      expect((await app.platform.db.selectFrom('loans').select('status').where('id', '=', loan.id).executeTakeFirstOrThrow()).status).toBe('awaiting_acceptance');

      // A partial name: the box to confirm appears; signing with it ticked goes through.
      await name.fill('A. Okafor');
      await page.getByRole('button', { name: 'Sign and accept' }).click();
      const confirmName = page.getByLabel('This is my name: I am Amaka Okafor');
      await confirmName.waitFor();
      await expectClean(page, 'ownership-02-signature-partial');
      await confirmName.check();
      await page.getByRole('button', { name: 'Sign and accept' }).click();

      // Bank: a combobox; typing finds wallets and microfinance banks.
      await heading(page, 'Your bank account');
      const bank = page.getByRole('combobox', { name: 'Bank', exact: true });
      // The bank list (not the language picker's options).
      const option = page.locator('#lc-bank-list').getByRole('option');
      await bank.fill('moni');
      await option.filter({ hasText: 'Moniepoint Microfinance Bank' }).waitFor();
      expect(await bank.getAttribute('aria-expanded')).toBe('true');
      await bank.fill('opay');
      await option.filter({ hasText: 'OPay' }).waitFor();
      expect(await option.allTextContents()).toEqual(['OPay']);
      await expectClean(page, 'ownership-03-bank-search');
      // Leaving the field with one match left chooses it.
      await bank.press('Tab');
      expect(await bank.inputValue()).toBe('OPay');

      // The keyboard: Down then Enter chooses the second match; the highlighted one is the active descendant.
      await bank.fill('bank');
      const options = await option.allTextContents();
      expect(options.length).toBeGreaterThan(3);
      await bank.press('ArrowDown');
      expect(await bank.getAttribute('aria-activedescendant')).toBe(await option.nth(1).getAttribute('id'));
      expect(await option.nth(1).getAttribute('aria-selected')).toBe('true');
      await bank.press('Enter');
      expect(await bank.inputValue()).toBe(options[1]!.trim());
      expect(await bank.getAttribute('aria-expanded')).toBe('false');
      // Escape closes the list, a second Escape clears the field.
      await bank.press('ArrowDown');
      expect(await bank.getAttribute('aria-expanded')).toBe('true');
      await bank.press('Escape');
      expect(await bank.getAttribute('aria-expanded')).toBe('false');
      await bank.press('Escape');
      expect(await bank.inputValue()).toBe('');

      // Guaranty Trust Bank by its short name, then the account number pasted with spaces: every digit kept.
      await chooseBank(page, 'Guaranty Trust Bank', { typed: 'gtbank' });
      await paste(page, '#lc-bank-number', '0123 456 785');
      expect(await page.locator('#lc-bank-number').inputValue()).toBe('0123456785');
      await page.getByText('OKAFOR AMAKA').waitFor();
      await expectClean(page, 'ownership-04-bank-match');

      // Someone else's account (the sandbox's magic 777777777), pasted with dashes: a clear warning, nothing saved.
      const someoneElse = `777777777${nubanCheckDigit('058', '777777777')}`;
      await paste(page, '#lc-bank-number', `${someoneElse.slice(0, 3)}-${someoneElse.slice(3, 6)}-${someoneElse.slice(6)}`);
      expect(await page.locator('#lc-bank-number').inputValue()).toBe(someoneElse);
      const warning = page.getByText('This account is in the name ADEYEMI NGOZI, not Amaka Okafor. Loans can only be paid into and collected from your own account.');
      await warning.waitFor();
      await page.getByRole('button', { name: 'It is my account: use it' }).scrollIntoViewIfNeeded();
      await expectClean(page, 'ownership-05-bank-name-mismatch');
      await page.getByRole('button', { name: 'Use another account' }).click();
      expect(await page.locator('#lc-bank-number').inputValue()).toBe('');
      expect((await focused(page)).id).toBe('lc-bank-number');
      expect(await warning.count()).toBe(0);

      // The borrower says it is theirs (a business account, a changed name): kept, with the confirmation.
      await paste(page, '#lc-bank-number', someoneElse);
      await page.getByRole('button', { name: 'It is my account: use it' }).click();
      await heading(page, 'Set up your repayments');
      const session = await app.platform.db.selectFrom('checkoutSessions').selectAll().where('loanId', '=', loan.id).executeTakeFirstOrThrow();
      expect(session).toMatchObject({ accountName: 'ADEYEMI NGOZI', accountNameMatch: 'mismatch', accountNameOnRecord: 'Amaka Okafor' });
      expect(session.accountNameConfirmedAt).not.toBeNull();
      const consent = await app.platform.db.selectFrom('loanConsents').selectAll().where('loanId', '=', loan.id).executeTakeFirstOrThrow();
      expect(consent).toMatchObject({ signatureFullName: 'A. Okafor', signatureNameMatch: 'partial' });
    } finally {
      await context.close();
    }
  }, 120_000); // a walk through several pages: a walk's time budget, like the other browser walks

  it('a BVN and a NIN pasted with spaces and dashes keep every digit and verify', async () => {
    const phone = uniquePhone();
    const loan = await operatorLoan(app, lender, { kycTier: 'managed' }, { borrower: { firstName: 'Tunde', lastName: 'Bello', phone } });
    const { url } = await mintSession(app, lender.test, loan.id);
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const page = await context.newPage();
    try {
      await page.goto(appUrl(url));
      await verifyPhone(page, phone);
      await heading(page, 'Confirm your identity');
      await paste(page, '#lc-kyc-bvn', '2222 2222 222');
      expect(await page.locator('#lc-kyc-bvn').inputValue()).toBe('22222222222');
      await paste(page, '#lc-kyc-nin', '1234-5678-901');
      expect(await page.locator('#lc-kyc-nin').inputValue()).toBe('12345678901');
      await expectClean(page, 'ownership-06-kyc-pasted');
      await page.getByRole('button', { name: 'Verify my identity' }).click();
      await heading(page, 'Waiting for the lender');
    } finally {
      await context.close();
    }
  });
  it('a guarantor\'s phone pasted with spaces and the code they read out pasted as "477 707" keep every digit', async () => {
    const guarantorLender = await lendingTenant(app, { product: { guarantorsRequired: 1 } });
    const phone = uniquePhone();
    const guarantorPhone = uniquePhone();
    const { loan } = await offeredLoan(app, guarantorLender, { phone });
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const page = await context.newPage();
    try {
      await page.goto(appUrl(loan.applicationUrl));
      await verifyPhone(page, phone);
      await heading(page, 'Add your guarantors');
      await page.getByLabel("Guarantor's full name").fill('Chidi Obi');
      const local = guarantorPhone.replace('+234', '0');
      await paste(page, '#lc-g-phone', `${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}`);
      expect(await page.locator('#lc-g-phone').inputValue()).toBe(local);
      await page.getByLabel('Relationship to you').fill('brother');
      await page.getByRole('button', { name: 'Text them a code' }).click();
      await page.locator('#lc-g-code').waitFor();
      const code = await latestOtp(app, guarantorPhone);
      await paste(page, '#lc-g-code', `${code.slice(0, 3)} ${code.slice(3)}`);
      expect(await page.locator('#lc-g-code').inputValue()).toBe(code);
      await expectClean(page, 'ownership-07-guarantor-code-pasted');
      await page.getByRole('button', { name: 'Confirm guarantor' }).click();
      await heading(page, 'Review and sign your offer');
    } finally {
      await context.close();
    }
  });
});
