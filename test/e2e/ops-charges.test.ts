import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { inviteStaff } from '../../server/platform/domain/ops/staff-accounts';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { recordSettlementFailure } from '../../server/platform/domain/settlements/run-settlement';
import { axeViolations, launchChromium } from '../support/browser';
import { ensureOpsBundle, LAPTOP, opsShot, PHONE } from '../support/ops-browser';
import { GOOD_PASSWORD, signedInOwner, uniqueEmail } from '../support/dashboard';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, pendingMandateRepayment, type LendingTenant } from '../support/lifecycle';

/**
 * The console's "Charges that need a person" in Chromium: a finance staff member sees the count on the home, looks a
 * charge with an unknown outcome up at the rail (it took the money) and applies it, and releases one the rail never
 * took with a reason; and retries a failed settlement. At 1280×800 and 360×640, axe clean; screenshots in
 * test-artifacts/ops/.
 */
const clock = new FakeClock(new Date());

let app: TestApp;
let browser: Browser;
let tenant: LendingTenant;
beforeAll(async () => {
  ensureOpsBundle();
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const shot = (page: Page, name: string) => opsShot(page, name);
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const stored = (id: string) => app.platform.db.selectFrom('loanRepayments').select(['status', 'failureReason']).where('id', '=', id).executeTakeFirstOrThrow();

/** A charge the rail took whose answer was lost (`taken`), or one never sent (not taken): pending, outcome unknown. */
async function unknownCharge(taken: boolean) {
  const charge = await pendingMandateRepayment(app, tenant);
  if (taken) {
    await runCollections(app.platform, clock.now());
    clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
  }
  await app.platform.db.updateTable('loanRepayments').set({ chargeReference: null, failureReason: 'charge_outcome_unknown' }).where('id', '=', charge.repaymentId).execute();
  const row = await app.platform.db.selectFrom('loanRepayments').select('reference').where('id', '=', charge.repaymentId).executeTakeFirstOrThrow();
  return { ...charge, reference: row.reference };
}

async function financeInBrowser(viewport: { width: number; height: number }, tag: string, role: 'finance' | 'admin' = 'finance'): Promise<Page> {
  const email = uniqueEmail(tag).toLowerCase();
  const invitation = await inviteStaff(
    { db: app.platform.db, clock: app.platform.clock, baseUrl: app.platform.baseUrl, passkeyAlways: false },
    { email, role, invitedBy: { staffId: null, origin: { ip: null, userAgent: 'test' } } },
  );
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(invitation.link);
  await expect.poll(() => heading(page, 'Join the operations console').isVisible(), { timeout: 10_000 }).toBe(true);
  await page.getByLabel('New password').fill(GOOD_PASSWORD);
  await page.getByRole('button', { name: 'Join the console' }).click();
  await expect.poll(() => heading(page, "Today's queues").isVisible(), { timeout: 10_000 }).toBe(true);
  return page;
}

describe('charges that need a person, in the browser', { timeout: 180_000 }, () => {
  it('at 1280×800: the home counts them; a taken charge is looked up and applied, one never taken is released with a reason', async () => {
    const taken = await unknownCharge(true);
    const never = await unknownCharge(false);
    const page = await financeInBrowser(LAPTOP, 'charges');
    await expect.poll(() => page.getByRole('link', { name: /2\s*Charges that need a person/ }).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Charges' }).click();
    await expect.poll(() => heading(page, 'Charges that need a person').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.getByRole('button', { name: `Apply: ${taken.reference}` }).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'charges-laptop');

    await page.getByRole('button', { name: `Look up at the rail: ${taken.reference}` }).click();
    await expect.poll(() => page.getByRole('status').getByText(`${taken.reference}: The rail took it: apply it.`).isVisible(), { timeout: 10_000 }).toBe(true);
    await shot(page, 'charges-looked-up-laptop');
    await page.getByRole('button', { name: `Apply: ${taken.reference}` }).click();
    await expect.poll(() => page.getByText(`Charge ${taken.reference} applied to the loan.`).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(async () => (await stored(taken.repaymentId)).status).toBe('completed');
    await expect.poll(() => page.getByRole('button', { name: `Apply: ${taken.reference}` }).count()).toBe(0);

    // A reason too short is refused under its field; then released.
    const reason = page.getByLabel(`Reason to release ${never.reference}`);
    await reason.fill('no');
    await reason.evaluate((input: HTMLInputElement) => input.removeAttribute('minlength'));
    await page.getByRole('form', { name: `Release charge ${never.reference}` }).getByRole('button', { name: 'Release' }).click();
    await expect.poll(() => reason.getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    expect(await axeViolations(page)).toEqual([]);
    await reason.fill('bank confirms no debit');
    await page.getByRole('form', { name: `Release charge ${never.reference}` }).getByRole('button', { name: 'Release' }).click();
    await expect.poll(() => page.getByText(`Charge ${never.reference} released: it will not be sent again.`).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await stored(never.repaymentId)).toMatchObject({ status: 'failed', failureReason: 'released_by_staff: bank confirms no debit' });
    await expect.poll(() => page.getByText('No charge needs a person.').isVisible(), { timeout: 10_000 }).toBe(true);
    await shot(page, 'charges-done-laptop');
  });

  it('at 360×640 the queue is cards, axe clean', async () => {
    const charge = await unknownCharge(false);
    const page = await financeInBrowser(PHONE, 'charges-phone');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Charges' }).click();
    await expect.poll(() => page.getByRole('button', { name: `Look up at the rail: ${charge.reference}` }).isVisible(), { timeout: 10_000 }).toBe(true);
    await page.getByRole('button', { name: `Look up at the rail: ${charge.reference}` }).click();
    await expect.poll(() => page.getByText(/no charge by this reference/).first().isVisible(), { timeout: 10_000 }).toBe(true);
    // The rail took nothing: "Apply" is gone, "Release" stays.
    expect(await page.getByRole('button', { name: `Apply: ${charge.reference}` }).count()).toBe(0);
    expect(await page.getByRole('form', { name: `Release charge ${charge.reference}` }).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'charges-phone');
  });

  it('failed settlements at 1280×800 and 360×640: counted on the home, retried once, axe clean', async () => {
    // A day whose settlement run failed (what the daily worker records).
    const until = clock.now();
    await recordSettlementFailure(app.platform.db, { organisationId: tenant.organisationId, mode: 'test', until, now: until, reason: 'the ledger was unreachable' });
    const phone = await financeInBrowser(PHONE, 'settlements-phone');
    await expect.poll(() => phone.getByRole('link', { name: /1\s*Failed settlements/ }).isVisible(), { timeout: 10_000 }).toBe(true);
    await phone.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settlements' }).click();
    await expect.poll(() => phone.getByText('the ledger was unreachable').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await axeViolations(phone)).toEqual([]);
    await shot(phone, 'settlements-phone');

    const page = await financeInBrowser(LAPTOP, 'settlements');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Settlements' }).click();
    await expect.poll(() => heading(page, 'Failed settlements').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.getByText('the ledger was unreachable').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'settlements-laptop');
    await page.getByRole('button', { name: /^Retry: / }).click();
    await expect.poll(() => page.getByText(/: run again: (settled|nothing was due)/).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.getByText('No settlement has failed.').isVisible(), { timeout: 10_000 }).toBe(true);
    const statuses = await app.platform.db.selectFrom('settlementStatements').select('status').where('organisationId', '=', tenant.organisationId).execute();
    expect(statuses.map((row) => row.status)).not.toContain('failed');
    await shot(page, 'settlements-done-laptop');
  });

  it('organisations for live mode at 1280×800 and 360×640: the checklist, refuse with a reason, enable as a proposal; axe clean', async () => {
    const owner = await signedInOwner(app);
    const name = (await app.platform.db.selectFrom('organisations').select('name').where('id', '=', owner.organisationId).executeTakeFirstOrThrow()).name;
    const page = await financeInBrowser(LAPTOP, 'live', 'admin');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Live mode' }).click();
    await expect.poll(() => heading(page, 'Organisations for live mode').isVisible(), { timeout: 10_000 }).toBe(true);
    const form = page.getByRole('form', { name: `Live mode for ${name}` }).last();
    await expect.poll(() => form.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'live-laptop');
    await form.getByLabel(`Reason for ${name}`).fill('no KYB documents yet');
    await form.getByRole('button', { name: 'Refuse' }).click();
    await expect.poll(() => page.getByText(`${name}: live mode refused for now; the partner sees the reason on its dashboard home.`).isVisible(), { timeout: 10_000 }).toBe(true);
    await form.getByLabel(`Reason for ${name}`).fill('KYB received, contract signed');
    await form.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => page.getByText(`${name}: proposed. Another admin must approve it under Proposals.`).isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => page.getByText('Awaiting approval').last().isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await form.getByRole('button', { name: 'Enable' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await shot(page, 'live-proposed-laptop');

    const phone = await financeInBrowser(PHONE, 'live-phone', 'admin');
    await phone.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Live mode' }).click();
    await expect.poll(() => phone.getByRole('form', { name: `Live mode for ${name}` }).last().isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await axeViolations(phone)).toEqual([]);
    await shot(phone, 'live-phone');
  });
});
