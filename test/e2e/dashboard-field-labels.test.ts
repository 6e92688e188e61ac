import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/harness';
import { axeViolations, launchChromium, PHONE_VIEWPORT } from '../support/browser';
import { dashboardShot, ensureDashboardBundle, main, newDashboardPage, openPage, signUpInBrowser } from '../support/dashboard-browser';

/** A field's code name as the API spells it (`recoveryEnabled`, `minAmountKobo`): never in a message a person reads. */
const CODE_NAME = /\b[a-z]+[A-Z][a-zA-Z]*\b/;

/**
 * What the form shows after a refused submit: every message (field errors, alerts, the hidden alert a screen reader
 * hears) free of code names, of the form's API field names and of `body.`/`query.` paths; and each field error beside
 * its field: the control names it in aria-describedby, is aria-invalid, and the message sits just below the control.
 */
async function expectErrorsBesideFields(page: Page, scope: Locator, apiNames: string[]): Promise<string[]> {
  await expect.poll(() => scope.locator('.field-error').count(), { timeout: 10_000 }).toBeGreaterThan(0);
  const shown = await scope.evaluate((root) => {
    // The pages render in shadow roots: look through them.
    const all = (from: Element | ShadowRoot, selector: string): HTMLElement[] => {
      const found = [...from.querySelectorAll<HTMLElement>(selector)];
      for (const el of from.querySelectorAll('*')) if (el.shadowRoot) found.push(...all(el.shadowRoot, selector));
      if (from instanceof Element && from.shadowRoot) found.push(...all(from.shadowRoot, selector));
      return found;
    };
    const texts = all(root, '.field-error, [role="alert"], .error').map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim()).filter(Boolean);
    const errors = all(root, '.field-error').map((error) => {
      const control = [...(error.getRootNode() as ShadowRoot | Document).querySelectorAll<HTMLElement>('[aria-describedby]')].find((c) => (c.getAttribute('aria-describedby') ?? '').split(' ').includes(error.id));
      const e = error.getBoundingClientRect();
      const c = control?.getBoundingClientRect();
      return {
        text: (error.textContent ?? '').trim(),
        control: control?.id ?? null,
        invalid: control?.getAttribute('aria-invalid') ?? (control?.tagName === 'FIELDSET' ? 'true' : null),
        visible: e.width > 0 && e.height > 0,
        // Below the control (or its hint), within a few lines of it, and overlapping it horizontally; a group's
        // (fieldset's) error may sit inside it, under its legend.
        below: c ? (control!.tagName === 'FIELDSET' && control!.contains(error)) || (e.top >= c.bottom - 1 && e.top - c.bottom < 90 && e.left < c.right && e.right > c.left) : false,
      };
    });
    return { texts, errors };
  });
  expect(shown.texts.length).toBeGreaterThan(0);
  for (const text of shown.texts) {
    expect(text, text).not.toMatch(CODE_NAME);
    expect(text, text).not.toMatch(/\b(?:body|query)\./);
    // A one-word field (`password`, `url`) is a plain word too; the code names are the compound ones.
    for (const name of apiNames.filter((n) => /[A-Z]/.test(n))) expect(text, `${text} names ${name}`).not.toContain(name);
  }
  for (const error of shown.errors) {
    expect(error.control, error.text).not.toBeNull();
    expect(error, error.text).toMatchObject({ invalid: 'true', visible: true, below: true });
  }
  return shown.texts;
}

