import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { client, startTestApp, type TestApp } from '../support/harness';
import { axeViolations, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { dashboardShot, ensureDashboardBundle, main, newDashboardPage, openPage, signUpInBrowser } from '../support/dashboard-browser';
import { defineProductInBrowser, fundTestPoolInBrowser, requestLiveFundingInBrowser } from '../support/dashboard-journey/products';
import { configureOrganisation } from '../../server/platform/domain/organisations/organisation';
import { confirmPoolFunding } from '../../server/platform/domain/pools/confirm-pool-funding';
import { createApiKey } from '../../server/platform/domain/api-keys/api-key';
import { newId } from '../../server/platform/domain/ids';
import { toJson } from '../../server/platform/db/database';

/** Products, capital pool, settlements and usage in the browser, checked against the partner API. */
describe('dashboard: products, pool, settlements, usage', () => {
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
  const partnerApi = async (organisationId: string, mode: 'test' | 'live' = 'test') => {
    const key = await createApiKey(app.platform.db, app.platform.secrets, { organisationId, mode, now: app.platform.clock.now() });
    return client(app, { publicKey: key.publicKey, secretKey: key.secretKey });
  };

  it('a product defined in the browser is in GET /v1/products; funding the test pool moves GET /v1/pools/balance by exactly that amount', async () => {
    const { context, page } = await newDashboardPage(browser);
    await signUpInBrowser(page, app);
    const api = await partnerApi(await organisationOf(page));
    expect((await api.get('/v1/products')).body.data).toEqual([]);

    await openPage(page, app, '/products', 'Products');
    await expect.poll(() => main(page).getByText('No products yet.').isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    // A conversion error is caught before sending, what was typed stays, and the server's rules answer the rest.
    await main(page).getByRole('button', { name: 'Define a product' }).click();
    await main(page).getByLabel('Interest rate (% a year)').fill('36.5');
    await main(page).getByLabel('Smallest loan (₦)').fill('10.505');
    await main(page).getByRole('button', { name: 'Define product' }).click();
    await expect.poll(() => main(page).locator('#f-minAmount-error').textContent()).toContain('Enter a number with at most 2 decimals');
    expect(await main(page).getByRole('alert').textContent()).toContain('Check “Smallest loan (₦)”');
    expect(await main(page).getByLabel('Smallest loan (₦)').inputValue()).toBe('10.505');
    expect(await axeViolations(page)).toEqual([]);
    await main(page).getByRole('button', { name: 'Cancel' }).click();

    const product = await defineProductInBrowser(page, app, { minAmount: '1,000', maxAmount: '2500000.50', interestRate: '36.5' });
    const listed = (await api.get('/v1/products')).body.data.find((p: any) => p.code === product.code);
    expect(listed).toMatchObject({ name: product.name, interestRateBps: 3650, minAmountKobo: 100_000, maxAmountKobo: 250_000_050, minTenorDays: 30, maxTenorDays: 180, isActive: true });

    // Edit: the server validates the whole product (max below min is refused, shown, nothing changes).
    await main(page).getByRole('button', { name: `Edit ${product.code}` }).click();
    await main(page).getByLabel('Largest loan (₦)').fill('999');
    await main(page).getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => main(page).locator('#f-minAmount-error').textContent()).toContain('Must not exceed “Largest loan (₦)”');
    await main(page).getByLabel('Largest loan (₦)').fill('5000000');
    await main(page).getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => main(page).getByText(`Product ${product.code} saved.`).isVisible()).toBe(true);
    expect((await api.get('/v1/products')).body.data[0].maxAmountKobo).toBe(500_000_000);
    expect((await api.get('/v1/products')).body.data[0].reminders).toEqual({ enabled: true, leadDays: 3 });

    // Reminders by text: off for this product, with a lead the server refuses first (0 to 14), shown under its field.
    await main(page).getByRole('button', { name: `Edit ${product.code}` }).click();
    await main(page).getByLabel('Text reminders to borrowers').uncheck();
    await main(page).getByLabel('Reminder before a debit (days)').fill('15');
    await main(page).getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => main(page).locator('#f-reminderLeadDays-error').textContent()).toMatch(/\S/);
    expect((await api.get('/v1/products')).body.data[0].reminders).toEqual({ enabled: true, leadDays: 3 });
    await main(page).getByLabel('Reminder before a debit (days)').fill('5');
    await main(page).getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => main(page).getByText(`Product ${product.code} saved.`).isVisible()).toBe(true);
    expect((await api.get('/v1/products')).body.data[0].reminders).toEqual({ enabled: false, leadDays: 5 });

    // Deactivate behind a confirmation.
    await main(page).getByRole('button', { name: `Deactivate ${product.code}` }).click();
    await page.getByRole('button', { name: 'Deactivate product' }).click();
    await expect.poll(() => main(page).getByText(`Product ${product.code} deactivated.`).isVisible()).toBe(true);
    expect((await api.get('/v1/products')).body.data[0].isActive).toBe(false);
    await dashboardShot(page, 'products-laptop');

    const balance = async () => ((await api.get('/v1/pools/balance')).body.data.pools as { code: string; balanceKobo: number }[]).find((p) => p.code === 'MAIN')?.balanceKobo ?? 0;
    const before = await balance();
    const funded = await fundTestPoolInBrowser(page, app, { pool: 'MAIN', amount: '2,500,000.50' });
    expect(funded.amountKobo).toBe(250_000_050);
    expect(await balance()).toBe(before + 250_000_050);
    await expect.poll(() => main(page).getByRole('cell', { name: '+₦2,500,000.50' }).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'pool-laptop');
    await context.close();
  }, 120_000); // a walk through several pages: a walk's time budget, like the other browser walks

  it('in live mode the page gives a transfer reference; once the operator confirms it, the live pool holds the amount', async () => {
    const { context, page } = await newDashboardPage(browser);
    await signUpInBrowser(page, app);
    const organisationId = await organisationOf(page);
    await configureOrganisation(app.platform.db, organisationId, { liveEnabled: true }, app.platform.clock.now());
    const { reference } = await requestLiveFundingInBrowser(page, app, { pool: 'MAIN', amount: '1,000,000' });
    expect(reference).toMatch(/^PF-[0-9A-Z]{10}$/);
    await expect.poll(() => main(page).getByText('Awaiting transfer').isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'pool-live-pending-laptop');

    const live = await partnerApi(organisationId, 'live');
    expect((await live.get('/v1/pools/balance')).body.data.totalBalanceKobo).toBe(0);
    await confirmPoolFunding(app.platform.db, { reference, now: app.platform.clock.now() });
    expect((await live.get('/v1/pools/balance')).body.data.totalBalanceKobo).toBe(100_000_000);
    await openPage(page, app, '/pool', 'Capital pool');
    await expect.poll(() => main(page).locator('.badge', { hasText: 'Confirmed' }).isVisible()).toBe(true);
    await expect.poll(() => main(page).getByText('₦1,000,000.00').first().isVisible()).toBe(true);
    await context.close();
  });

  it('on a phone: products, pool, settlements and usage render, the usage chart draws 30 days, axe finds nothing', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    await signUpInBrowser(page, app);
    const api = await partnerApi(await organisationOf(page));
    await api.get('/v1/products');
    await api.get('/v1/products/00000000-0000-7000-8000-000000000000');

    await defineProductInBrowser(page, app, { code: 'PHONE_1' });
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'products-phone');
    await main(page).getByRole('button', { name: 'Edit PHONE_1' }).click();
    await dashboardShot(page, 'products-form-phone');
    expect(await axeViolations(page)).toEqual([]);

    await fundTestPoolInBrowser(page, app, { amount: '750' });
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'pool-phone');

    await openPage(page, app, '/settlements', 'Settlements');
    await expect.poll(() => main(page).getByText('No settlements yet.').isVisible()).toBe(true);
    const csv = main(page).getByRole('link', { name: 'Download CSV' });
    expect(await csv.getAttribute('href')).toBe('/dashboard/api/settlements.csv?mode=test');
    const download = await page.evaluate(async (href) => {
      const res = await fetch(href!);
      return { status: res.status, disposition: res.headers.get('content-disposition'), text: await res.text() };
    }, await csv.getAttribute('href'));
    expect(download).toMatchObject({ status: 200, disposition: expect.stringMatching(/^attachment;/), text: expect.stringMatching(/^statement_id,period_start/) });
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'settlements-phone');
    // A statement as a settlement run writes it: the table scrolls sideways on a phone.
    const at = app.platform.clock.now().toISOString();
    await app.platform.db
      .insertInto('settlementStatements')
      .values({ id: newId(), organisationId: await organisationOf(page), mode: 'test', periodStart: '2026-10-01T00:00:00.000Z', periodEnd: at, feeSweptKobo: 150_050, interestSweptKobo: 2_500_000, totalSweptKobo: 2_650_050, status: 'completed', failureReason: null, transferReference: 'STL-2026-11-27', lines: toJson([]), createdAt: at, updatedAt: at })
      .execute();
    await openPage(page, app, '/settlements', 'Settlements');
    await expect.poll(() => main(page).getByText('₦26,500.50').isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'settlements-rows-phone');

    await openPage(page, app, '/usage', 'Usage');
    const chart = main(page).locator('dash-chart');
    await expect.poll(() => chart.locator('canvas').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await chart.locator('details tbody tr').count()).toBe(30);
    const today = await chart.locator('details tbody tr').last().locator('td').allTextContents();
    expect(today).toEqual(['2', '1']);
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'usage-phone');
    await context.close();
  }, 120_000); // several pages, each analysed by axe: a walk, like the other browser walks
});
