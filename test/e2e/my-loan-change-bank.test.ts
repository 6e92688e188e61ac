import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { makeNextInstalmentDue } from '../../server/platform/domain/borrower-loans/make-due';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';
import { nubanCheckDigit, uniquePhone } from '../support/checkout';
import { lentLoan, mintBorrowerSession } from '../support/borrower-loans';
import { axeViolations, ensureBundles, launchChromium, PHONE_VIEWPORT, screenshot } from '../support/browser';
import { chooseBank } from '../support/bank-picker';

/**
 * "Change my bank account" on the loan page at 360×640 in the machine's Chromium: the borrower refuses once on the
 * sandbox rail's page (nothing changes, "Try again"), then approves; back on the page the change is read back and
 * takes over, and the next instalment is collected from the new account only. axe on every screen, no sideways scroll;
 * screenshots in test-artifacts/.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let lender: LendingTenant;
let browser: Browser;

beforeAll(async () => {
  await ensureBundles();
  app = await startTestApp({ clock });
  lender = await lendingTenant(app);
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const nuban = (bank: string, serial: string) => `${serial}${nubanCheckDigit(bank, serial)}`;

async function check(page: Page, name: string) {
  await screenshot(page, `my-loan-change-bank-${name}`);
  expect(await axeViolations(page), name).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${name}: no sideways scroll`).toBe(true);
}

/** The loan view, with its "Your bank account" part there from the first render of the loaded loan. */
async function showLoanView(page: Page) {
  await page.getByRole('heading', { name: 'Repayment schedule' }).waitFor({ timeout: 15_000 });
  await page.getByRole('heading', { name: 'Your bank account' }).waitFor({ timeout: 5_000 });
}

async function giveAccount(page: Page, accountNumber: string) {
  await page.getByRole('button', { name: /Change bank account|Try again/ }).click();
  await chooseBank(page, 'Zenith Bank', { typed: 'zenith' });
  await page.getByRole('textbox', { name: 'Account number' }).fill(accountNumber);
  await page.getByRole('button', { name: 'This is my account' }).click();
  await page.getByRole('link', { name: 'Continue to your bank' }).waitFor();
}

describe('the loan page: change my bank account', () => {
  it('refused once at the bank changes nothing; approved, the new account takes over and collects the next instalment alone', async () => {
    const { loan, mandateId: oldId } = await lentLoan(app, lender, uniquePhone());
    const session = await mintBorrowerSession(app, lender.test, loan.id);
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (m) => pageErrors.push(`console ${m.type()}: ${m.text()}`));
    page.on('response', (r) => { if (r.status() >= 400) pageErrors.push(`${r.status()} ${r.url()}`); });
    await page.goto(`${app.url}/checkout/my-loan/s/${session.token}`);
    await page.goto(`${app.url}/checkout/my-loan/#loan-${loan.id}`);
    await showLoanView(page);
    await check(page, 'current');

    const accountNumber = nuban('057', '123450001');
    await giveAccount(page, accountNumber);
    await check(page, 'waiting');
    await page.getByRole('link', { name: 'Continue to your bank' }).click();
    await page.getByRole('button', { name: 'Refuse' }).click();
    await showLoanView(page);
    await page.getByText('Your bank did not approve the new direct debit').waitFor();
    await check(page, 'refused');
    expect((await app.platform.db.selectFrom('loans').select('activeMandateId').where('id', '=', loan.id).executeTakeFirstOrThrow()).activeMandateId).toBe(oldId);

    await giveAccount(page, accountNumber);
    await page.getByRole('link', { name: 'Continue to your bank' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    // The rail confirms an approval after its lag, on the test's clock; the page keeps reading back meanwhile.
    clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1);
    await showLoanView(page);
    await page.getByText(`Done: repayments now come from Zenith Bank, account ending ${accountNumber.slice(-4)}.`).waitFor({ timeout: 15_000 });
    await check(page, 'done');

    const current = await app.platform.db.selectFrom('loans').select('activeMandateId').where('id', '=', loan.id).executeTakeFirstOrThrow();
    expect(current.activeMandateId).not.toBe(oldId);
    await makeNextInstalmentDue(app.platform.db, loan.id, clock.now());
    await runCollections(app.platform, clock.now());
    clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
    await runCollections(app.platform, clock.now());
    const charges = await app.platform.db.selectFrom('loanRepayments').select(['mandateId', 'status']).where('loanId', '=', loan.id).where('method', '=', 'mandate').execute();
    expect(charges).toEqual([{ mandateId: current.activeMandateId, status: 'completed' }]);
    await context.close();
  }, 120_000);
});