describe('every dashboard message names the field by its label', () => {
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

  /** The product form filled with valid values but for what `bad` changes. */
  async function submitProduct(page: Page, bad: (form: Locator) => Promise<void>): Promise<Locator> {
    await openPage(page, app, '/products', 'Products');
    await main(page).getByRole('button', { name: 'Define a product' }).click();
    const form = main(page).locator('#product-form');
    await form.getByLabel('Code', { exact: true }).fill(`LBL_${Date.now().toString(36).toUpperCase()}`);
    await form.getByLabel('Name', { exact: true }).fill('Label sweep');
    await form.getByLabel('Interest rate (% a year)').fill('30');
    await form.getByLabel('Smallest loan (₦)').fill('1000');
    await form.getByLabel('Largest loan (₦)').fill('500000');
    await form.getByLabel('Shortest tenor (days)').fill('30');
    await form.getByLabel('Longest tenor (days)').fill('180');
    await form.getByLabel('Capital pool code').fill('MAIN');
    await bad(form);
    await form.getByRole('button', { name: 'Define product' }).click();
    return form;
  }

  const PRODUCT_NAMES = ['recoveryEnabled', 'recoveryDefaultAfterDaysOverdue', 'minAmountKobo', 'maxAmountKobo', 'minTenorDays', 'maxTenorDays', 'interestRateBps', 'capitalPoolCode'];

  it('on a laptop (1280×800): products (cross-field rules included), organisation settings, checkout, capital pool, webhooks and API keys', async () => {
    const { context, page } = await newDashboardPage(browser);
    await signUpInBrowser(page, app);

    // Products: recovery switched on without its days — the server's refinement names the other field by its label.
    let form = await submitProduct(page, (f) => f.getByLabel('Default a loan after a set time overdue').check());
    let texts = await expectErrorsBesideFields(page, form, PRODUCT_NAMES);
    expect(texts.join(' ')).toContain('Default a loan after a set time overdue');
    expect(await main(page).locator('#f-recoveryDefaultAfterDaysOverdue-error').textContent()).toMatch(/^Required when “Default a loan after a set time overdue” is on/);
    await dashboardShot(page, 'field-labels-product-recovery');
    expect(await axeViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Cancel' }).click();

    // Products: the smallest loan above the largest (another cross-field rule).
    form = await submitProduct(page, async (f) => {
      await f.getByLabel('Smallest loan (₦)').fill('900000');
      await f.getByLabel('Largest loan (₦)').fill('1000');
    });
    texts = await expectErrorsBesideFields(page, form, PRODUCT_NAMES);
    expect(texts.join(' ')).toMatch(/Smallest loan|Largest loan/);
    await form.getByRole('button', { name: 'Cancel' }).click();

    // Organisation settings: the notice e-mail.
    await openPage(page, app, '/settings', 'Organisation settings');
    await main(page).getByLabel('E-mail for operational notices').fill('not-an-e-mail');
    await main(page).getByRole('button', { name: 'Save settings' }).click();
    await expectErrorsBesideFields(page, main(page), ['notificationEmail', 'autoIssueOffers', 'defaultPreapprovalProductId']);
    await dashboardShot(page, 'field-labels-settings');

    // Checkout: an allowed origin that is not one.
    await openPage(page, app, '/checkout', 'Checkout');
    await main(page).getByLabel('Allowed origins').fill('shop example dot com');
    await main(page).getByRole('button', { name: 'Save settings' }).click();
    await expectErrorsBesideFields(page, main(page), ['allowedOrigins', 'returnUrl', 'brandColor']);
    await dashboardShot(page, 'field-labels-checkout');

    // Capital pool: an amount that is not naira (said before sending), then a pool code the server refuses.
    await openPage(page, app, '/pool', 'Capital pool');
    await main(page).getByLabel('Pool code').fill('MAIN');
    await main(page).getByLabel('Amount (₦)').fill('ten thousand');
    await main(page).getByRole('button', { name: 'Fund test pool' }).click();
    await expectErrorsBesideFields(page, main(page), ['amountKobo']);
    await main(page).getByLabel('Pool code').fill('not a pool code!');
    await main(page).getByLabel('Amount (₦)').fill('1000');
    await main(page).getByRole('button', { name: 'Fund test pool' }).click();
    await expect.poll(() => main(page).locator('#pool-error').count(), { timeout: 10_000 }).toBe(1);
    await expectErrorsBesideFields(page, main(page), ['amountKobo']);
    await dashboardShot(page, 'field-labels-pool');
    expect(await axeViolations(page)).toEqual([]);

    // Webhooks: an endpoint URL that is not a web address.
    await openPage(page, app, '/webhooks', 'Webhooks');
    await main(page).getByRole('button', { name: 'Add endpoint' }).first().click();
    await main(page).getByLabel('Endpoint URL').fill('ftp://example.com/hooks');
    await main(page).locator('form').getByRole('button', { name: 'Add endpoint' }).click();
    await expectErrorsBesideFields(page, main(page).locator('form'), ['url', 'events']);
    await dashboardShot(page, 'field-labels-webhooks');
    expect(await axeViolations(page)).toEqual([]);

    // API keys: a restricted key with no area chosen (said before sending, under the scopes).
    await openPage(page, app, '/keys', 'API keys');
    await main(page).getByRole('radio', { name: /^Restricted/ }).check();
    await main(page).getByRole('button', { name: /^Generate a test key pair/ }).click();
    await expectErrorsBesideFields(page, main(page), ['scopes']);
    await dashboardShot(page, 'field-labels-keys');
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  it('signed out (1280×800): creating an organisation with a password the server refuses shows it under the password, in the form’s words', async () => {
    const { context, page } = await newDashboardPage(browser);
    await page.goto(`${app.url}/dashboard/sign-up`);
    const form = page.locator('dash-account-page form');
    await form.getByLabel('Organisation name').fill('Label Sweep Clinic');
    await form.getByLabel('Work e-mail').fill(`labels-${Date.now()}@clinic.example`);
    await form.getByLabel('Password', { exact: true }).fill('too short');
    await form.getByRole('button', { name: 'Create organisation' }).click();
    const texts = await expectErrorsBesideFields(page, page.locator('dash-account-page'), ['organisationName', 'password', 'email']);
    expect(await page.locator('dash-account-page #password-error').isVisible()).toBe(true);
    expect(texts.join(' ')).toContain('Password');
    expect(await axeViolations(page)).toEqual([]);
    await dashboardShot(page, 'field-labels-sign-up');
    await context.close();
  });

  it('on a phone (360×640): the product form’s cross-field refusal sits under its field, in the form’s words', async () => {
    const { context, page } = await newDashboardPage(browser, PHONE_VIEWPORT);
    await signUpInBrowser(page, app);
    const form = await submitProduct(page, (f) => f.getByLabel('Default a loan after a set time overdue').check());
    const texts = await expectErrorsBesideFields(page, form, PRODUCT_NAMES);
    expect(texts.join(' ')).toContain('Default a loan after a set time overdue');
    expect(await page.evaluate(() => (document.scrollingElement ?? document.documentElement).scrollWidth <= innerWidth)).toBe(true);
    await main(page).locator('#f-recoveryDefaultAfterDaysOverdue').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-artifacts/dashboard/field-labels-product-phone.png' });
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
