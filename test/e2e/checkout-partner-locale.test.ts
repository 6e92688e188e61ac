import http from 'node:http';
import express from 'express';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../widget/i18n/en';
import { ha } from '../../widget/i18n/ha';
import { yo } from '../../widget/i18n/yo';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { deepText, ensureBundles, launchChromium, PHONE_VIEWPORT, screenshot } from '../support/browser';
import { uniquePhone } from '../support/checkout';

/**
 * The partner's locale on mount: a partner page mounts the script-tag widget with
 * `locale: 'ha'` in a browser that asks for English. The widget shows Hausa and tells the platform
 * (`POST <checkout>/api/language {chosenBy: partner}`), so the code is texted in Hausa. Then the
 * order `negotiate-locale.ts` documents: the borrower's pick in this session wins over the partner's
 * locale (also when the page mounts again with it), and the partner's locale wins over the
 * borrower's saved choice from an earlier session.
 */
let app: TestApp;
let browser: Browser;
let lender: LendingTenant;
let site: http.Server;
let origin: string;
const tokens = new Map<string, string>();

beforeAll(async () => {
  await ensureBundles();
  app = await startTestApp();
  browser = await launchChromium();
  const partner = express();
  partner.get('/pay/:id', (req, res) => {
    res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>Shop checkout</title></head>
<body><main><h1>Pay in instalments</h1><div id="checkout"></div></main>
<script>
(function (w, n) { w[n] = w[n] || function () { (w[n].q = w[n].q || []).push(arguments); }; })(window, 'LoanCheckout');
LoanCheckout('mount', '#checkout', { session: ${JSON.stringify(tokens.get(req.params.id) ?? '')}, locale: 'ha' });
</script>
<script async src="${app.url}/checkout/widget.js"></script></body></html>`);
  });
  site = http.createServer(partner);
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://localhost:${(site.address() as { port: number }).port}`;
  lender = await lendingTenant(app);
  expect((await client(app, lender.test).call('PATCH', '/v1/checkout-settings', { body: { allowedOrigins: [origin] } })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
  await app?.stop();
});

async function mint(loanId: string): Promise<string> {
  const minted = await client(app, lender.test).post(`/v1/loans/${loanId}/checkout-sessions`);
  expect(minted.status).toBe(201);
  tokens.set(minted.body.data.id, minted.body.data.token);
  return minted.body.data.id;
}

/** The next answer of the checkout server's language endpoint (the widget's call on mount, or the menu's). */
const languageAnswer = (page: Page) => page.waitForResponse((res: Response) => res.url() === `${app.url}/checkout/api/language` && res.request().method() === 'POST');

/** English texts Hausa words differently (fixed texts long enough to be unambiguous). */
const englishOnly = (Object.keys(en) as (keyof typeof en)[])
  .filter((key) => !key.startsWith('error.') && ha[key] && ha[key] !== en[key] && !en[key].includes('{') && en[key].length >= 12)
  .map((key) => en[key]);

describe("the partner's locale on mount", () => {
  it('at 360×640 in an English browser: mounted with locale "ha", the checkout is in Hausa and so is the code; the borrower\'s later pick wins; the partner\'s wins over a saved choice', async () => {
    const phone = uniquePhone();
    const { loan } = await offeredLoan(app, lender, { phone });
    const first = await mint(loan.id);
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'en-US' });
    const page = await context.newPage();
    try {
      const mounted = languageAnswer(page);
      await page.goto(`${origin}/pay/${first}`);
      expect(await page.evaluate(() => navigator.language)).toBe('en-US');
      // The widget told the platform the partner's locale, which negotiation applied over Accept-Language.
      const told = await mounted;
      expect(told.status()).toBe(200);
      expect(JSON.parse(told.request().postData()!)).toEqual({ locale: 'ha', chosenBy: 'partner' });
      expect((await told.json()).data).toEqual({ locale: 'ha', source: 'partner' });
      // The page is in Hausa: the step's heading, the element's language, no English text Hausa words differently.
      await page.getByRole('heading', { name: ha['step.otp']! }).waitFor();
      expect(await page.locator('lc-checkout').getAttribute('lang')).toBe('ha');
      const shown = await deepText(page, 'lc-checkout');
      expect(englishOnly.filter((english) => shown.includes(english))).toEqual([]);
      await screenshot(page, 'partner-locale-ha');

      // The code is texted in Hausa.
      await page.getByRole('button', { name: ha['otp.send']! }).click();
      await page.locator('input[autocomplete="one-time-code"]').waitFor();
      const inbox = await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
      expect(inbox.body.data.messages[0].body).toMatch(/^\d{6} ce lambar lamunin .+\. Za ta ƙare cikin minti 5\. Kada ku ba kowa\./u);

      // The borrower picks Yorùbá: their pick in this session wins over the partner's locale…
      const picked = languageAnswer(page);
      await page.getByLabel(ha['checkout.language']!).selectOption('yo');
      expect((await (await picked).json()).data).toEqual({ locale: 'yo', source: 'session' });
      await page.getByRole('heading', { name: yo['step.otp']! }).waitFor();
      // …also when the partner's page mounts again with `locale: 'ha'` (a reload): the page stays Yorùbá, and so do the texts.
      const remounted = languageAnswer(page);
      await page.reload();
      expect((await (await remounted).json()).data).toEqual({ locale: 'yo', source: 'session' });
      await page.getByRole('heading', { name: yo['step.otp']! }).waitFor();
      expect(await page.locator('lc-checkout').getAttribute('lang')).toBe('yo');
    } finally {
      await context.close();
    }
    const borrower = await app.platform.db.selectFrom('borrowers').select('preferredLocale').where('id', '=', loan.borrowerId).executeTakeFirstOrThrow();
    expect(borrower.preferredLocale).toBe('yo');

    // A later session (another device): the partner's locale comes before the borrower's saved choice.
    const second = await mint(loan.id);
    const later = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'en-US' });
    try {
      const page = await later.newPage();
      const mounted = languageAnswer(page);
      await page.goto(`${origin}/pay/${second}`);
      expect((await (await mounted).json()).data).toEqual({ locale: 'ha', source: 'partner' });
      await page.getByRole('heading', { name: ha['step.otp']! }).waitFor();
    } finally {
      await later.close();
    }
  }, 120_000);
});
