import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, type MessageKey } from '../../widget/i18n/en';
import { LOCALE_NAMES } from '../../widget/i18n/i18n';
import { TABLES } from '../../widget/i18n/tables';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, operatorLoan } from '../support/lifecycle';
import { ARTIFACTS, ensureBundles, focused, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { latestOtp, mintSession, nubanCheckDigit, uniquePhone } from '../support/checkout';
import { chooseBank } from '../support/bank-picker';

/**
 * Yorùbá, Hausa and Igbo in the machine's Chromium at 360×640: a borrower who picks the language
 * goes through the whole checkout (phone code, identity, a guarantor, waiting, the offer, the bank
 * account, the direct debit, done) and no step shows a word of English. The page's text is read
 * through every shadow root, with the labels only assistive technology reads (aria-label,
 * placeholder, title, alt); what may stay is names (the borrower's, the guarantor's, the lender's,
 * the banks' and the languages' own), numbers, amounts, dates and the acronyms and brand names the
 * tables keep on purpose (BVN, NIN, NUBAN, APR, PDF, the bank brands in the search hint). Each step
 * is axe-core clean and leaves a screenshot in test-artifacts/checkout/{locale}-{step}.png.
 */

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  await ensureBundles();
  app = await startTestApp();
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** Words the translations keep on purpose: acronyms the borrower meets as such, and brand names. */
const KEPT = new Set(['bvn', 'nin', 'nuban', 'apr', 'pdf', 'gtbank', 'opay', 'moniepoint', 'kuda', 'naira']);
const words = (text: string) => text.normalize('NFC').toLowerCase().match(/\p{L}[\p{L}'’]*/gu) ?? [];
/** Words of a language that are spelled like an English word of the checkout (Igbo `were`, "take"). */
const HOMOGRAPHS: Record<'yo' | 'ha' | 'ig', string[]> = { yo: [], ha: [], ig: ['were'] };
/** A relationship as the borrower would type it in each language. */
const SIBLING = { yo: 'ẹ̀gbọ́n'.normalize('NFC'), ha: 'ɗan’uwa', ig: 'nwanne' };
/** Every English word of three letters or more the checkout's English texts use. */
const ENGLISH = new Set(Object.values(en).flatMap(words).filter((word) => word.length >= 3 && !KEPT.has(word)));

/** The text a borrower (or their screen reader) gets from the checkout: text nodes and the labelling attributes, through shadow roots. */
async function checkoutText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walk = (node: Node) => {
      if (node.nodeType === Node.TEXT_NODE) out.push(node.textContent ?? '');
      if (node instanceof Element) {
        if (['STYLE', 'SCRIPT', 'TEMPLATE'].includes(node.tagName)) return;
        for (const attribute of ['aria-label', 'placeholder', 'title', 'alt']) {
          const value = node.getAttribute(attribute);
          if (value) out.push(value);
        }
        if (node.shadowRoot) walk(node.shadowRoot);
      }
      for (const child of node.childNodes) walk(child);
    };
    const root = document.querySelector('lc-checkout');
    if (root) walk(root);
    return out.join(' ').replace(/\s+/g, ' ');
  });
}

