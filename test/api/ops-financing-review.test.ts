import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromJson } from '../../server/platform/db/database';
import { expireFinancingApplications } from '../../server/platform/domain/financing/expire-financing';
import { memberOf } from '../support/dashboard-members';
import { bvnEnding, fundFinancingPool, identity, initiatedApplication, verifyOtp } from '../support/financing';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { staffMember } from '../support/ops';

/**
 * A patient-financing approval is screened (AML) before it is approved: a screen that is not clear (here the
 * sandbox's sanctions-list name) parks the loan for the service's staff. The partner never sees that review (API,
 * dashboard, loan page); staff clear it in the console (the application is approved as an automatic pass would
 * have) or reject it (the application is rejected with the reason), and `review.opened` / `review.closed` are recorded
 * for staff only.
 */
let app: TestApp;
let partner: Tenant;

beforeAll(async () => {
  app = await startTestApp();
  partner = await createTenant(app, { loanTenant: true });
  await fundFinancingPool(app, 1_000_000_000);
});
afterAll(() => app.stop());

/** An application whose identity matched, approved by the credit policy, whose applicant the sandbox screen matches. */
async function parkedApplication() {
  const { initiation, session, phone } = await initiatedApplication(app, partner);
  await verifyOtp(app, session, phone);
  const decided = await session.post('/v1/checkout/financing/identity', identity(bvnEnding('6'), { fullName: 'Ada Sanctioned' }));
  expect(decided.status).toBe(200);
  return { loanId: initiation.sdkReference, session, decided: decided.body.data };
}

async function sdkEvents(loanId: string) {
  const rows = await app.platform.db.selectFrom('events').select(['name', 'api', 'payload']).where('organisationId', '=', partner.organisationId).orderBy('id').execute();
  return rows.filter((row) => {
    const data = fromJson<Record<string, unknown>>(row.payload) ?? {};
    return data.sdkReference === loanId || data.loanId === loanId;
  });
}

