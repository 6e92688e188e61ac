import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { enableLive, memberOf, setRole } from '../support/dashboard-members';
import { eventsOf, lendingTenant, type LendingTenant } from '../support/lifecycle';

/**
 * The dashboard's reviews on the server: every role reads the queue; owners, admins and compliance members decide —
 * through the API's own use cases, audited — and analysts and developers are refused before anything changes.
 */
let app: TestApp;
let tenant: LendingTenant;
let other: LendingTenant;
beforeAll(async () => {
  app = await startTestApp();
  [tenant, other] = [await lendingTenant(app), await lendingTenant(app)];
  await enableLive(app, tenant.organisationId);
  await enableLive(app, other.organisationId);
});
afterAll(() => app.stop());

/** A live pushed decision waiting for a person (no live AML provider): the loan id. */
async function parkedLoan(of: LendingTenant = tenant): Promise<string> {
  const api = client(app, of.live);
  const pushed = await api.post('/v1/preapprovals', pushBody({ lastName: 'Okafor' }));
  const issued = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
  expect(issued.body.data.status).toBe('under_review');
  return issued.body.data.id;
}

async function liveMember(role: Parameters<typeof memberOf>[2], of: LendingTenant = tenant) {
  const member = await memberOf(app, of.organisationId, role, role);
  member.mode = 'live';
  return member;
}

const auditRows = (organisationId: string) =>
  app.platform.db.selectFrom('dashboardAuditLog').select(['action', 'target', 'userId']).where('organisationId', '=', organisationId).orderBy('at').orderBy('id').execute();

