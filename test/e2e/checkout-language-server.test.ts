import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../widget/i18n/en';
import { yo } from '../../widget/i18n/yo';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan } from '../support/lifecycle';
import { ensureBundles, launchChromium } from '../support/browser';
import { latestOtp, uniquePhone } from '../support/checkout';

/** The language picked in the widget reaches the platform, and the code is texted in it. */
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

const text = (key: keyof typeof en) => yo[key] ?? en[key];

describe('the borrower\'s language, from the widget to the text message', () => {
  it('when the borrower picks Yorùbá in the menu, then the code in the sandbox inbox is in Yorùbá and the page accepts it', async () => {
    const lender = await lendingTenant(app);
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    try {
      await page.goto(new URL(new URL(loan.applicationUrl).pathname, app.url).href);
      await page.getByRole('heading', { name: en['step.otp'] }).waitFor();
      const recorded = page.waitForResponse((res) => res.url().endsWith('/api/language') && res.request().method() === 'POST');
      await page.getByLabel(en['checkout.language']).selectOption('yo');
      const answer = await recorded;
      expect(answer.status()).toBe(200);
      expect((await answer.json()).data).toEqual({ locale: 'yo', source: 'session' });

      await page.getByRole('button', { name: text('otp.send') }).click();
      await page.locator('input[autocomplete="one-time-code"]').waitFor();
      const inbox = await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
      expect(inbox.body.data.messages[0].body).toMatch(/^\d{6} ni kóòdù awin .+ rẹ\. Ó dópin ní ìṣẹ́jú 5\. Má fi han ẹnikẹ́ni\./u);
      await page.locator('input[autocomplete="one-time-code"]').fill(await latestOtp(app, phone));
      await page.waitForFunction(() => !document.querySelector('input[autocomplete="one-time-code"]'), undefined, { timeout: 15_000 });
    } finally {
      await context.close();
    }
  }, 120_000);
});
