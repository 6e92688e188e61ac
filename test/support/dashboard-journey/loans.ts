import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { createApiKey } from '../../../server/platform/domain/api-keys/api-key';
import { configureOrganisation } from '../../../server/platform/domain/organisations/organisation';
import { fundPool } from '../../../server/platform/domain/pools/pool';
import { createProduct } from '../../../server/platform/domain/products/product';
import { productInput } from '../factories';
import type { TestApp } from '../harness';
import type { LendingTenant } from '../lifecycle';
import { main, openPage } from '../dashboard-browser';

/**
 * Journey steps for the dashboard's loans pages, and the API set-up they need: an organisation that signed
 * up on the dashboard made ready to lend in test mode (as `lendingTenant` does for a new one), so the lifecycle
 * helpers (`offeredLoan`, `acceptedLoan`, `operatorLoan`) make loans in given states that its dashboard then shows.
 */
export async function lendingOrganisation(app: TestApp, organisationId: string, options: { poolKobo?: number } = {}): Promise<LendingTenant> {
  const { db, secrets } = app.platform;
  const now = new Date();
  const product = await createProduct(db, {
    organisationId,
    input: productInput({ name: 'Pushed loans', approvalMode: 'partner_pushed', insuranceMode: 'automatic', insurancePremiumBps: 50, processingFeeBps: 100 }),
    now,
  });
  await configureOrganisation(db, organisationId, { loanTenant: true, preapprovedLending: true, defaultPreapprovalProductId: product.id, maxInterestRateBps: 6000, autoIssueOffers: false }, now);
  const test = await createApiKey(db, secrets, { organisationId, mode: 'test', now });
  const live = await createApiKey(db, secrets, { organisationId, mode: 'live', now });
  app.platform.authenticator.invalidate();
  await db.transaction().execute((trx) => fundPool(trx, { organisationId, mode: 'test', code: 'MAIN', amountKobo: options.poolKobo ?? 1_000_000_000, now }));
  return {
    organisationId,
    test: { publicKey: test.publicKey, secretKey: test.secretKey },
    live: { publicKey: live.publicKey, secretKey: live.secretKey },
    pushedProductId: product.id,
  };
}

/** Opens the loans list and waits for its first rows (or its empty state). */
export async function openLoansList(page: Page, app: TestApp): Promise<void> {
  await openPage(page, app, '/loans', 'Loans');
  await main(page).locator('[data-state="loaded"]').first().waitFor();
}

/** Types a reference into the search box and waits for the list to show exactly the matching loans. */
export async function searchLoans(page: Page, reference: string): Promise<string[]> {
  const view = main(page);
  await view.getByLabel('Search by reference').fill(reference);
  await view.getByRole('button', { name: 'Search' }).click();
  await view.locator(`[data-state="loaded"][data-query="${reference}"]`).waitFor();
  return view.locator('tbody tr[data-loan-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-loan-id')!));
}

/** Filters the list by status and answers the ids shown. */
export async function filterLoansByStatus(page: Page, status: string): Promise<string[]> {
  const view = main(page);
  await view.getByLabel('Status').selectOption(status);
  await view.locator(`[data-state="loaded"][data-status="${status}"]`).waitFor();
  return view.locator('tbody tr[data-loan-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-loan-id')!));
}

/** Opens a loan's page from the list (its link) and waits for its timeline. */
export async function openLoanFromList(page: Page, loanId: string): Promise<void> {
  await main(page).locator(`tr[data-loan-id="${loanId}"] a`).first().click();
  await main(page).getByRole('heading', { name: 'Timeline' }).waitFor();
}

/**
 * Runs an action from the loan's page behind its confirmation (which names the amount and the borrower), and waits
 * for the new status. Answers the confirmation's text.
 */
export async function actOnLoanInBrowser(page: Page, action: 'Approve' | 'Reject' | 'Cancel' | 'Disburse', expectedStatus: string): Promise<string> {
  await main(page).getByRole('button', { name: `${action} loan` }).click();
  const dialog = page.locator('dash-confirm-dialog dialog');
  await dialog.waitFor();
  const text = (await dialog.textContent()) ?? '';
  await dialog.getByRole('button', { name: new RegExp(`^${action} ₦`) }).click();
  await main(page).locator(`[data-loan-status="${expectedStatus}"]`).waitFor();
  expect(await main(page).getByTestId('loan-action-status').textContent()).toMatch(/done|approved|rejected|cancelled|disbursed/i);
  return text;
}