describe('a financing approval waits for a person when the screen is not clear', () => {
  it('parks the application with a service review the partner cannot see; nothing is offered', async () => {
    const { loanId, session, decided } = await parkedApplication();
    expect(decided).toMatchObject({ status: 'application_submitted', options: null });
    const state = (await session.get('/v1/checkout/session')).body.data;
    expect(state.status).toBe('waiting_for_lender');
    expect((await session.post('/v1/checkout/financing/tenor', { tenorMonths: 3 })).body.error).toBe('invalid_loan_state');

    const loan = await app.platform.db.selectFrom('loans').select(['status']).where('id', '=', loanId).executeTakeFirstOrThrow();
    expect(loan.status).toBe('under_review');
    const review = await app.platform.db.selectFrom('loanReviews').selectAll().where('loanId', '=', loanId).executeTakeFirstOrThrow();
    expect(review).toMatchObject({ decidedBy: 'service', openedReason: 'aml_hit', status: 'open', resumeWith: 'pending' });
    const screen = await app.platform.db.selectFrom('kycAttestations').select(['amlScreenStatus']).where('loanId', '=', loanId).execute();
    expect(screen.map((s) => s.amlScreenStatus)).toEqual(['hit']);

    // The partner's API does not list it (the partner lends too: its own loans' reviews are its).
    const listed = await client(app, partner.test).get(`/v1/reviews?loanId=${loanId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.reviews).toEqual([]);
    expect((await client(app, partner.test).get(`/v1/reviews/${review.id}`)).status).toBe(404);
    const events = await sdkEvents(loanId);
    expect(events.filter((e) => e.name === 'review.opened').map((e) => e.api)).toEqual(['staff']);
    expect(events.filter((e) => e.api === 'sdk').map((e) => e.name)).toEqual(['loan.initiated', 'loan.application.submitted']);
  });

  it('staff clear it in the console: the application is approved with its tenor options, loan.approved goes out, the patient chooses a tenor', async () => {
    const { loanId, session } = await parkedApplication();
    const compliance = await staffMember(app, 'compliance');
    const queue = await compliance.send('GET', '/reviews?limit=100');
    const item = queue.json.data.find((row: { loanId: string }) => row.loanId === loanId);
    expect(item).toMatchObject({ decidedBy: 'service', openedReason: 'aml_hit', organisationId: partner.organisationId });

    const short = await compliance.send('POST', `/reviews/${item.id}/decide`, { decision: 'clear', reason: 'x' });
    expect(short.status).toBe(400);
    expect((await app.platform.db.selectFrom('loans').select('status').where('id', '=', loanId).executeTakeFirstOrThrow()).status).toBe('under_review');

    const cleared = await compliance.send('POST', `/reviews/${item.id}/decide`, { decision: 'clear', reason: 'False positive: different date of birth' });
    expect(cleared.status).toBe(200);
    expect(cleared.json.data.review).toMatchObject({ status: 'closed', closedReason: 'cleared', closedBy: `staff:${compliance.email}` });
    expect(cleared.json.data.loan.status).toBe('pending');

    const view = (await session.get('/v1/checkout/session')).body.data.financing;
    expect(view.status).toBe('approved');
    expect(view.options.length).toBeGreaterThan(0);
    const events = await sdkEvents(loanId);
    expect(events.filter((e) => e.api === 'staff').map((e) => e.name)).toEqual(['review.opened', 'review.closed']);
    expect(fromJson<Record<string, unknown>>(events.find((e) => e.name === 'review.closed')!.payload)).toMatchObject({ closedReason: 'cleared' });
    expect(events.filter((e) => e.api === 'sdk').map((e) => e.name)).toEqual(['loan.initiated', 'loan.application.submitted', 'loan.approved']);

    const chosen = await session.post('/v1/checkout/financing/tenor', { tenorMonths: view.options[0].tenorMonths });
    expect(chosen.status).toBe(200);
    expect((await app.platform.db.selectFrom('loans').select('status').where('id', '=', loanId).executeTakeFirstOrThrow()).status).toBe('awaiting_acceptance');

    const audit = await compliance.send('GET', '/audit?limit=20');
    expect(audit.json.data.find((row: { action: string; target: string }) => row.action === 'review_cleared' && row.target.includes(loanId))).toBeTruthy();
    // Decided once: the same decision again is the review as it is; the other one is refused.
    expect((await compliance.send('POST', `/reviews/${item.id}/decide`, { decision: 'reject', reason: 'Changed my mind' })).json.error).toBe('review_closed');
  });

  it('staff reject it: the application is rejected with the reason (loan.rejected), the loan too', async () => {
    const { loanId, session } = await parkedApplication();
    const compliance = await staffMember(app, 'compliance');
    const review = await app.platform.db.selectFrom('loanReviews').select('id').where('loanId', '=', loanId).executeTakeFirstOrThrow();
    const support = await staffMember(app, 'support');
    expect((await support.send('POST', `/reviews/${review.id}/decide`, { decision: 'reject', reason: 'Listed person' })).status).toBe(403);

    const rejected = await compliance.send('POST', `/reviews/${review.id}/decide`, { decision: 'reject', reason: 'Confirmed sanctions-list match' });
    expect(rejected.status).toBe(200);
    expect(rejected.json.data.loan).toMatchObject({ status: 'rejected', rejectionReason: 'Confirmed sanctions-list match' });
    expect(rejected.json.data.review).toMatchObject({ closedReason: 'rejected', note: 'Confirmed sanctions-list match' });
    // The patient and the partner learn that a person declined it, not the compliance reason.
    const view = (await session.get('/v1/checkout/session')).body.data;
    expect(view.status).toBe('closed');
    expect(view.financing).toMatchObject({ status: 'rejected', rejectionReason: 'declined_on_review', options: null });
    const status = await client(app, partner.test).get(`/api/v1/sdk/loans/${loanId}`);
    expect(status.body.data.status).toBe('rejected');
    const events = await sdkEvents(loanId);
    expect(events.filter((e) => e.api === 'sdk').map((e) => e.name)).toEqual(['loan.initiated', 'loan.application.submitted', 'loan.rejected']);
    expect(fromJson<Record<string, unknown>>(events.find((e) => e.name === 'loan.rejected')!.payload)).toMatchObject({ reason: 'declined_on_review' });
    expect(events.filter((e) => e.api === 'staff').map((e) => e.name)).toEqual(['review.opened', 'review.closed']);
  });

  it('the partner\'s dashboard lists no such review, and its loan page shows no review event', async () => {
    const { loanId } = await parkedApplication();
    const owner = await memberOf(app, partner.organisationId, 'owner');
    const page = await owner.get('/reviews?status=open&limit=100');
    expect(page.status).toBe(200);
    expect(page.json.data.map((row: { loanId: string }) => row.loanId)).not.toContain(loanId);
    const loanPage = await owner.get(`/loans/${loanId}`);
    expect(loanPage.status).toBe(200);
    expect(JSON.stringify(loanPage.json.data)).not.toContain('review.');
  });

  it('the console\'s loan page shows the loan across organisations, its service review and staff-only events, and offers deciding the review', async () => {
    const { loanId } = await parkedApplication();
    const support = await staffMember(app, 'support');
    const page = await support.send('GET', `/loans/${loanId}`);
    expect(page.status).toBe(200);
    const review = await app.platform.db.selectFrom('loanReviews').select('id').where('loanId', '=', loanId).executeTakeFirstOrThrow();
    expect(page.json.data).toMatchObject({
      loan: { id: loanId, status: 'under_review', applicationUrl: null, principalKobo: 15_000_000 },
      organisation: { id: partner.organisationId },
      mode: 'test',
      reviews: [{ id: review.id, decidedBy: 'service', openedReason: 'aml_hit', status: 'open' }],
      actions: { openReviewId: review.id, writeOff: false, proposalId: null },
    });
    expect(page.json.data.events.map((e: { name: string }) => e.name)).toContain('review.opened');
    expect(page.json.data).not.toHaveProperty('offerLetter');
    // Read-only for support: deciding needs the reviews permission.
    expect((await support.send('POST', `/reviews/${review.id}/decide`, { decision: 'clear', reason: 'looks fine' })).status).toBe(403);

    expect((await support.send('GET', '/loans/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await support.send('GET', '/loans/not-a-loan')).json.error).toBe('invalid_request');
    const anonymous = await fetch(`${app.url}/ops/api/loans/${loanId}`);
    expect(anonymous.status).toBe(401);
  });

  it('an application that expires while its decision waits: the loan is cancelled and the review closes cancelled', async () => {
    const { loanId } = await parkedApplication();
    const past = new Date(Date.now() - 60_000).toISOString();
    await app.platform.db.updateTable('financingApplications').set({ expiresAt: past }).where('id', '=', loanId).execute();
    expect(await expireFinancingApplications(app.platform.db, new Date())).toBeGreaterThanOrEqual(1);
    expect((await app.platform.db.selectFrom('financingApplications').select('status').where('id', '=', loanId).executeTakeFirstOrThrow()).status).toBe('expired');
    expect(await app.platform.db.selectFrom('loans').select(['status', 'cancellationReason']).where('id', '=', loanId).executeTakeFirstOrThrow()).toEqual({ status: 'cancelled', cancellationReason: 'expired' });
    expect(await app.platform.db.selectFrom('loanReviews').select(['status', 'closedReason']).where('loanId', '=', loanId).executeTakeFirstOrThrow()).toEqual({ status: 'closed', closedReason: 'cancelled' });
    const events = await sdkEvents(loanId);
    expect(events.filter((e) => e.api === 'staff').map((e) => e.name)).toEqual(['review.opened', 'review.closed']);
    expect(events.filter((e) => e.api === 'sdk').map((e) => e.name)).toEqual(['loan.initiated', 'loan.application.submitted', 'loan.cancelled']);
  });

  it('a clear screen approves at once and keeps the screen as the loan\'s evidence', async () => {
    const { initiation, session, phone } = await initiatedApplication(app, partner);
    await verifyOtp(app, session, phone);
    const decided = await session.post('/v1/checkout/financing/identity', identity(bvnEnding('6')));
    expect(decided.body.data.status).toBe('approved');
    const screen = await app.platform.db.selectFrom('kycAttestations').select(['amlScreenStatus']).where('loanId', '=', initiation.sdkReference).execute();
    expect(screen.map((s) => s.amlScreenStatus)).toEqual(['clear']);
    expect(await app.platform.db.selectFrom('loanReviews').select('id').where('loanId', '=', initiation.sdkReference).execute()).toEqual([]);
  });
});
