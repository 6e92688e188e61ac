import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/harness';
import { axeViolations, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { dashboardShot, ensureDashboardBundle, main, newDashboardPage, openPage, signUpInBrowser } from '../support/dashboard-browser';
import { operatorLoan, pendingMandateRepayment } from '../support/lifecycle';
import { lendingOrganisation } from '../support/dashboard-journey/loans';

/** How far the page scrolls sideways (0: not at all), the document's and every table region's. */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => {
    const overflows: string[] = [];
    const scroller = document.scrollingElement ?? document.documentElement;
    if (scroller.scrollWidth > innerWidth) overflows.push(`page ${scroller.scrollWidth}px`);
    // The tables sit in shadow roots: walk them for the regions that would scroll on their own.
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll<HTMLElement>('*')) {
        if (el.shadowRoot) walk(el.shadowRoot);
        if (el.classList.contains('table-wrap') && el.scrollWidth > el.clientWidth + 1) overflows.push(`${el.getAttribute('aria-label')} ${el.scrollWidth}/${el.clientWidth}px`);
      }
    };
    walk(document);
    return overflows;
  });

/** Every table the page shows is a stack of cards on a phone: each cell names its column (data-label), none is a grid row. */
const tablesAsCards = (page: Page) =>
  main(page)
    .locator('table')
    .evaluateAll((tables) =>
      tables.map((t) => ({
        label: t.closest('[aria-label]')?.getAttribute('aria-label') ?? '',
        cards: t.classList.contains('cards') && getComputedStyle(t.querySelector('tbody tr')!).display === 'block',
        unlabelled: [...t.querySelectorAll('tbody td')].filter((td) => !td.hasAttribute('data-label') && !td.classList.contains('actions')).length,
      })),
    );

describe('dashboard tables on a phone (360×640)', () => {
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

  it('the products list and a repaying loan page become cards: nothing scrolls sideways, every cell is labelled, axe finds nothing', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    const email = await signUpInBrowser(page, app);
    const organisationId = (await app.platform.db
      .selectFrom('dashboardMemberships as m')
      .innerJoin('dashboardUsers as u', 'u.id', 'm.userId')
      .select('m.organisationId')
      .where('u.email', '=', email.toLowerCase())
      .executeTakeFirstOrThrow()).organisationId;
    const tenant = await lendingOrganisation(app, organisationId);
    await operatorLoan(app, tenant, { name: 'Clinic bills with a rather long product name' });
    // A disbursed loan with a mandate, a repayment, its schedule, consent and ledger: every table of the loan page.
    const { loanId } = await pendingMandateRepayment(app, tenant);

    await openPage(page, app, '/products', 'Products');
    await expect.poll(() => main(page).locator('table tbody tr').count()).toBeGreaterThanOrEqual(2);
    expect(await sidewaysOverflow(page)).toEqual([]);
    const products = await tablesAsCards(page);
    expect(products).toEqual([{ label: 'Loan products', cards: true, unlabelled: 0 }]);
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'phone-products');

    await openPage(page, app, `/loans/${loanId}`, /Loan|₦/);
    await expect.poll(() => main(page).locator('[aria-label="Ledger postings table"] tbody tr').count()).toBeGreaterThan(0);
    // The events table is inside a closed <details>: open it so its width counts too.
    await main(page).locator('details summary').first().click();
    const loanTables = await tablesAsCards(page);
    expect(loanTables.map((t) => t.label).sort()).toEqual(['Consents table', 'Events table', 'Ledger postings table', 'Mandates table', 'Repayments table', 'Schedule table']);
    expect(loanTables.filter((t) => !t.cards || t.unlabelled > 0)).toEqual([]);
    expect(await sidewaysOverflow(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'phone-loan');
    await context.close();
  });
});
