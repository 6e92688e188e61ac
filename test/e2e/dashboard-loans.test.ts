import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/harness';
import { axeViolations, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { dashboardShot, ensureDashboardBundle, main, newDashboardPage, openPage, signUpInBrowser } from '../support/dashboard-browser';
import { acceptedLoan, offeredLoan, operatorLoan } from '../support/lifecycle';
import { actOnLoanInBrowser, filterLoansByStatus, lendingOrganisation, openLoanFromList, openLoansList, searchLoans } from '../support/dashboard-journey/loans';

async function organisationOf(app: TestApp, email: string): Promise<string> {
  const row = await app.platform.db
    .selectFrom('dashboardMemberships as m')
    .innerJoin('dashboardUsers as u', 'u.id', 'm.userId')
    .select('m.organisationId')
    .where('u.email', '=', email.toLowerCase())
    .executeTakeFirstOrThrow();
  return row.organisationId;
}

describe('the loans pages', () => {
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

  it('an owner filters and searches the loans, opens one, sees its timeline and disburses it behind a confirmation naming amount and borrower', async () => {
    const { context, page } = await newDashboardPage(browser);
    const email = await signUpInBrowser(page, app);
    const tenant = await lendingOrganisation(app, await organisationOf(app, email));
    const accepted = (await acceptedLoan(app, tenant)).loan;
    const offered = (await offeredLoan(app, tenant)).loan;
    const pending = await operatorLoan(app, tenant, { name: 'Clinic bills' });

    await openLoansList(page, app);
    await expect.poll(() => main(page).locator('tbody tr[data-loan-id]').count()).toBe(3);
    await expect.poll(() => main(page).locator('dash-chart').count()).toBe(1);
    // The funnel's numbers (the chart's table): two pushed pre-approvals, both offered.
    await expect.poll(() => main(page).locator('dash-chart details tbody tr').first().textContent()).toContain('Pushed2');
    await dashboardShot(page, 'loans-list-laptop');
    expect(await axeViolations(page)).toEqual([]);

    expect(await filterLoansByStatus(page, 'terms_accepted')).toEqual([accepted.id]);
    // Search and filters combine: the offered loan is not terms_accepted.
    expect(await searchLoans(page, offered.clientReference)).toEqual([]);
    await main(page).getByRole('button', { name: 'Clear', exact: true }).click();
    await expect.poll(() => main(page).locator('tbody tr[data-loan-id]').count()).toBe(3);
    expect(await searchLoans(page, offered.clientReference)).toEqual([offered.id]);
    // The filters live in the address: a copied link reopens the same list.
    expect(await searchLoans(page, pending.id)).toEqual([pending.id]);
    expect(new URL(page.url()).searchParams.get('q')).toBe(pending.id);

    await main(page).getByRole('button', { name: 'Clear', exact: true }).click();
    await expect.poll(() => main(page).locator('tbody tr[data-loan-id]').count()).toBe(3);
    await openLoanFromList(page, accepted.id);
    expect(await main(page).getByText('awaiting acceptance').count()).toBeGreaterThan(0);
    expect(await main(page).getByRole('link', { name: 'Open the offer letter (PDF)' }).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    // Cancelling the confirmation changes nothing.
    await main(page).getByRole('button', { name: 'Disburse loan' }).click();
    await page.locator('dash-confirm-dialog dialog').getByRole('button', { name: 'Cancel', exact: true }).click();
    expect((await app.platform.db.selectFrom('loans').select('status').where('id', '=', accepted.id).executeTakeFirstOrThrow()).status).toBe('terms_accepted');

    const confirmation = await actOnLoanInBrowser(page, 'Disburse', 'active');
    expect(confirmation).toContain('Ada Obi');
    expect(confirmation).toMatch(/₦[\d,]+\.\d\d/);
    expect(await main(page).getByRole('heading', { name: 'Ledger postings' }).isVisible()).toBe(true);
    expect(await main(page).getByText('DSB-').count()).toBeGreaterThan(0);
    expect((await app.platform.db.selectFrom('loans').select('status').where('id', '=', accepted.id).executeTakeFirstOrThrow()).status).toBe('active');
    await dashboardShot(page, 'loan-disbursed-laptop');

    // A tenant-approval loan is approved from its page.
    await openPage(page, app, `/loans/${pending.id}`, /Tunde Bello/);
    await actOnLoanInBrowser(page, 'Approve', 'awaiting_acceptance');
    await context.close();
  });

  it('on a phone the list, a loan and the pre-approvals are usable; an analyst sees no action buttons; axe finds nothing', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    const email = await signUpInBrowser(page, app);
    const organisationId = await organisationOf(app, email);
    const tenant = await lendingOrganisation(app, organisationId);
    const accepted = (await acceptedLoan(app, tenant)).loan;
    await offeredLoan(app, tenant);

    await openLoansList(page, app);
    await expect.poll(() => main(page).locator('tbody tr[data-loan-id]').count()).toBe(2);
    await dashboardShot(page, 'loans-list-phone');
    expect(await axeViolations(page)).toEqual([]);

    await openPage(page, app, `/loans/${accepted.id}`, /Ada Obi/);
    await main(page).getByRole('heading', { name: 'Timeline' }).waitFor();
    expect(await main(page).getByRole('button', { name: 'Disburse loan' }).isVisible()).toBe(true);
    await dashboardShot(page, 'loan-phone');
    expect(await axeViolations(page)).toEqual([]);

    await openPage(page, app, '/preapprovals', 'Pre-approvals');
    await main(page).locator('[data-state="loaded"]').waitFor();
    expect(await main(page).locator('tbody tr[data-preapproval-id]').count()).toBe(2);
    await dashboardShot(page, 'preapprovals-phone');
    expect(await axeViolations(page)).toEqual([]);

    await app.platform.db.updateTable('dashboardMemberships').set({ role: 'analyst' }).where('organisationId', '=', organisationId).execute();
    await page.reload();
    await openPage(page, app, `/loans/${accepted.id}`, /Ada Obi/);
    await main(page).getByRole('heading', { name: 'Timeline' }).waitFor();
    expect(await main(page).getByRole('button', { name: 'Disburse loan' }).count()).toBe(0);
    await context.close();
  });

  it('"Load more" appends the next keyset page until every loan is shown once', async () => {
    const { context, page } = await newDashboardPage(browser);
    const email = await signUpInBrowser(page, app);
    const tenant = await lendingOrganisation(app, await organisationOf(app, email));
    for (let i = 0; i < 53; i += 1) await offeredLoan(app, tenant);
    await openLoansList(page, app);
    const rows = main(page).locator('tbody tr[data-loan-id]');
    expect(await rows.count()).toBe(50);
    await main(page).getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBe(53);
    const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-loan-id')));
    expect(new Set(ids).size).toBe(53);
    expect(await main(page).getByText('53 loans, all shown').isVisible()).toBe(true);
    expect(await main(page).getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await context.close();
  });

  it('an empty organisation sees what to do next', async () => {
    const { context, page } = await newDashboardPage(browser);
    await signUpInBrowser(page, app);
    await openLoansList(page, app);
    expect(await main(page).getByText('No loans in test mode yet.').isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
