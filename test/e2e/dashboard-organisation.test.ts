import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { axeViolations, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { dashboardShot, ensureDashboardBundle, LAPTOP_VIEWPORT, main, newDashboardPage, openPage, signUpInBrowser } from '../support/dashboard-browser';
import { generateKeyInBrowser } from '../support/dashboard-journey/keys';
import { fundTestPoolInBrowser } from '../support/dashboard-journey/products';
import { uniquePhone } from '../support/checkout';

/**
 * A partner's staff run their organisation from the dashboard alone: the settings the README's quick start needs,
 * errors beside their fields in the form's words, pages a role cannot open neither offered nor shown raw, lists that
 * fit a phone, and a loan's checkout link (copy, make, text).
 */
describe('dashboard: the organisation, from the dashboard only', () => {
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

  const organisationOf = async (page: Page) => (await page.evaluate(() => fetch('/dashboard/api/session').then((r) => r.json()))).data.organisation.id as string;
  /** The element's right edge is on screen (nothing to scroll sideways for). */
  const onScreen = async (locator: Locator, width: number) => {
    const box = await locator.boundingBox();
    return box !== null && box.x >= 0 && box.x + box.width <= width;
  };

  it('on a 360 px phone a new owner defines a pushed-decision product (errors beside their fields, in naira words), sets it as the default, and the quick start issue-offer with {} works', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    await signUpInBrowser(page, app);

    await openPage(page, app, '/products', 'Products');
    await main(page).getByRole('button', { name: 'Define a product' }).click();
    const form = main(page).locator('#product-form');
    await form.getByLabel('Code', { exact: true }).fill('SALARY 30');
    await form.getByLabel('Name', { exact: true }).fill('Salary advance');
    await form.getByLabel('Who approves each loan').selectOption('partner_pushed');
    await form.getByLabel('Interest rate (% a year)').fill('36');
    await form.getByLabel('Smallest loan (₦)').fill('5,000');
    await form.getByLabel('Largest loan (₦)').fill('1 000');
    await form.getByLabel('Shortest tenor (days)').fill('30');
    await form.getByLabel('Longest tenor (days)').fill('180');
    await form.getByRole('button', { name: 'Define product' }).click();
    // A code with a space: refused beside the Code field, before anything is sent.
    await expect.poll(() => form.locator('#f-code-error').textContent()).toContain('no spaces');
    expect(await form.getByLabel('Code', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await form.getByLabel('Code', { exact: true }).evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);

    await form.getByLabel('Code', { exact: true }).fill('SALARY_30');
    await form.getByRole('button', { name: 'Define product' }).click();
    // The server's rule (smallest above largest) beside the smallest loan, in the form's words: no …Kobo.
    await expect.poll(() => form.locator('#f-minAmount-error').textContent()).toContain('“Largest loan (₦)”');
    expect(await form.locator('#f-minAmount-error').textContent()).not.toMatch(/Kobo/);
    expect(await main(page).getByRole('alert').textContent()).not.toMatch(/Kobo/);
    expect(await onScreen(form.locator('#f-minAmount-error'), PHONE_VIEWPORT.width)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'product-field-error-phone');

    await form.getByLabel('Largest loan (₦)').fill('1,000,000');
    await form.getByRole('button', { name: 'Define product' }).click();
    await expect.poll(() => main(page).getByText('Product SALARY_30 defined.').isVisible(), { timeout: 10_000 }).toBe(true);

    // The menu offers the organisation's settings; they are set here, not with the operator CLI.
    await page.locator('dash-app').getByRole('button', { name: 'Menu' }).click();
    await page.locator('dash-app nav').getByRole('link', { name: 'Organisation settings' }).click();
    await expect.poll(() => main(page).getByRole('heading', { level: 1, name: 'Organisation settings' }).isVisible()).toBe(true);
    // Automatic offers without a default product: refused beside the box, nothing saved.
    await main(page).getByLabel('Issue offers automatically').check();
    await main(page).getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => main(page).locator('#f-autoIssueOffers-error').textContent()).toContain('default pre-approval product first');
    await main(page).getByLabel('Issue offers automatically').uncheck();
    await main(page).getByLabel('Default product for pushed decisions').selectOption({ label: 'Salary advance (SALARY_30)' });
    // The quiet hours of borrower reminders: 21:00–08:00 Lagos until changed here.
    expect(await main(page).getByLabel('Quiet from').inputValue()).toBe('21:00');
    await main(page).getByLabel('Quiet from').fill('22:30');
    await main(page).getByLabel('Time zone').selectOption('Africa/Accra');
    await main(page).getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => main(page).getByText('Settings saved.').isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    await dashboardShot(page, 'organisation-settings-phone');
    // After a reload the choices stand.
    await page.reload();
    await expect.poll(() => main(page).getByLabel('Default product for pushed decisions').inputValue(), { timeout: 10_000 }).not.toBe('');
    expect([await main(page).getByLabel('Quiet from').inputValue(), await main(page).getByLabel('Quiet until').inputValue(), await main(page).getByLabel('Time zone').inputValue()]).toEqual(['22:30', '08:00', 'Africa/Accra']);

    // The README's quick start with a key made on the keys page: push, then issue-offer with {}.
    const key = await generateKeyInBrowser(page, app);
    const api = client(app, key);
    const phone = uniquePhone();
    const pushed = await api.post('/v1/preapprovals', pushBody({ phone }));
    expect(pushed.status).toBe(202);
    const issued = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    expect(issued.status).toBe(200);
    const loanId = issued.body.data.id as string;

    // The keys list fits the phone: the key's Revoke button is on screen, no sideways scrolling.
    await openPage(page, app, '/keys', 'API keys');
    await expect.poll(() => main(page).getByRole('button', { name: `Revoke ${key.publicKey}` }).isVisible()).toBe(true);
    expect(await onScreen(main(page).getByRole('button', { name: `Revoke ${key.publicKey}` }), PHONE_VIEWPORT.width)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'keys-cards-phone');

    // The pool ledger's amounts and the loans' principal and status are on screen too.
    await fundTestPoolInBrowser(page, app, { amount: '2,500,000' });
    const credit = main(page).getByText('+₦2,500,000.00');
    await expect.poll(() => credit.isVisible()).toBe(true);
    expect(await onScreen(credit, PHONE_VIEWPORT.width)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'pool-cards-phone');

    await openPage(page, app, '/loans', 'Loans');
    const row = main(page).locator(`tr[data-loan-id="${loanId}"]`);
    await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await onScreen(row.locator('td[data-label="Principal"]'), PHONE_VIEWPORT.width)).toBe(true);
    expect(await onScreen(row.locator('td[data-label="Status"] .badge'), PHONE_VIEWPORT.width)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    // The funnel counts pre-approvals: whole numbers on its axis (1 pushed: never 0.2, 0.4…).
    await expect.poll(() => main(page).locator('dash-chart canvas').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const ticks = await main(page).locator('dash-chart').evaluate((el) => {
      const plot = (el as unknown as { plot: { axes: Array<{ values: (u: unknown, splits: number[]) => string[] }>; scales: { y: { max: number } } } }).plot;
      return { labels: plot.axes[1]!.values(plot, [0, 0.2, 0.4, 0.5, 1]), max: plot.scales.y.max };
    });
    expect(ticks.labels).toEqual(['0', '', '', '', '1']);
    expect(Number.isInteger(ticks.max)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'loans-cards-phone');

    // The loan's checkout link: copy it, or text the borrower a new one (its phone on record, the checkout's limits).
    await row.getByRole('link').click();
    await expect.poll(() => main(page).getByRole('heading', { name: "Borrower's checkout link" }).isVisible(), { timeout: 10_000 }).toBe(true);
    const current = await main(page).getByLabel('Current checkout link').inputValue();
    expect(current).toContain('/checkout/');
    await main(page).getByRole('button', { name: 'Text the borrower a new link' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Text the new link' }).click();
    await expect.poll(() => main(page).getByText(`A new link was texted to •••• ${phone.slice(-4)}.`).isVisible(), { timeout: 10_000 }).toBe(true);
    const inbox = (await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.data.messages as { body: string }[];
    const renewed = await main(page).getByLabel('Current checkout link').inputValue();
    expect(renewed).not.toBe(current);
    expect(inbox[0]!.body).toContain(renewed);
    // A second text within 10 minutes: refused with the checkout's own words, nothing sent.
    await main(page).getByRole('button', { name: 'Text the borrower a new link' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Text the new link' }).click();
    await expect.poll(() => main(page).getByRole('alert').textContent(), { timeout: 10_000 }).toContain('moments ago');
    await main(page).getByRole('button', { name: 'Make a new link' }).click();
    await expect.poll(() => main(page).getByLabel('New checkout link').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'loan-checkout-link-phone');

    const audit = await app.platform.db.selectFrom('dashboardAuditLog').select('action').where('organisationId', '=', await organisationOf(page)).execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['organisation_settings_updated', 'checkout_link_texted', 'checkout_link_created']));
    await context.close();
  }, 120_000);

  it('a developer is not offered Team or Audit log, and their address shows a page that says so, not a raw refusal', async () => {
    const { context, page } = await newDashboardPage(browser, LAPTOP_VIEWPORT);
    await signUpInBrowser(page, app);
    await app.platform.db.updateTable('dashboardMemberships').set({ role: 'developer' }).where('organisationId', '=', await organisationOf(page)).execute();
    await page.reload();
    await expect.poll(() => page.locator('dash-app header').textContent(), { timeout: 10_000 }).toContain('developer');
    const nav = page.locator('dash-app nav');
    expect(await nav.getByRole('link', { name: 'API keys' }).isVisible()).toBe(true);
    expect(await nav.getByRole('link', { name: 'Team' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Audit log' }).count()).toBe(0);

    for (const [path, title] of [['/audit-log', 'Audit log'], ['/team', 'Team']] as const) {
      await page.goto(`${app.url}/dashboard${path}`);
      await expect.poll(() => main(page).getByRole('heading', { level: 1, name: 'Not available for your role' }).isVisible(), { timeout: 10_000 }).toBe(true);
      const text = (await main(page).textContent()) ?? '';
      expect(text).toContain(`The ${title} page is not available for your role (developer)`);
      expect(text).not.toContain('audit.read');
      expect(text).not.toContain('may not do this');
    }
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'not-available-for-role-laptop');

    // The loans filters at 1280 px: Search and Clear side by side, their bottoms on the fields' bottoms.
    await openPage(page, app, '/loans', 'Loans');
    const [search, clear, field] = await Promise.all([
      main(page).getByRole('button', { name: 'Search', exact: true }).boundingBox(),
      main(page).getByRole('button', { name: 'Clear', exact: true }).boundingBox(),
      main(page).getByLabel('Created to').boundingBox(),
    ]);
    expect(Math.abs(search!.y - clear!.y)).toBeLessThan(2);
    expect(Math.abs(search!.y + search!.height - (field!.y + field!.height))).toBeLessThan(2);
    await dashboardShot(page, 'loans-filters-laptop');

    // The settings are readable by every role; only owners and admins change them.
    await openPage(page, app, '/settings', 'Organisation settings');
    expect(await main(page).getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    expect(await main(page).getByText('an owner or admin can change them').isVisible()).toBe(true);
    await dashboardShot(page, 'organisation-settings-developer-laptop');
    await context.close();
  }, 60_000);

  it('checkout settings: a trailing slash is trimmed; a bad origin and an http logo are refused beside their fields', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    await signUpInBrowser(page, app);
    await openPage(page, app, '/checkout', 'Checkout');
    const origins = main(page).getByLabel('Allowed origins');
    await origins.fill('https://shop.example/\nhttps://pay.example/checkout');
    await main(page).getByRole('button', { name: 'Save settings' }).click();
    const error = main(page).locator('#f-allowedOrigins-error');
    await expect.poll(() => error.textContent(), { timeout: 10_000 }).toContain('https://pay.example/checkout');
    // Beside its field: just under the box, not a screen below it.
    const [field, line] = [await origins.boundingBox(), await error.boundingBox()];
    expect(line!.y - (field!.y + field!.height)).toBeLessThan(120);
    expect(await origins.inputValue()).toBe('https://shop.example\nhttps://pay.example/checkout');
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'checkout-origin-error-phone');

    await origins.fill('https://shop.example/');
    await main(page).getByLabel('Logo URL').fill('http://cdn.example/logo.png');
    await main(page).getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => main(page).locator('#f-logoUrl-error').textContent()).toContain('https://');
    const saved = await page.evaluate(() => fetch('/dashboard/api/checkout/settings').then((r) => r.json()));
    expect(saved.data.allowedOrigins).toEqual([]);
    expect(saved.data.logoUrl).toBeNull();

    await main(page).getByLabel('Logo URL').fill('https://cdn.example/logo.png');
    await main(page).getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => main(page).getByText('Saved.').isVisible(), { timeout: 10_000 }).toBe(true);
    const after = await page.evaluate(() => fetch('/dashboard/api/checkout/settings').then((r) => r.json()));
    expect(after.data.allowedOrigins).toEqual(['https://shop.example']);
    await context.close();
  }, 60_000);
});
