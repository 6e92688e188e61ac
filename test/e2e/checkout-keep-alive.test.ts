import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { latestOtp, uniquePhone } from '../support/checkout';
import { ensureBundles, launchChromium, PHONE_VIEWPORT } from '../support/browser';

/**
 * The keep-alive follows the session's lifetime: with `CHECKOUT_SESSION_TTL_MINUTES=1`, a visible
 * page the borrower only reads (no click, no key) is still alive after 75 s and after 10 minutes,
 * because the page slides the session at half its remaining lifetime (not every 5 minutes). The
 * platform's clock and the page's clock move together, in steps of 5 s, and each step waits for the
 * page's requests to finish before the next one, as time would.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let lender: LendingTenant;
let browser: Browser;

beforeAll(async () => {
  await ensureBundles();
  app = await startTestApp({ clock, env: { CHECKOUT_SESSION_TTL_MINUTES: '1' } });
  lender = await lendingTenant(app);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const appUrl = (url: string) => new URL(new URL(url).pathname, app.url).href;

async function openOffer(): Promise<{ context: BrowserContext; page: Page; inFlight: () => number; refreshes: () => number; loanId: string }> {
  const phone = uniquePhone();
  const { loan } = await offeredLoan(app, lender, { phone });
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
  const page = await context.newPage();
  await page.clock.install();
  let pending = 0;
  let refreshes = 0;
  page.on('request', () => pending++);
  page.on('requestfinished', () => pending--);
  page.on('requestfailed', () => pending--);
  page.on('response', (res) => {
    if (res.url().endsWith('/checkout/api/session/refresh') && res.status() === 200) refreshes++;
  });
  await page.goto(appUrl(loan.applicationUrl));
  await page.getByRole('button', { name: 'Send code' }).click();
  const input = page.getByLabel(/Code sent to/);
  await input.waitFor();
  await input.fill(await latestOtp(app, phone));
  await page.getByRole('heading', { name: 'Review and sign your offer' }).waitFor();
  return { context, page, inFlight: () => pending, refreshes: () => refreshes, loanId: loan.id };
}

/** Moves both clocks by `ms` in 5 s steps, letting the page's requests of each step finish first (nobody touches the page). */
async function idle(page: Page, inFlight: () => number, ms: number) {
  for (let left = ms; left > 0; left -= 5_000) {
    const step = Math.min(5_000, left);
    clock.advance(step);
    await page.clock.fastForward(step);
    await expect.poll(inFlight, { timeout: 10_000, interval: 20 }).toBe(0);
  }
}

describe('keep-alive relative to the session lifetime', () => {
  for (const [label, ms] of [['75 s', 75_000], ['10 minutes', 600_000]] as const) {
    it(`with a 1-minute session, a visible page left idle for ${label} slides its session and the borrower can still sign`, async () => {
      const { context, page, inFlight, refreshes, loanId } = await openOffer();
      try {
        await idle(page, inFlight, ms);
        // Each refresh came within half the session's lifetime: at least one every 30 s of idling.
        expect(refreshes()).toBeGreaterThanOrEqual(Math.floor(ms / 30_000));
        const row = await app.platform.db.selectFrom('checkoutSessions').select('expiresAt').where('loanId', '=', loanId).executeTakeFirstOrThrow();
        expect(new Date(row.expiresAt).getTime()).toBeGreaterThan(clock.now().getTime());
        await page.getByLabel('Your full name (your signature)').fill('Ada Obi');
        await page.getByLabel('I have read the offer and agree to its terms.').check();
        await page.getByRole('button', { name: 'Sign and accept' }).click();
        await page.getByRole('heading', { name: 'Your bank account' }).waitFor();
        expect((await app.platform.db.selectFrom('loans').select('status').where('id', '=', loanId).executeTakeFirstOrThrow()).status).toBe('terms_accepted');
      } finally {
        await context.close();
      }
    }, 120_000);
  }
});
