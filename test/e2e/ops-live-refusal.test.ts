import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, launchChromium } from '../support/browser';
import { signedInOwner } from '../support/dashboard';
import { dashboardShot, ensureDashboardBundle, main, newDashboardPage, signInInBrowser } from '../support/dashboard-browser';
import { startTestApp, type TestApp } from '../support/harness';
import { staffMember } from '../support/ops';

/**
 * When the service's staff refuse an organisation's live mode with a reason (the console's "Organisations for live
 * mode"), the partner reads that reason on its dashboard's home, in the live-status card where it waits for live
 * mode. At 1280×800 and 360×640, axe clean, no sideways scroll; screenshots in test-artifacts/dashboard/.
 */
let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  ensureDashboardBundle();
  app = await startTestApp();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const REASON = 'Your CAC certificate is missing from the KYB documents: upload it and reply to our e-mail.';

describe('a live-mode refusal on the partner\'s dashboard', { timeout: 120_000 }, () => {
  it('the home shows the staff member\'s reason beside "Test only", at 1280×800 and 360×640', async () => {
    const owner = await signedInOwner(app);
    const admin = await staffMember(app, 'admin');
    const refused = await admin.send('POST', `/organisations/${owner.organisationId}/refuse-live`, { reason: REASON });
    expect(refused.status).toBe(200);

    for (const [viewport, name] of [[{ width: 1280, height: 800 }, 'home-live-refused-1280'], [{ width: 360, height: 640 }, 'home-live-refused-360']] as const) {
      const { context, page } = await newDashboardPage(browser, viewport);
      await signInInBrowser(page, app, owner.email);
      const status = main(page).getByRole('region', { name: 'Live status' });
      await expect.poll(() => status.getByText(REASON).isVisible(), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => status.getByText('Not enabled yet.').isVisible()).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
      await dashboardShot(page, name);
      await context.close();
    }
  });
});
