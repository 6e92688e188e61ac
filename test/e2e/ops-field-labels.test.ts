import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, launchChromium } from '../support/browser';
import { ensureOpsBundle, LAPTOP, opsShot, PHONE } from '../support/ops-browser';
import { GOOD_PASSWORD, uniqueEmail } from '../support/dashboard';
import { startTestApp, type TestApp } from '../support/harness';
import { livePayout, staffMember } from '../support/ops';
import { inviteStaff } from '../../server/platform/domain/ops/staff-accounts';

/**
 * Every refusal the operations console shows names the field by the form's words: the sign-in, the invitation's
 * password, a payout's bank reference and reason to reject, a proposal's reason to refuse, the home's search. Each
 * form is sent values the server refuses (whitespace the browser lets through, an e-mail Chromium accepts and the
 * server does not, a password the policy refuses); no message shown matches a code name, a `body.`/`query.` path or
 * a snake_case code, and each sits under its control (aria-invalid, aria-describedby). 1280×800, the payouts form
 * also at 360×640; axe clean; screenshots in test-artifacts/ops/field-labels-*.png.
 */
const CODE_NAME = /\b[a-z]+[A-Z][a-zA-Z]*\b/;
const SNAKE_CODE = /\b[a-z]+_[a-z_]+\b/;

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  ensureOpsBundle();
  app = await startTestApp();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const shot = (page: Page, name: string) => opsShot(page, name, 'field-labels-');
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

/** The messages shown (field errors and alerts, through the shadow roots) and where the one field error sits: under the control whose id matches `control`. */
async function expectErrorsUnderFields(page: Page, control: RegExp): Promise<void> {
  const scope: Locator = page.locator('ops-app');
  await expect.poll(() => scope.locator('.field-error').count(), { timeout: 10_000 }).toBeGreaterThan(0);
  const shown = await scope.evaluate((root) => {
    const all = (from: Element | ShadowRoot, selector: string): HTMLElement[] => {
      const found = [...from.querySelectorAll<HTMLElement>(selector)];
      for (const el of from.querySelectorAll('*')) if (el.shadowRoot) found.push(...all(el.shadowRoot, selector));
      if (from instanceof Element && from.shadowRoot) found.push(...all(from.shadowRoot, selector));
      return found;
    };
    const texts = all(root, '.field-error, [role="alert"], .error').map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim()).filter(Boolean);
    const errors = all(root, '.field-error').map((error) => {
      const control = [...(error.getRootNode() as ShadowRoot).querySelectorAll<HTMLElement>('[aria-describedby]')].find((c) => (c.getAttribute('aria-describedby') ?? '').split(' ').includes(error.id));
      const e = error.getBoundingClientRect();
      const c = control?.getBoundingClientRect();
      return {
        text: (error.textContent ?? '').trim(),
        control: control?.id ?? null,
        invalid: control?.getAttribute('aria-invalid') ?? null,
        visible: e.width > 0 && e.height > 0,
        below: c ? e.top >= c.bottom - 1 && e.top - c.bottom < 90 && e.left < c.right && e.right > c.left : false,
      };
    });
    return { texts, errors };
  });
  expect(shown.texts.length).toBeGreaterThan(0);
  for (const text of shown.texts) {
    expect(text, text).not.toMatch(CODE_NAME);
    expect(text, text).not.toMatch(/\b(?:body|query)\./);
    expect(text, text).not.toMatch(SNAKE_CODE);
  }
  expect(shown.errors.length).toBe(1);
  for (const error of shown.errors) {
    expect(error.control, error.text).not.toBeNull();
    expect(error, error.text).toMatchObject({ invalid: 'true', visible: true, below: true });
    expect(error.control).toMatch(control);
  }
  expect(await axeViolations(page)).toEqual([]);
}