describe('the checkout in Yorùbá, Hausa and Igbo', () => {
  for (const locale of ['yo', 'ha', 'ig'] as const) {
    const table = TABLES[locale];
    const text = (key: MessageKey) => table[key]!;

    it(`${LOCALE_NAMES[locale]}: every step, from the phone code to done, with no English left and axe clean`, async () => {
      const lender = await lendingTenant(app, { product: { guarantorsRequired: 1 } });
      const { name: lenderName } = await app.platform.db.selectFrom('organisations').select('name').where('id', '=', lender.organisationId).executeTakeFirstOrThrow();
      const phone = uniquePhone();
      const guarantorPhone = uniquePhone();
      const loan = await operatorLoan(app, lender, { kycTier: 'managed', guarantorsRequired: 1 }, { borrower: { firstName: 'Tunde', lastName: 'Bello', phone } });
      const { url } = await mintSession(app, lender.test, loan.id);
      const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
      const page = await context.newPage();
      /** Names the page may show as they are: people, the lender, banks, the languages' own names. */
      const names = [lenderName, 'Tunde Bello', 'TUNDE BELLO', 'Chidi Obi', 'Guaranty Trust Bank', 'name@example.com', ...Object.values(LOCALE_NAMES)];

      async function expectNoEnglish(step: string): Promise<void> {
        let shown = await checkoutText(page);
        for (const name of names) shown = shown.split(name).join(' ');
        const english = [...new Set(words(shown).filter((word) => ENGLISH.has(word) && !HOMOGRAPHS[locale].includes(word)))];
        await page.screenshot({ path: path.join(ARTIFACTS, `${locale}-${step}.png`), fullPage: true });
        expect(english, `English on the ${step} step: ${shown}`).toEqual([]);
        expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id), step).toEqual([]);
      }
      const heading = (key: MessageKey) => page.getByRole('heading', { name: text(key) });

      try {
        await page.goto(new URL(new URL(url).pathname, app.url).href);
        await page.getByRole('heading', { name: en['step.otp'] }).waitFor();
        // The check can see English: the page before the pick is English, and it finds it.
        expect(words(await checkoutText(page)).filter((word) => ENGLISH.has(word)).length).toBeGreaterThan(10);
        await page.getByLabel(en['checkout.language']).selectOption(locale);
        await page.getByText(text('checkout.progress').replace('{n}', '1').replace('{m}', '6')).waitFor();
        expect(await page.locator('lc-checkout').getAttribute('lang')).toBe(locale);
        expect(await page.locator('h1').innerText()).toBe(text('page.title'));
        await expectNoEnglish('otp');

        await page.getByRole('button', { name: text('otp.send') }).click();
        const code = page.getByLabel(text('otp.label').replace('{phone}', ''), { exact: false });
        await code.waitFor();
        await expectNoEnglish('otp-code');
        await code.fill(await latestOtp(app, phone));

        await heading('step.kyc').waitFor();
        await expectNoEnglish('kyc');
        await page.getByLabel(text('kyc.bvn')).fill('11111111111');
        await page.getByRole('button', { name: text('kyc.submit') }).click();
        await page.getByText(text('kyc.pending')).waitFor();
        await expectNoEnglish('kyc-pending');
        await page.getByRole('button', { name: text('kyc.submit') }).click();

        await heading('step.guarantors').waitFor();
        await expectNoEnglish('guarantors');
        await page.getByLabel(text('guarantors.name')).fill('Chidi Obi');
        await page.getByLabel(text('guarantors.phone')).fill(guarantorPhone);
        await page.getByLabel(text('guarantors.relationship')).fill(SIBLING[locale]);
        await page.getByRole('button', { name: text('guarantors.send') }).click();
        const guarantorCode = page.getByLabel(text('guarantors.codeLabel').replace('{name}', 'Chidi Obi'));
        await guarantorCode.waitFor();
        await expectNoEnglish('guarantor-code');
        await guarantorCode.fill(await latestOtp(app, guarantorPhone));
        await page.getByRole('button', { name: text('guarantors.confirm') }).click();

        await heading('checkout.waiting.title').waitFor();
        await expectNoEnglish('waiting');
        const approved = await fetch(`${app.url}/v1/loans/${loan.id}/approve`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'X-API-Public-Key': lender.test.publicKey, 'X-API-Secret-Key': lender.test.secretKey },
          body: '{}',
        });
        expect(approved.status).toBe(200);
        await page.reload();
        await heading('step.offer').waitFor();
        await expectNoEnglish('offer');
        // Signing without a name or the box ticked: the errors too are in the language.
        await page.getByRole('button', { name: text('offer.sign') }).click();
        await page.getByText(text('offer.nameMissing')).waitFor();
        await expectNoEnglish('offer-errors');
        await page.getByLabel(text('offer.name')).fill('Tunde Bello');
        await page.getByLabel(text('offer.agree')).check();
        await page.getByRole('button', { name: text('offer.sign') }).click();

        await heading('step.bank').waitFor();
        await page.locator('#lc-bank-code:enabled').waitFor();
        await expectNoEnglish('bank');
        await chooseBank(page, 'Guaranty Trust Bank', { label: text('bank.bank') });
        await page.getByLabel(text('bank.number')).fill(`012345678${nubanCheckDigit('058', '012345678')}`);
        await page.getByText(text('bank.accountName')).waitFor();
        await expectNoEnglish('bank-confirm');
        await page.getByRole('button', { name: text('bank.confirm') }).click();

        await heading('step.mandate').waitFor();
        await expectNoEnglish('mandate');
        await page.getByRole('button', { name: text('mandate.setUp') }).click();
        const email = page.getByLabel(text('mandate.email'));
        await email.waitFor();
        expect((await focused(page)).id).toBe('lc-mandate-email');
        await email.fill('tunde@');
        await page.getByRole('button', { name: text('mandate.setUp') }).click();
        await page.getByText(text('mandate.emailInvalid')).waitFor();
        await expectNoEnglish('mandate-email');
        await email.fill('tunde@example.com');
        await page.getByRole('button', { name: text('mandate.setUp') }).click();
        await page.waitForURL(/\/sandbox\/rails\//);
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.waitForURL(/\/checkout\/\?return=mandate/);
        await heading('checkout.complete.title').waitFor({ timeout: 30_000 });
        expect(await page.locator('lc-checkout').getAttribute('lang')).toBe(locale);
        await expectNoEnglish('done');
        const mandate = await app.platform.db.selectFrom('loanMandates').select(['status']).where('loanId', '=', loan.id).executeTakeFirstOrThrow();
        expect(mandate.status).toBe('active');
      } finally {
        await context.close();
      }
    }, 180_000);
  }
});
