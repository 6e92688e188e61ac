import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createApiKey } from '../../server/platform/domain/api-keys/api-key';
import { startTestApp, type TestApp } from '../support/harness';
import { axeViolations, axeViolationsWithFrames, ensureBundles, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { dashboardShot, ensureDashboardBundle, LAPTOP_VIEWPORT, main, newDashboardPage, openPage, signUpInBrowser } from '../support/dashboard-browser';
import { bookAppointment } from '../support/appointments';
import { initiatedApplication } from '../support/financing';
import {
  brandCheckoutInBrowser,
  findFinancingInBrowser,
  homeChecklistInBrowser,
  openAppointmentInBrowser,
  previewButtonColour,
  previewName,
  rgb,
} from '../support/dashboard-journey/checkout';

/**
 * The checkout settings page with its live preview, the home page's checklist, the appointments and the financing
 * applications pages, in Chromium at 360×640 (and the checkout page at 1280×800): axe on each page (the
 * preview frame included), screenshots in test-artifacts/dashboard/.
 */
let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  await ensureBundles();
  ensureDashboardBundle();
  app = await startTestApp();
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function organisationOf(email: string): Promise<string> {
  const user = await app.platform.db.selectFrom('dashboardUsers').select('id').where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow();
  const membership = await app.platform.db.selectFrom('dashboardMemberships').select('organisationId').where('userId', '=', user.id).executeTakeFirstOrThrow();
  return membership.organisationId;
}

const heading = (page: Page, name: string) => expect.poll(() => main(page).getByRole('heading', { name }).isVisible(), { timeout: 10_000 }).toBe(true);

describe('checkout settings with a live preview', () => {
  it('a new colour shows in the preview\'s widget before saving; saved, it persists after a reload; the home checklist follows', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    await signUpInBrowser(page, app, { organisationName: 'Ikeja Clinic' });

    const before = await homeChecklistInBrowser(page, app);
    expect(before).toMatchObject({ 'Verify your e-mail': true, 'Set your checkout origins': false, 'Create an API key': false });
    await dashboardShot(page, 'home-phone');
    expect(await axeViolations(page)).toEqual([]);

    await openPage(page, app, '/checkout', 'Checkout');
    // The default: the widget's own blue, the organisation's name.
    expect(await previewButtonColour(page)).toBe(rgb('#1d4ed8'));
    expect(await previewName(page)).toBe('Ikeja Clinic');

    // Typed, not saved: the preview changes, the settings do not, and the tab's history gains no entry per draft.
    const entries = await page.evaluate(() => history.length);
    await brandCheckoutInBrowser(page, app, { brandColor: '#b42318', displayName: 'Ikeja Care Credit', save: false });
    // (Opening the same page again replaces its entry.)
    expect(await page.evaluate(() => history.length)).toBe(entries);
    await expect.poll(() => main(page).getByText('Unsaved changes').isVisible()).toBe(true);
    const unsaved = await app.platform.db.selectFrom('checkoutSettings').select('brandColor').execute();
    expect(unsaved.every((row) => row.brandColor !== '#b42318')).toBe(true);

    // A bad origin: the server's message, what was typed kept, nothing saved.
    await main(page).getByLabel('Allowed origins').fill('https://shop.example/checkout');
    await main(page).getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => main(page).locator('#f-allowedOrigins-error').textContent()).toContain('must be exactly an origin');
    expect(await main(page).getByRole('alert').textContent()).toContain('Allowed origins');
    expect(await main(page).getByLabel('Allowed origins').inputValue()).toBe('https://shop.example/checkout');
    expect(await main(page).getByLabel('Brand colour', { exact: true }).inputValue()).toBe('#b42318');

    await main(page).getByLabel('Allowed origins').fill('https://shop.example');
    await main(page).getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => main(page).getByText('Saved.', { exact: true }).isVisible()).toBe(true);

    await page.reload();
    await heading(page, 'Checkout');
    expect(await main(page).getByLabel('Brand colour', { exact: true }).inputValue()).toBe('#b42318');
    expect(await main(page).getByLabel('Allowed origins').inputValue()).toBe('https://shop.example');
    await expect.poll(() => previewButtonColour(page)).toBe(rgb('#b42318'));
    await expect.poll(() => previewName(page)).toBe('Ikeja Care Credit');
    await dashboardShot(page, 'checkout-phone');
    expect(await axeViolationsWithFrames(page)).toEqual([]);

    const audit = await app.platform.db.selectFrom('dashboardAuditLog').select('action').where('action', '=', 'checkout_settings_updated').execute();
    expect(audit).toHaveLength(1);

    const after = await homeChecklistInBrowser(page, app);
    expect(after).toMatchObject({ 'Set your checkout origins': true });
    await context.close();
  });

  it('on a laptop the preview sits beside the form in its phone frame', async () => {
    const { context, page } = await newDashboardPage(browser, LAPTOP_VIEWPORT);
    await signUpInBrowser(page, app);
    await brandCheckoutInBrowser(page, app, { brandColor: '#0b6e4f', origins: ['https://clinic.example'] });
    const frame = await page.locator('dash-app iframe[title="Checkout preview"]').boundingBox();
    expect(frame).toMatchObject({ width: 360, height: 640 });
    await dashboardShot(page, 'checkout-laptop');
    expect(await axeViolationsWithFrames(page)).toEqual([]);

    // An analyst reads the settings and the preview, and has no Save (the server refuses it anyway: API tests).
    const email = await page.evaluate(() => fetch('/dashboard/api/session').then((r) => r.json()).then((b) => b.data.user.email as string));
    const user = await app.platform.db.selectFrom('dashboardUsers').select('id').where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow();
    await app.platform.db.updateTable('dashboardMemberships').set({ role: 'analyst' }).where('userId', '=', user.id).execute();
    await page.reload();
    await heading(page, 'Checkout');
    await expect.poll(() => main(page).getByText('Your role can read these settings').isVisible()).toBe(true);
    expect(await main(page).getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    expect(await main(page).getByLabel('Allowed origins').getAttribute('readonly')).not.toBeNull();
    await expect.poll(() => previewButtonColour(page)).toBe(rgb('#0b6e4f'));
    await context.close();
  });
});

