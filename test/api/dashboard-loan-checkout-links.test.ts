import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { signedInOwner, type DashboardClient } from '../support/dashboard';
import { productInput } from '../support/factories';
import { sessionClient, tokenOf, uniquePhone } from '../support/checkout';

/** A loan's checkout link from the dashboard: a new link to pass on, or a new link texted to the borrower's phone on record. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

type Owner = DashboardClient & { organisationId: string };

/** An owner whose organisation issues offers automatically, and one offered loan for a borrower at `phone`. */
async function offeredLoanFromDashboard(phone: string): Promise<{ owner: Owner; loanId: string; applicationUrl: string }> {
  const owner = await signedInOwner(app);
  const product = await owner.post('/products', productInput({ approvalMode: 'partner_pushed' }));
  expect((await owner.send('PATCH', '/organisation/settings', { defaultPreapprovalProductId: product.json.data.id, autoIssueOffers: true })).status).toBe(200);
  const key = (await owner.post('/keys', {})).json.data;
  const api = client(app, { publicKey: key.publicKey, secretKey: key.secretKey });
  const pushed = await api.post('/v1/preapprovals', pushBody({ phone }));
  expect(pushed.body.data.status).toBe('offer_issued');
  const loanId = (await api.get(`/v1/preapprovals/${pushed.body.data.preapprovalId}`)).body.data.loanId as string;
  const loan = (await api.get(`/v1/loans/${loanId}`)).body.data;
  return { owner, loanId: loan.id, applicationUrl: loan.applicationUrl };
}

const texts = async (phone: string) => (await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.data.messages as { body: string }[];
const auditOf = async (organisationId: string) =>
  (await app.platform.db.selectFrom('dashboardAuditLog').select(['action', 'target']).where('organisationId', '=', organisationId).where('action', 'like', 'checkout_link_%').orderBy('at').execute());

describe('dashboard: a loan checkout link', () => {
  it('when an owner makes a new link, then it opens the borrower checkout of that loan, is not cached, and is audited', async () => {
    const { owner, loanId, applicationUrl } = await offeredLoanFromDashboard(uniquePhone());
    const page = await owner.get(`/loans/${loanId}`);
    expect(page.json.data.loan.applicationUrl).toBe(applicationUrl);

    const made = await owner.post(`/loans/${loanId}/checkout-link`, {});
    expect(made.status).toBe(201);
    expect(made.headers.get('cache-control')).toBe('no-store');
    expect(made.json.data.url).toContain('cs_test_');
    expect(made.json.data.url).not.toBe(applicationUrl);
    const state = await sessionClient(app, tokenOf(made.json.data.url)).get('/v1/checkout/session');
    expect(state.status).toBe(200);
    expect(await auditOf(owner.organisationId)).toEqual([{ action: 'checkout_link_created', target: `loan:${loanId}` }]);
  });

  it('when an owner texts the borrower a new link, then it goes to the loan phone only, replaces applicationUrl, and a second one within 10 minutes is 429 checkout_renew_limit', async () => {
    const phone = uniquePhone();
    const { owner, loanId, applicationUrl } = await offeredLoanFromDashboard(phone);
    const before = (await texts(phone)).length;

    const sent = await owner.post(`/loans/${loanId}/checkout-link/text`, {});
    expect(sent.status).toBe(200);
    expect(sent.json.data.sentTo).toBe(`•••• ${phone.slice(-4)}`);
    const inbox = await texts(phone);
    expect(inbox.length).toBe(before + 1);
    const renewed = (await owner.get(`/loans/${loanId}`)).json.data.loan.applicationUrl as string;
    expect(renewed).not.toBe(applicationUrl);
    expect(inbox[0]!.body).toContain(renewed);

    const again = await owner.post(`/loans/${loanId}/checkout-link/text`, {});
    expect(again.status).toBe(429);
    expect(again.json.error).toBe('checkout_renew_limit');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await texts(phone)).length).toBe(before + 1);
    expect(await auditOf(owner.organisationId)).toEqual([{ action: 'checkout_link_texted', target: `loan:${loanId}` }]);
  });

  it('when a role without loans.act, another organisation or a bad body asks, then it is refused and nothing is sent or minted', async () => {
    const phone = uniquePhone();
    const { owner, loanId } = await offeredLoanFromDashboard(phone);
    const other = await signedInOwner(app);
    const sessions = async () => (await app.platform.db.selectFrom('checkoutSessions').select('id').where('loanId', '=', loanId).execute()).length;
    const minted = await sessions();
    const before = (await texts(phone)).length;

    for (const path of ['checkout-link', 'checkout-link/text']) {
      expect((await other.post(`/loans/${loanId}/${path}`, {})).status).toBe(404);
      const bad = await owner.post(`/loans/${loanId}/${path}`, { phone: '+2348000000000' });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toBe('invalid_request');
    }
    await app.platform.db.updateTable('dashboardMemberships').set({ role: 'developer' }).where('organisationId', '=', owner.organisationId).execute();
    for (const path of ['checkout-link', 'checkout-link/text']) {
      const refused = await owner.post(`/loans/${loanId}/${path}`, {});
      expect(refused.status).toBe(403);
      expect(refused.json.data).toEqual({ action: 'loans.act', role: 'developer' });
    }
    // The link opens the borrower's checkout: a role that cannot send it does not see it either.
    expect((await owner.get(`/loans/${loanId}`)).json.data.loan.applicationUrl).toBeNull();
    expect(await sessions()).toBe(minted);
    expect((await texts(phone)).length).toBe(before);
    expect(await auditOf(owner.organisationId)).toEqual([]);
  });
});
