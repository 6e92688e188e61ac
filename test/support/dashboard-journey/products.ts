import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { main, openPage } from '../dashboard-browser';
import type { TestApp } from '../harness';

/** What the product form is filled with (naira and percent as typed; the page converts them exactly). */
export interface ProductInBrowser {
  code: string;
  name: string;
  /** % a year, e.g. `36.5`. */
  interestRate: string;
  /** Naira, e.g. `1,000` or `2500.50`. */
  minAmount: string;
  maxAmount: string;
  minTenorDays: string;
  maxTenorDays: string;
  capitalPoolCode: string;
}

/**
 * In the browser: opens Products, defines a product through the form and waits for it in the list. Answers the
 * values typed. The signed-in role must hold `products.manage`.
 */
export async function defineProductInBrowser(page: Page, app: TestApp, input: Partial<ProductInBrowser> = {}): Promise<ProductInBrowser> {
  const product: ProductInBrowser = {
    code: `WEB_${Date.now().toString(36).toUpperCase()}`,
    name: 'Clinic instalments',
    interestRate: '36.5',
    minAmount: '1,000',
    maxAmount: '2500000.50',
    minTenorDays: '30',
    maxTenorDays: '180',
    capitalPoolCode: 'MAIN',
    ...input,
  };
  await openPage(page, app, '/products', 'Products');
  await main(page).getByRole('button', { name: 'Define a product' }).click();
  const form = main(page).locator('#product-form');
  await form.getByLabel('Code', { exact: true }).fill(product.code);
  await form.getByLabel('Name', { exact: true }).fill(product.name);
  await form.getByLabel('Interest rate (% a year)').fill(product.interestRate);
  await form.getByLabel('Smallest loan (₦)').fill(product.minAmount);
  await form.getByLabel('Largest loan (₦)').fill(product.maxAmount);
  await form.getByLabel('Shortest tenor (days)').fill(product.minTenorDays);
  await form.getByLabel('Longest tenor (days)').fill(product.maxTenorDays);
  await form.getByLabel('Capital pool code').fill(product.capitalPoolCode);
  await form.getByRole('button', { name: 'Define product' }).click();
  await expect.poll(() => main(page).getByText(`Product ${product.code} defined.`).isVisible(), { timeout: 10_000 }).toBe(true);
  await expect.poll(() => main(page).getByRole('cell', { name: product.code, exact: true }).isVisible()).toBe(true);
  return product;
}

/**
 * In the browser: opens Capital pool in test mode and funds `pool` with `amount` naira (as typed). Waits for the
 * confirmation naming the new balance. Answers the amount in kobo (exact).
 */
export async function fundTestPoolInBrowser(page: Page, app: TestApp, options: { pool?: string; amount?: string } = {}): Promise<{ pool: string; amountKobo: number }> {
  const pool = options.pool ?? 'MAIN';
  const amount = options.amount ?? '2,500,000.50';
  await openPage(page, app, '/pool', 'Capital pool');
  await main(page).getByLabel('Pool code').fill(pool);
  await main(page).getByLabel('Amount (₦)').fill(amount);
  await main(page).getByRole('button', { name: 'Fund test pool' }).click();
  await expect.poll(() => main(page).getByText(/funded\. Its balance is now/).isVisible(), { timeout: 10_000 }).toBe(true);
  const [whole, fraction = ''] = amount.replace(/,/g, '').split('.');
  return { pool, amountKobo: Number(`${whole}${fraction.padEnd(2, '0')}`) };
}

/**
 * In the browser, in live mode (the organisation must be live-enabled): asks to fund `pool` with `amount` naira,
 * confirms the dialog, and answers the bank-transfer reference the page shows. The pool is credited only when an
 * operator confirms (`admin pool confirm-funding --reference …`, or `confirmPoolFunding` in a test).
 */
export async function requestLiveFundingInBrowser(page: Page, app: TestApp, options: { pool?: string; amount?: string } = {}): Promise<{ reference: string }> {
  await openPage(page, app, '/pool', 'Capital pool');
  if ((await page.locator('dash-app select#mode').inputValue()) !== 'live') {
    await page.locator('dash-app select#mode').selectOption('live');
  }
  await expect.poll(() => main(page).getByRole('heading', { name: 'Fund the live pool' }).isVisible(), { timeout: 10_000 }).toBe(true);
  await main(page).getByLabel('Pool code').fill(options.pool ?? 'MAIN');
  await main(page).getByLabel('Amount (₦)').fill(options.amount ?? '1,000,000');
  await main(page).getByRole('button', { name: 'Request funding' }).click();
  await page.getByRole('button', { name: 'Get transfer reference' }).click();
  const shown = main(page).getByTestId('funding-reference');
  await expect.poll(() => shown.isVisible(), { timeout: 10_000 }).toBe(true);
  return { reference: (await shown.textContent())!.trim() };
}
