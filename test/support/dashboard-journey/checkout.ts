import type { FrameLocator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { main, openPage } from '../dashboard-browser';
import type { TestApp } from '../harness';

/** The checkout page's preview frame (the real hosted checkout in its preview mode). */
export const previewFrame = (page: Page): FrameLocator => page.frameLocator('dash-app iframe[title="Checkout preview"]');

/** `#rrggbb` as the browser computes it (`rgb(r, g, b)`). */
export const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

/** The computed background of the preview widget's main action (the phone step's button): the brand colour. */
export async function previewButtonColour(page: Page): Promise<string> {
  const button = previewFrame(page).locator('lc-otp button:not(.lc-secondary)').first();
  await button.waitFor({ timeout: 10_000 });
  return button.evaluate((el) => getComputedStyle(el).backgroundColor);
}

/** The preview widget's header name (the display name, else the organisation's). */
export const previewName = (page: Page) => previewFrame(page).locator('lc-checkout .lc-name').textContent();

/**
 * On the checkout page: types the brand colour (and optionally a display name) and waits until the preview's widget
 * shows it — before saving — then, with `origins`, sets the allowed origins and saves; waits for "Saved.".
 */
export async function brandCheckoutInBrowser(
  page: Page,
  app: TestApp,
  options: { brandColor: string; displayName?: string; origins?: string[]; save?: boolean },
): Promise<void> {
  await openPage(page, app, '/checkout', 'Checkout');
  await previewButtonColour(page);
  const form = main(page);
  await form.getByLabel('Brand colour', { exact: true }).fill(options.brandColor);
  if (options.displayName !== undefined) await form.getByLabel('Display name').fill(options.displayName);
  await expect.poll(() => previewButtonColour(page), { timeout: 10_000 }).toBe(rgb(options.brandColor));
  if (options.displayName) await expect.poll(() => previewName(page), { timeout: 10_000 }).toBe(options.displayName);
  if (options.origins) await form.getByLabel('Allowed origins').fill(options.origins.join('\n'));
  if (options.save === false) return;
  await form.getByRole('button', { name: 'Save settings' }).click();
  await expect.poll(() => form.getByText('Saved.', { exact: true }).isVisible()).toBe(true);
}

/** The home page's getting-started checklist as `{title: done}`. */
export async function homeChecklistInBrowser(page: Page, app: TestApp): Promise<Record<string, boolean>> {
  await openPage(page, app, '/', /.+/);
  const items = main(page).locator('section[aria-labelledby="getting-started"] li');
  await items.first().waitFor();
  const entries = await items.evaluateAll((lis) =>
    lis.map((li) => [li.querySelector('a')?.textContent?.trim() ?? '', li.classList.contains('done')] as const),
  );
  return Object.fromEntries(entries);
}

/** On the appointments page: opens the details of the appointment starting at `startIso`; answers the participants' names. */
export async function openAppointmentInBrowser(page: Page, app: TestApp, startIso: string): Promise<string[]> {
  await openPage(page, app, '/appointments', 'Appointments');
  const label = await page.evaluate((iso) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)), startIso);
  await main(page).getByRole('button', { name: `Details of the appointment on ${label}` }).first().click();
  const detail = main(page).locator('section[aria-labelledby="detail-heading"]');
  await detail.getByRole('heading', { name: `Appointment on ${label}` }).waitFor();
  return detail.locator('tbody tr td:first-child').allTextContents();
}

/** On the financing page: searches `reference` (exact), opens the one match; answers its status history, oldest first. */
export async function findFinancingInBrowser(page: Page, app: TestApp, reference: string, clientReference = reference): Promise<string[]> {
  await openPage(page, app, '/financing', 'Financing applications');
  await main(page).getByLabel('Reference').fill(reference);
  await main(page).getByRole('button', { name: 'Search' }).click();
  await expect.poll(() => main(page).locator('tbody tr').count()).toBe(1);
  await main(page).getByRole('button', { name: `Details of ${clientReference}` }).click();
  await main(page).getByRole('heading', { name: `Application ${clientReference}` }).waitFor();
  return main(page).locator('ol.history li .badge').allTextContents();
}