describe('clinic pages', () => {
  it('appointments: the list, a filter, an appointment\'s participants and status; financing: the list, a search, the history', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    const email = await signUpInBrowser(page, app);
    const organisationId = await organisationOf(email);

    // Empty states say what to do next.
    await openPage(page, app, '/appointments', 'Appointments');
    await expect.poll(() => main(page).getByText('No appointments yet.').isVisible()).toBe(true);
    await openPage(page, app, '/financing', 'Financing applications');
    await expect.poll(() => main(page).getByText('No financing applications yet.').isVisible()).toBe(true);

    const key = await createApiKey(app.platform.db, app.platform.secrets, { organisationId, mode: 'test', now: app.platform.clock.now() });
    const keys = { publicKey: key.publicKey, secretKey: key.secretKey };
    const booked = await bookAppointment(app, keys);
    await bookAppointment(app, keys, { startInMs: 2 * 86_400_000 });
    const tenant = { organisationId, test: keys, live: keys };
    const { initiation } = await initiatedApplication(app, tenant, { clientReference: 'CLINIC-0001', invoiceReference: 'INV-0001' });
    await initiatedApplication(app, tenant, { clientReference: 'CLINIC-0002' });

    await openPage(page, app, '/appointments', 'Appointments');
    await expect.poll(() => main(page).locator('tbody tr').count()).toBe(2);
    await main(page).getByLabel('Status').selectOption('scheduled');
    await main(page).getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => main(page).locator('tbody tr').count()).toBe(2);
    expect(await openAppointmentInBrowser(page, app, booked.appointmentStartTime)).toEqual(['Amaka Eze', 'Tunde Bakare']);
    expect(await main(page).textContent()).not.toContain('participantKey');
    await dashboardShot(page, 'appointments-phone');
    expect(await axeViolations(page)).toEqual([]);

    await openPage(page, app, '/financing', 'Financing applications');
    await expect.poll(() => main(page).locator('tbody tr').count()).toBe(2);
    expect(await findFinancingInBrowser(page, app, 'INV-0001', 'CLINIC-0001')).toEqual(['initiated']);
    await expect.poll(() => main(page).getByText(initiation.sdkReference).isVisible()).toBe(true);
    await dashboardShot(page, 'financing-phone');
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
