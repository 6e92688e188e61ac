import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmlScreens } from '../../server/integrations/aml';
import { inviteStaff } from '../../server/platform/domain/ops/staff-accounts';
import { fundPool } from '../../server/platform/domain/pools/pool';
import { axeViolations, launchChromium } from '../support/browser';
import { ensureOpsBundle, LAPTOP, opsShot, PHONE } from '../support/ops-browser';
import { GOOD_PASSWORD, uniqueEmail } from '../support/dashboard';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, consentFor, lendingTenant, type LendingTenant } from '../support/lifecycle';

/**
 * The console's "Insurance policies to record" in Chromium: the home counts them; a finance staff member records a
 * live policy (a file that is not a PDF is refused under its field), which becomes a proposal she cannot approve
 * herself and another staff member approves under Proposals; on a phone a test-mode policy is recorded at once.
 * At 1280×800 and 360×640, axe clean, no sideways scroll; screenshots in test-artifacts/ops/.
 */
const PDF = Buffer.from('%PDF-1.4\n% policy certificate\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

let app: TestApp;
let browser: Browser;
let tenant: LendingTenant;
beforeAll(async () => {
  ensureOpsBundle();
  app = await startTestApp({ env: { INSURANCE_LIVE_INSURER: 'leadway' } });
  tenant = await lendingTenant(app);
  await app.platform.db.transaction().execute((trx) =>
    fundPool(trx, { organisationId: tenant.organisationId, mode: 'live', code: 'MAIN', amountKobo: 1_000_000_000, now: new Date() }),
  );
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const shot = (page: Page, name: string) => opsShot(page, name);
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const policyOf = (loanId: string) => app.platform.db.selectFrom('loanInsurancePolicies').select(['id', 'status', 'policyReference']).where('loanId', '=', loanId).executeTakeFirstOrThrow();
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function liveDisbursedLoanId(): Promise<string> {
  const live = client(app, tenant.live);
  const before = app.platform.aml;
  app.platform.aml = new AmlScreens({ provider: 'fake', adapter: { screen: async () => ({ status: 'clear', detail: 'fake live provider: no match' }) } });
  let loanId: string;
  try {
    const pushed = await live.post('/v1/preapprovals', pushBody());
    const issued = await live.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    loanId = issued.body.data.id;
    expect((await live.post(`/v1/loans/${loanId}/accept-terms`, { consent: consentFor(issued.body.data.documentReference) })).status).toBe(200);
  } finally {
    app.platform.aml = before;
  }
  expect((await live.post(`/v1/loans/${loanId}/disburse`)).status).toBe(200);
  return loanId;
}

async function staffInBrowser(viewport: { width: number; height: number }, tag: string): Promise<Page> {
  const email = uniqueEmail(tag).toLowerCase();
  const invitation = await inviteStaff(
    { db: app.platform.db, clock: app.platform.clock, baseUrl: app.platform.baseUrl, passkeyAlways: false },
    { email, role: 'finance', invitedBy: { staffId: null, origin: { ip: null, userAgent: 'test' } } },
  );
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(invitation.link);
  await expect.poll(() => heading(page, 'Join the operations console').isVisible(), { timeout: 10_000 }).toBe(true);
  await page.getByLabel('New password').fill(GOOD_PASSWORD);
  await page.getByRole('button', { name: 'Join the console' }).click();
  await expect.poll(() => heading(page, "Today's queues").isVisible(), { timeout: 10_000 }).toBe(true);
  return page;
}

async function openInsurance(page: Page) {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Insurance' }).click();
  await expect.poll(() => heading(page, 'Insurance policies to record').isVisible(), { timeout: 10_000 }).toBe(true);
}

describe('insurance policies to record, in the browser', { timeout: 180_000 }, () => {
  it('at 1280×800: counted on the home; a live policy is proposed by one staff member and put in force by another', async () => {
    const loanId = await liveDisbursedLoanId();
    const first = await staffInBrowser(LAPTOP, 'insurance-a');
    await expect.poll(() => first.getByRole('link', { name: /1\s*Insurance policies to record/ }).isVisible(), { timeout: 10_000 }).toBe(true);
    await openInsurance(first);
    const form = first.getByRole('form', { name: `Record the policy for loan ${loanId}` });
    await expect.poll(() => form.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await axeViolations(first)).toEqual([]);
    expect(await noSidewaysScroll(first)).toBe(true);
    await shot(first, 'insurance-laptop');

    // A file that is not a PDF: refused under the document field, nothing recorded.
    await form.getByLabel('Policy number').fill('LW/CL/2026/000777');
    await form.getByLabel(/Policy document/).setInputFiles({ name: 'policy.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not really a pdf') });
    await form.getByRole('button', { name: 'Record' }).click();
    await expect.poll(() => form.getByLabel(/Policy document/).getAttribute('aria-invalid'), { timeout: 10_000 }).toBe('true');
    await expect.poll(() => form.getByText(/must be a PDF/).isVisible()).toBe(true);
    expect(await axeViolations(first)).toEqual([]);
    await shot(first, 'insurance-not-pdf-laptop');
    expect((await policyOf(loanId)).status).toBe('pending');

    await form.getByLabel(/Policy document/).setInputFiles({ name: 'policy.pdf', mimeType: 'application/pdf', buffer: PDF });
    await form.getByRole('button', { name: 'Record' }).click();
    await expect.poll(() => first.getByText('Proposed: another staff member must approve it under Proposals.').isVisible(), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => first.getByText('Awaiting approval').isVisible(), { timeout: 10_000 }).toBe(true);
    expect((await policyOf(loanId)).status).toBe('pending');
    await shot(first, 'insurance-proposed-laptop');

    // The proposer may not approve it.
    await first.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Proposals' }).click();
    await expect.poll(() => first.getByText('LW/CL/2026/000777').isVisible(), { timeout: 10_000 }).toBe(true);
    await first.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => first.getByText(/another staff member must approve it/i).isVisible(), { timeout: 10_000 }).toBe(true);
    expect((await policyOf(loanId)).status).toBe('pending');

    const second = await staffInBrowser(LAPTOP, 'insurance-b');
    await second.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Proposals' }).click();
    await expect.poll(() => second.getByText('Record insurance policy').isVisible(), { timeout: 10_000 }).toBe(true);
    // The approver can open the document the proposal would record.
    const href = await second.getByRole('link', { name: 'Policy document' }).getAttribute('href');
    const document = await second.request.get(new URL(href!, second.url()).toString());
    expect([document.status(), document.headers()['content-type']]).toEqual([200, 'application/pdf']);
    expect(await axeViolations(second)).toEqual([]);
    await shot(second, 'insurance-proposal-laptop');
    await second.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => second.getByText('Approved: it took effect.').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await policyOf(loanId)).toMatchObject({ status: 'active', policyReference: 'LW/CL/2026/000777' });
  });

  it('at 360×640: a test-mode policy is recorded at once; cards, axe clean, no sideways scroll', async () => {
    // The sandbox insurer leaves a principal ending in 77 kobo pending, as live cover bound by hand is.
    const { loan } = await acceptedLoan(app, tenant, { amount: 150000.77 });
    expect((await client(app, tenant.test).post(`/v1/loans/${loan.id}/disburse`)).status).toBe(200);
    const phone = await staffInBrowser(PHONE, 'insurance-phone');
    await openInsurance(phone);
    const form = phone.getByRole('form', { name: `Record the policy for loan ${loan.id}` });
    await expect.poll(() => form.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await axeViolations(phone)).toEqual([]);
    expect(await noSidewaysScroll(phone)).toBe(true);
    await shot(phone, 'insurance-phone');

    await form.getByLabel('Policy number').fill('SBX 77/2026');
    await form.getByLabel(/Policy document/).setInputFiles({ name: 'policy.pdf', mimeType: 'application/pdf', buffer: PDF });
    await form.getByRole('button', { name: 'Record' }).click();
    await expect.poll(() => phone.getByText('Policy recorded: it is active.').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await policyOf(loan.id)).toMatchObject({ status: 'active', policyReference: 'SBX 77/2026' });
    await expect.poll(() => form.count(), { timeout: 10_000 }).toBe(0);
    expect(await axeViolations(phone)).toEqual([]);
    expect(await noSidewaysScroll(phone)).toBe(true);
    await shot(phone, 'insurance-recorded-phone');
  });
});
