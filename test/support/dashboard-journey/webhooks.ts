import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { WebhookDispatcher } from '../../../server/workers/webhook-dispatcher';
import { main, openPage } from '../dashboard-browser';
import type { TestApp } from '../harness';

/**
 * Journey step: on the webhooks page, adds a lending endpoint at `receiverUrl` (a loopback receiver: the
 * test app runs with WEBHOOK_ALLOW_LOOPBACK=true, and test mode allows plain http to loopback), copies the signing
 * secret shown once, dismisses it, sends a test event and waits until the delivery log shows it delivered. A webhook
 * dispatcher runs for the step (the test app starts none), so the event goes through the normal engine. Answers the
 * secret, to verify what the receiver got.
 */
export async function addEndpointAndSendTestEventInBrowser(page: Page, app: TestApp, receiverUrl: string): Promise<{ secret: string }> {
  const dispatcher = new WebhookDispatcher(app.platform);
  dispatcher.start();
  try {
    await openPage(page, app, '/webhooks', 'Webhooks');
    const area = main(page);
    await area.getByRole('button', { name: 'Add endpoint' }).click();
    await area.getByLabel('Endpoint URL').fill(receiverUrl);
    await area.getByLabel('Description (optional)').fill('Journey receiver');
    await area.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = area.locator('[data-secret]');
    await expect.poll(() => shown.isVisible(), { timeout: 10_000 }).toBe(true);
    const secret = (await shown.textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await area.getByRole('button', { name: 'I have stored it' }).click();
    await expect.poll(() => shown.count()).toBe(0);

    await area.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => area.getByRole('status').filter({ hasText: 'Test event queued' }).count(), { timeout: 10_000 }).toBe(1);
    const row = area.getByRole('row').filter({ hasText: 'webhook.test' });
    await expect.poll(() => row.getByText('Succeeded').isVisible(), { timeout: 20_000 }).toBe(true);
    return { secret };
  } finally {
    await dispatcher.stop();
  }
}
