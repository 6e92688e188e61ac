import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/harness';
import { axeViolations, deepContent, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { dashboardShot, ensureDashboardBundle, main, newDashboardPage, openPage, signUpInBrowser } from '../support/dashboard-browser';
import { startReceiver, type Receiver } from '../support/webhooks';
import { addEndpointAndSendTestEventInBrowser } from '../support/dashboard-journey/webhooks';
import { verifyWebhook } from '../../server/platform/domain/webhooks/signature';
import { WebhookDispatcher } from '../../server/workers/webhook-dispatcher';

describe('the webhooks page', () => {
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

  it('adds an endpoint on a loopback receiver, sends a test event that arrives signed with the secret shown once, and the log shows the attempt with the answer', async () => {
    const { context, page } = await newDashboardPage(browser);
    await signUpInBrowser(page, app);
    const { secret } = await addEndpointAndSendTestEventInBrowser(page, app, receiver.url('/journey'));

    const arrived = receiver.received.filter((r) => r.path === '/journey');
    expect(arrived).toHaveLength(1);
    expect(verifyWebhook(arrived[0]!.rawBody, arrived[0]!.headers, secret)).toMatchObject({ event: 'webhook.test', mode: 'test' });

    const area = main(page);
    await area.getByRole('button', { name: /^Attempts of webhook.test/ }).click();
    await expect.poll(() => area.getByText('Attempt 1').isVisible()).toBe(true);
    const text = await deepContent(page);
    expect(text).toContain(String(arrived[0]!.headers['x-service-signature']));
    expect(text).toContain('Delivered');
    expect(await area.locator('pre').first().textContent()).toBe(arrived[0]!.rawBody);
    await dashboardShot(page, 'webhooks-laptop-log');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE_VIEWPORT);
    // Wide tables scroll inside their wrapper: the page itself stays phone-wide.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await dashboardShot(page, 'webhooks-phone-log');
    expect(await axeViolations(page)).toEqual([]);

    // Redeliver: a new attempt through the engine, the same event id, logged beside the first.
    await page.setViewportSize({ width: 1280, height: 800 });
    const dispatcher = new WebhookDispatcher(app.platform);
    dispatcher.start();
    try {
      await area.getByRole('button', { name: /^Redeliver webhook.test/ }).click();
      await expect.poll(() => receiver.received.filter((r) => r.path === '/journey').length, { timeout: 20_000 }).toBe(2);
      await expect.poll(() => area.getByText('Attempt 2').isVisible(), { timeout: 10_000 }).toBe(true);
    } finally {
      await dispatcher.stop();
    }
    const [firstTry, secondTry] = receiver.received.filter((r) => r.path === '/journey');
    expect(secondTry!.headers['x-service-event-id']).toBe(firstTry!.headers['x-service-event-id']);

    // Shown once: a reload (and every read) has no trace of it.
    await openPage(page, app, '/webhooks', 'Webhooks');
    await area.getByRole('button', { name: /^Open / }).click();
    await expect.poll(() => area.getByRole('heading', { name: /^Endpoint / }).isVisible()).toBe(true);
    expect(await deepContent(page)).not.toContain(secret);
    await context.close();
  });

  it('on a phone: a refused address keeps what was typed, rotate shows a new secret once, delete asks first; axe finds nothing', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    await signUpInBrowser(page, app);
    await openPage(page, app, '/webhooks', 'Webhooks');
    const area = main(page);
    await expect.poll(() => area.getByText('No lending endpoints in test mode yet.').isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await area.getByRole('button', { name: 'Add endpoint' }).click();
    await area.getByLabel('Endpoint URL').fill('http://0.0.0.0/hook');
    await area.getByRole('button', { name: 'Add endpoint' }).click();
    await expect.poll(() => area.getByRole('alert').textContent()).toMatch(/not a public address/);
    expect(await area.getByLabel('Endpoint URL').inputValue()).toBe('http://0.0.0.0/hook');
    await dashboardShot(page, 'webhooks-phone-refused');

    await area.getByLabel('Endpoint URL').fill(receiver.url('/phone'));
    await area.getByText('loan.disbursed').click();
    await area.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = area.locator('[data-secret]');
    await expect.poll(() => shown.isVisible()).toBe(true);
    const first = (await shown.textContent())!.trim();
    await area.getByRole('button', { name: 'I have stored it' }).click();

    await area.getByRole('button', { name: 'Rotate secret' }).click();
    await page.locator('dash-confirm-dialog').getByRole('button', { name: 'Rotate secret' }).click();
    await expect.poll(() => shown.isVisible()).toBe(true);
    const second = (await shown.textContent())!.trim();
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    await expect.poll(() => area.getByText(/previous secret keeps signing until/).isVisible()).toBe(true);
    await dashboardShot(page, 'webhooks-phone-rotated');
    expect(await axeViolations(page)).toEqual([]);
    await area.getByRole('button', { name: 'I have stored it' }).click();

    // The patient-financing tab: no secret of its own, the API key signs.
    await area.getByRole('tab', { name: 'Patient financing' }).click();
    await expect.poll(() => area.getByText(/signed with your API secret key/).first().isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await area.getByRole('tab', { name: 'Lending API' }).click();

    await area.getByRole('button', { name: /^Open / }).click();
    await area.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.locator('dash-confirm-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await app.platform.db.selectFrom('webhookEndpoints').select('id').where('url', '=', receiver.url('/phone')).execute()).toHaveLength(1);
    await area.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
    await expect.poll(() => area.getByText('Endpoint deleted.').isVisible()).toBe(true);
    expect(await app.platform.db.selectFrom('webhookEndpoints').select('id').where('url', '=', receiver.url('/phone')).execute()).toHaveLength(0);
    await dashboardShot(page, 'webhooks-phone-deleted');
    await context.close();
  });
});