describe('every console message names the field by its label', { timeout: 180_000 }, () => {
  it('the invitation, the sign-in, the payouts (laptop and phone), a proposal and the search show each refusal under its field in words', async () => {
    // The invitation: a password of 12 characters the policy refuses sits under "New password".
    const email = uniqueEmail('labels').toLowerCase();
    const invitation = await inviteStaff(
      { db: app.platform.db, clock: app.platform.clock, baseUrl: app.platform.baseUrl, passkeyAlways: false },
      { email, role: 'finance', invitedBy: { staffId: null, origin: { ip: null, userAgent: 'test' } } },
    );
    const context = await browser.newContext({ viewport: LAPTOP });
    const page = await context.newPage();
    await page.goto(invitation.link);
    await expect.poll(() => heading(page, 'Join the operations console').isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByLabel('New password').fill('aaaaaaaaaaaa');
    await page.getByRole('button', { name: 'Join the console' }).click();
    await expectErrorsUnderFields(page, /^password$/);
    await shot(page, 'accept-laptop');
    await page.getByLabel('New password').fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Join the console' }).click();
    await expect.poll(() => heading(page, "Today's queues").isVisible(), { timeout: 10_000 }).toBe(true);

    // The search: two spaces pass the browser's minlength; the server trims and refuses them.
    await page.getByLabel('Loan or payout id, reference, phone or organisation').fill('  ');
    await page.getByRole('button', { name: 'Search' }).click();
    await expectErrorsUnderFields(page, /^q$/);
    await shot(page, 'search-laptop');

    // The payouts: a bank reference and a reason of spaces.
    const { payoutId } = await livePayout(app, { amountKobo: 730_000 });
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Payouts' }).click();
    await expect.poll(() => page.getByRole('cell', { name: '₦7,300.00' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByLabel(/Bank reference for ₦7,300\.00/).fill('   ');
    await page.getByRole('button', { name: 'Settle', exact: true }).click();
    await expectErrorsUnderFields(page, /^ref-/);
    await shot(page, 'settle-laptop');
    await page.getByLabel(/Reason to reject ₦7,300\.00/).fill('   ');
    await page.getByRole('button', { name: 'Reject', exact: true }).click();
    await expectErrorsUnderFields(page, /^why-/);
    await shot(page, 'reject-laptop');
    expect((await app.platform.db.selectFrom('payoutRequests').select('status').where('id', '=', payoutId).executeTakeFirstOrThrow()).status).toBe('requested');

    // A proposal (another staff member proposes the live settlement): a reason to refuse of spaces.
    const other = await staffMember(app, 'finance');
    expect((await other.send('POST', `/payouts/${payoutId}/settle`, { reference: 'NIP-LABELS-01' })).status).toBe(202);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Proposals' }).click();
    await expect.poll(() => page.getByText('NIP-LABELS-01').isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByLabel('Reason to refuse').fill('   ');
    await page.getByRole('button', { name: 'Refuse', exact: true }).click();
    await expectErrorsUnderFields(page, /^refuse-/);
    await shot(page, 'refuse-laptop');

    // The sign-in: an address Chromium takes and the server refuses.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => heading(page, 'Operations console').isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByLabel('Staff e-mail').fill('ada@localhost');
    await page.getByLabel('Password').fill(GOOD_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expectErrorsUnderFields(page, /^email$/);
    await shot(page, 'sign-in-laptop');
    await context.close();
  });

  it('on a phone (360×640) the payout form shows its refusal under the bank reference', async () => {
    const staff = await staffMember(app, 'finance');
    await livePayout(app, { amountKobo: 410_000 });
    const context = await browser.newContext({ viewport: PHONE });
    await context.addCookies([{ name: 'ops_session', value: staff.cookie!.split('=')[1]!, url: new URL(app.platform.baseUrl).origin }]);
    const page = await context.newPage();
    await page.goto(`${new URL(app.platform.baseUrl).origin}/ops/payouts`);
    await expect.poll(() => page.getByRole('cell', { name: '₦4,100.00' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByLabel(/Bank reference for ₦4,100\.00/).fill('   ');
    await page.getByRole('button', { name: 'Settle', exact: true }).first().click();
    await expectErrorsUnderFields(page, /^ref-/);
    await shot(page, 'settle-phone');
    await context.close();
  });
});