describe('dashboard reviews', () => {
  it('the queue lists open reviews with their loan (amount, masked name), filters by status and reason, and pages by keyset', async () => {
    const first = await parkedLoan();
    const second = await parkedLoan();
    const analyst = await liveMember('analyst');
    const page = await analyst.get('/reviews?status=open&reason=aml_not_screened&limit=1');
    expect(page.status).toBe(200);
    expect(page.json.data).toHaveLength(1);
    expect(page.json.data[0]).toMatchObject({ loanId: second, status: 'open', openedReason: 'aml_not_screened', evidence: { amlScreenStatus: 'pending' } });
    expect(page.json.data[0].loan).toMatchObject({ id: second, status: 'under_review', principalKobo: 15_000_050, borrowerName: 'Ada O.' });
    const next = await analyst.get(`/reviews?status=open&limit=1&cursor=${encodeURIComponent(page.json.nextCursor)}`);
    expect(next.json.data[0].loanId).toBe(first);
    expect((await analyst.get('/reviews?reason=aml_hit')).json.data.filter((r: { loanId: string }) => r.loanId === first)).toHaveLength(0);
    expect((await analyst.get(`/reviews?loanId=${first}`)).json.data.map((r: { loanId: string }) => r.loanId)).toEqual([first]);
    expect((await analyst.get('/reviews?reason=because')).json).toMatchObject({ error: 'invalid_request' });
    expect((await analyst.get('/reviews?cursor=nonsense')).status).toBe(400);
    // Test mode holds none of live's reviews.
    analyst.mode = 'test';
    expect((await analyst.get('/reviews')).json.data).toEqual([]);
  });

  it('an analyst’s or a developer’s decision is 403 and changes nothing; a compliance member clears, audited, and the loan goes on', async () => {
    const loanId = await parkedLoan();
    const compliance = await liveMember('compliance');
    const review = (await compliance.get(`/reviews?loanId=${loanId}`)).json.data[0];

    for (const role of ['analyst', 'developer'] as const) {
      const member = await liveMember(role);
      const refused = await member.post(`/reviews/${review.id}/clear`, { reason: 'I looked at it' });
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ error: 'dashboard_permission_denied', data: { action: 'reviews.decide', role } });
    }
    expect((await compliance.get(`/reviews?loanId=${loanId}`)).json.data[0].status).toBe('open');

    const tooShort = await compliance.post(`/reviews/${review.id}/clear`, { reason: ' o ' });
    expect(tooShort.status).toBe(400);
    expect(tooShort.json).toMatchObject({ error: 'invalid_request', data: { field: 'reason' } });

    const cleared = await compliance.post(`/reviews/${review.id}/clear`, { reason: 'Screened by hand against the sanctions lists' });
    expect(cleared.status).toBe(200);
    expect(cleared.json.data).toMatchObject({ changed: true, review: { status: 'closed', closedReason: 'cleared', closedBy: `user:${compliance.userId}` }, loan: { status: 'awaiting_acceptance' } });
    const names = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loanId).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['review.opened', 'loan.offer.issued', 'review.closed']));
    expect(await auditRows(tenant.organisationId)).toContainEqual({ action: 'review_cleared', target: `review:${review.id} loan:${loanId}`, userId: compliance.userId });

    // Again the same way: the same answer, no second audit row; the other way: 409 review_closed.
    const again = await compliance.post(`/reviews/${review.id}/clear`, { reason: 'again' });
    expect(again.json.data.changed).toBe(false);
    expect((await auditRows(tenant.organisationId)).filter((row) => row.action === 'review_cleared' && row.target?.startsWith(`review:${review.id}`))).toHaveLength(1);
    expect((await compliance.post(`/reviews/${review.id}/reject`, { reason: 'changed my mind' })).json.error).toBe('review_closed');

    // The closed review says who decided, when and why.
    const closed = (await compliance.get(`/reviews?status=closed&loanId=${loanId}`)).json.data[0];
    expect(closed).toMatchObject({ closedReason: 'cleared', note: 'Screened by hand against the sanctions lists', closedAt: expect.any(String) });
  });

  it('an owner rejects: the loan is rejected with the reason; a compliance member reads the audit log but not keys or team', async () => {
    const loanId = await parkedLoan();
    const owner = await liveMember('owner');
    const review = (await owner.get(`/reviews?loanId=${loanId}`)).json.data[0];
    const rejected = await owner.post(`/reviews/${review.id}/reject`, { reason: 'Confirmed match on a sanctions list' });
    expect(rejected.json.data).toMatchObject({ loan: { status: 'rejected', rejectionReason: 'Confirmed match on a sanctions list' }, review: { closedReason: 'rejected' } });
    expect(await auditRows(tenant.organisationId)).toContainEqual({ action: 'review_rejected', target: `review:${review.id} loan:${loanId}`, userId: owner.userId });

    const compliance = await liveMember('compliance');
    expect((await compliance.get('/audit-log?action=review_rejected')).status).toBe(200);
    for (const path of ['/keys', '/team/members']) expect((await compliance.get(path)).json.error).toBe('dashboard_permission_denied');
    expect((await compliance.post(`/loans/${loanId}/approve`, {})).json.error).toBe('dashboard_permission_denied');
  });

  it('another organisation’s review answers 404 and stays open; a member whose role changes to analyst is refused at once', async () => {
    const loanId = await parkedLoan(other);
    const theirs = await liveMember('owner', other);
    const review = (await theirs.get(`/reviews?loanId=${loanId}`)).json.data[0];
    const mine = await liveMember('compliance');
    expect((await mine.post(`/reviews/${review.id}/clear`, { reason: 'not mine to decide' })).status).toBe(404);
    expect((await mine.get(`/reviews?loanId=${loanId}`)).json.data).toEqual([]);

    await setRole(app, theirs.userId, 'analyst');
    expect((await theirs.post(`/reviews/${review.id}/clear`, { reason: 'no longer allowed' })).status).toBe(403);
    expect((await theirs.get(`/reviews?loanId=${loanId}`)).json.data[0].status).toBe('open');
  });

  it('a compliance member can be invited from the team page', async () => {
    const owner = await liveMember('owner');
    const invited = await owner.post('/team/invitations', { email: `compliance-${Date.now()}@clinic.example`, role: 'compliance' });
    expect(invited.status).toBe(201);
    expect(invited.json.data.role).toBe('compliance');
  });
});
