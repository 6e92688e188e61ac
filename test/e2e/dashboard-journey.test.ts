import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { client, startTestApp, type TestApp } from '../support/harness';
import { axeViolations, launchChromium } from '../support/browser';
import { dashboardShot, ensureDashboardBundle, newDashboardPage, signUpInBrowser } from '../support/dashboard-browser';
import { startReceiver, type Receiver } from '../support/webhooks';
import { generateKeyInBrowser, revokeKeyInBrowser } from '../support/dashboard-journey/keys';
import { defineProductInBrowser, fundTestPoolInBrowser } from '../support/dashboard-journey/products';
import { addEndpointAndSendTestEventInBrowser } from '../support/dashboard-journey/webhooks';
import { verifyWebhook } from '../../server/platform/domain/webhooks/signature';

/**
 * The dashboard's journey, in one browser session of a partner who has nothing yet: sign up → verify the e-mail from the
 * sandbox inbox → generate a key → call GET /v1/products with it → define a product that then appears in that API
 * answer → fund the test pool and see GET /v1/pools/balance change → add a webhook endpoint on a loopback receiver and
 * send a test event that arrives signed → revoke the key and see the API refuse it within 1 s.
 */
describe('a partner runs their integration from the dashboard alone', () => {
  let app: TestApp;
  let browser: Browser;
  let receiver: Receiver;
  beforeAll(async () => {
    ensureDashboardBundle();
    app = await startTestApp();
    browser = await launchChromium();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.stop();
    await browser?.close();
    await app?.stop();
  });

  it('sign up, key, product, pool, webhook, revoke', async () => {
    const { context, page } = await newDashboardPage(browser);
    await signUpInBrowser(page, app, { organisationName: 'Journey Lending Ltd' });

    const key = await generateKeyInBrowser(page, app);
    const api = client(app, key);
    const before = await api.get('/v1/products');
    expect(before.status).toBe(200);
    const productsBefore = before.body.data as Array<{ code: string }>;

    const product = await defineProductInBrowser(page, app);
    const after = await api.get('/v1/products');
    expect(after.status).toBe(200);
    const codes = (after.body.data as Array<{ code: string }>).map((p) => p.code);
    expect(codes).toContain(product.code);
    expect(codes).toHaveLength(productsBefore.length + 1);

    const balanceBefore = (await api.get('/v1/pools/balance')).body.data.totalBalanceKobo as number;
    // Pasted as a person copies it from a bank statement: a naira sign and spaces between the thousands.
    await fundTestPoolInBrowser(page, app, { amount: '₦ 1 234 567.89' });
    const balanceAfter = (await api.get('/v1/pools/balance')).body.data.totalBalanceKobo as number;
    expect(balanceAfter - balanceBefore).toBe(123_456_789);

    const { secret } = await addEndpointAndSendTestEventInBrowser(page, app, receiver.url('/journey'));
    const arrived = receiver.received.filter((r) => r.path === '/journey');
    expect(arrived).toHaveLength(1);
    expect(verifyWebhook(arrived[0]!.rawBody, arrived[0]!.headers, secret)).toMatchObject({ event: 'webhook.test', mode: 'test' });

    await revokeKeyInBrowser(page, app, key.publicKey);
    const revokedAt = Date.now();
    await expect.poll(async () => (await api.get('/v1/products')).status, { timeout: 1_000, interval: 50 }).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1_000);

    await dashboardShot(page, 'journey-end');
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  }, 120_000);
});
