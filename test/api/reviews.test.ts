import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../../server/platform/domain/products/product';
import { createOperatorLoan } from '../../server/platform/domain/loans/create-operator-loan';
import { createApiKey } from '../../server/platform/domain/api-keys/api-key';
import { productInput } from '../support/factories';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { consentFor, eventsOf, lendingTenant, type LendingTenant } from '../support/lifecycle';

/**
 * Reviews: a loan that must wait for a person (here: live mode without an AML provider, so no borrower is screened
 * clear) opens a review the partner lists, reads and decides over its API — cleared, the loan goes on as an automatic
 * pass would have; rejected, the loan is rejected — with `review.opened`/`review.closed` in the event log; the operator
 * CLI decides too. The live screen check accepts a cleared review and nothing less.
 */
const exec = promisify(execFile);
let app: TestApp;
let tenant: LendingTenant;
let other: LendingTenant;
let bundle: string;
beforeAll(async () => {
  app = await startTestApp();
  [tenant, other] = [await lendingTenant(app), await lendingTenant(app)];
  bundle = path.resolve('dist', `test-cli-reviews-${path.basename(app.dataDir)}`, 'admin.js');
  await build({ entryPoints: ['server/cli/admin.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile: bundle, logLevel: 'warning' });
});
afterAll(async () => {
  fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
  await app.stop();
});

const live = () => client(app, tenant.live);

async function admin(...args: string[]) {
  const result = await execFile_(args);
  const lines = result.stdout.trim().split('\n').filter(Boolean);
  expect(lines, `stdout must hold exactly one JSON object: ${result.stdout} ${result.stderr}`).toHaveLength(1);
  return { code: result.code, json: JSON.parse(lines[0]!) };
}
async function execFile_(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, ...app.env, LOG_LEVEL: 'warn' };
  const result = await exec(process.execPath, [bundle, ...args, '--json'], { env, timeout: 60_000 }).catch((e) => e);
  return { code: result.code ?? 0, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** A live pushed decision whose offer waits for a person (no live AML provider): the loan and its open review. */
async function parkedLivePush(api = live()) {
  const pushed = await api.post('/v1/preapprovals', pushBody());
  expect(pushed.status).toBe(202);
  const issued = await api.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
  expect(issued.body.data.status).toBe('under_review');
  const reviews = await api.get(`/v1/reviews?loanId=${issued.body.data.id}`);
  expect(reviews.body.data.reviews).toHaveLength(1);
  return { loan: issued.body.data, preapprovalId: pushed.body.data.preapprovalId as string, review: reviews.body.data.reviews[0] };
}

describe('reviews over the partner API', () => {
  it('a live push with no AML provider opens a review with the screen as evidence; clearing it issues the offer and the borrower can accept', async () => {
    const { loan, preapprovalId, review } = await parkedLivePush();
    expect(review).toMatchObject({ loanId: loan.id, status: 'open', openedReason: 'aml_not_screened', closedReason: null, evidence: { amlScreenStatus: 'pending' } });
    const open = await live().get('/v1/reviews?status=open');
    expect(open.body.data.reviews.map((r: { id: string }) => r.id)).toContain(review.id);
    expect((await live().get(`/v1/reviews/${review.id}`)).body.data).toMatchObject({ id: review.id, evidence: { amlScreenDetail: expect.stringMatching(/no live AML/) } });

    const cleared = await live().post(`/v1/reviews/${review.id}/clear`, { reason: 'Checked the borrower against the sanctions lists by hand' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.review).toMatchObject({ status: 'closed', closedReason: 'cleared', note: 'Checked the borrower against the sanctions lists by hand', closedBy: expect.stringMatching(/^pk_live_/) });
    expect(cleared.body.data.loan).toMatchObject({ status: 'awaiting_acceptance', documentReference: expect.any(String), applicationUrl: expect.any(String) });
    expect((await live().get(`/v1/preapprovals/${preapprovalId}`)).body.data.status).toBe('offer_issued');

    const names = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loan.id).map((e) => e.name);
    expect(names).toEqual(['loan.kyc.attested', 'review.opened', 'loan.approved', 'loan.offer.issued', 'review.closed']);
    const closedEvent = (await eventsOf(app, tenant.organisationId)).find((e) => e.name === 'review.closed' && e.data.loanId === loan.id)!;
    expect(closedEvent.data).toMatchObject({ reviewId: review.id, closedReason: 'cleared', status: 'awaiting_acceptance' });

    // The same decision again answers the same; the other decision is refused.
    expect((await live().post(`/v1/reviews/${review.id}/clear`, { reason: 'again' })).status).toBe(200);
    const flip = await live().post(`/v1/reviews/${review.id}/reject`, { reason: 'changed my mind' });
    expect(flip.status).toBe(409);
    expect(flip.body.error).toBe('review_closed');

    const accepted = await live().post(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(cleared.body.data.loan.documentReference) });
    expect(accepted.status).toBe(200);
  });

  it('rejecting a review rejects the loan with the reason', async () => {
    const { loan, review } = await parkedLivePush();
    const rejected = await live().post(`/v1/reviews/${review.id}/reject`, { reason: 'Confirmed match on a sanctions list' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.loan).toMatchObject({ status: 'rejected', rejectionReason: 'Confirmed match on a sanctions list' });
    expect(rejected.body.data.review).toMatchObject({ closedReason: 'rejected' });
    expect((await live().post(`/v1/reviews/${review.id}/clear`, { reason: 'not after all' })).body.error).toBe('review_closed');
    const closed = (await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'review.closed' && e.data.loanId === loan.id);
    expect(closed.map((e) => e.data.closedReason)).toEqual(['rejected']);
  });

  it('a decision needs a reason; bad input and another organisation’s review change nothing', async () => {
    const { review } = await parkedLivePush();
    const noReason = await live().post(`/v1/reviews/${review.id}/clear`, {});
    expect(noReason.status).toBe(400);
    expect(noReason.body.error).toBe('invalid_request');
    expect((await client(app, other.live).post(`/v1/reviews/${review.id}/clear`, { reason: 'not mine to decide' })).status).toBe(404);
    expect((await client(app, other.live).get(`/v1/reviews/${review.id}`)).status).toBe(404);
    expect((await client(app, tenant.test).get(`/v1/reviews/${review.id}`)).status).toBe(404);
    expect((await live().get(`/v1/reviews/${review.id}`)).body.data.status).toBe('open');
  });

  it('a key without reviews:write cannot decide (403 insufficient_scope); with reviews:read it reads, and loans:write alone reaches no review', async () => {
    const { review } = await parkedLivePush();
    const restricted = await createApiKey(app.platform.db, app.platform.secrets, { organisationId: tenant.organisationId, mode: 'live', scopes: ['reviews:read'], now: new Date() });
    const reader = client(app, { publicKey: restricted.publicKey, secretKey: restricted.secretKey });
    expect((await reader.get(`/v1/reviews/${review.id}`)).status).toBe(200);
    const refused = await reader.post(`/v1/reviews/${review.id}/clear`, { reason: 'an analyst may not decide' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'insufficient_scope', data: { requiredScope: 'reviews:write' } });
    const loansKey = await createApiKey(app.platform.db, app.platform.secrets, { organisationId: tenant.organisationId, mode: 'live', scopes: ['loans:write'], now: new Date() });
    const lender = client(app, { publicKey: loansKey.publicKey, secretKey: loansKey.secretKey });
    expect((await lender.post(`/v1/reviews/${review.id}/clear`, { reason: 'loans is not reviews' })).body).toMatchObject({ error: 'insufficient_scope', data: { requiredScope: 'reviews:write' } });
    expect((await live().get(`/v1/reviews/${review.id}`)).body.data.status).toBe('open');
    const decider = await createApiKey(app.platform.db, app.platform.secrets, { organisationId: tenant.organisationId, mode: 'live', scopes: ['reviews:write'], now: new Date() });
    expect((await client(app, { publicKey: decider.publicKey, secretKey: decider.secretKey }).post(`/v1/reviews/${review.id}/clear`, { reason: 'a compliance key decides' })).status).toBe(200);
  });

  it('a loan cancelled under review closes its review as cancelled; the review can no longer be decided', async () => {
    const { loan, review } = await parkedLivePush();
    expect((await live().post(`/v1/loans/${loan.id}/cancel`, { reason: 'borrower withdrew' })).status).toBe(200);
    expect((await live().get(`/v1/reviews/${review.id}`)).body.data).toMatchObject({ status: 'closed', closedReason: 'cancelled' });
    expect((await live().post(`/v1/reviews/${review.id}/clear`, { reason: 'too late' })).body.error).toBe('review_closed');
    expect((await live().get(`/v1/loans/${loan.id}`)).body.data.status).toBe('cancelled');
  });

  it('a separate attestation that waited is attested once cleared', async () => {
    const now = new Date();
    const product = await createProduct(app.platform.db, { organisationId: tenant.organisationId, input: productInput({ approvalMode: 'tenant', kycTier: 'delegated' }), now });
    const loan = await app.platform.db.transaction().execute((trx) =>
      createOperatorLoan(
        { db: trx, platform: app.platform, now, scope: { organisationId: tenant.organisationId, mode: 'live' }, actor: 'test' },
        { borrower: { firstName: 'Tunde', lastName: 'Bello', phone: '+2348030000000' }, productId: product.id, amountKobo: 5_000_000, tenorDays: 60 },
      ),
    );
    expect((await live().post(`/v1/loans/${loan.id}/attestation`, { attestedChecks: { bvnVerified: true } })).status).toBe(201);
    const review = (await live().get(`/v1/reviews?loanId=${loan.id}`)).body.data.reviews[0];
    const cleared = await live().post(`/v1/reviews/${review.id}/clear`, { reason: 'identity checked in branch' });
    expect(cleared.body.data.loan.status).toBe('attested');
  });

  it('the list is keyset-paged, newest first, and filters by status', async () => {
    await parkedLivePush();
    await parkedLivePush();
    const first = await live().get('/v1/reviews?limit=2');
    expect(first.body.data.reviews).toHaveLength(2);
    expect(first.body.data.nextCursor).toEqual(expect.any(String));
    const second = await live().get(`/v1/reviews?limit=2&cursor=${first.body.data.nextCursor}`);
    const ids = [...first.body.data.reviews, ...second.body.data.reviews].map((r: { id: string }) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const at = [...first.body.data.reviews, ...second.body.data.reviews].map((r: { openedAt: string }) => r.openedAt);
    expect([...at].sort().reverse()).toEqual(at);
    const closed = await live().get('/v1/reviews?status=closed&limit=100');
    expect(closed.body.data.reviews.every((r: { status: string }) => r.status === 'closed')).toBe(true);
    expect((await live().get('/v1/reviews?cursor=nonsense')).status).toBe(400);
  });
});

describe('admin loan review', { timeout: 90_000 }, () => {
  it('clears or rejects a loan’s open review from the command line; a loan without one is refused', async () => {
    const clearMe = await parkedLivePush();
    const cleared = await admin('loan', 'review', '--id', clearMe.loan.id, '--decision', 'clear', '--reason', 'Manual screen: no match');
    expect(cleared.code).toBe(0);
    expect(cleared.json).toMatchObject({ review: { closedReason: 'cleared', closedBy: 'operator CLI' }, loan: { status: 'awaiting_acceptance' } });
    const rejectMe = await parkedLivePush();
    const rejected = await admin('loan', 'review', '--id', rejectMe.loan.id, '--decision', 'reject', '--reason', 'Confirmed match');
    expect(rejected.json).toMatchObject({ review: { closedReason: 'rejected' }, loan: { status: 'rejected' } });
    const none = await admin('loan', 'review', '--id', clearMe.loan.id, '--decision', 'clear', '--reason', 'again');
    expect(none.code).toBe(2);
    expect(none.json.error).toBe('NOT_FOUND');
    const bad = await admin('loan', 'review', '--id', rejectMe.loan.id, '--decision', 'maybe', '--reason', 'x');
    expect(bad.code).toBe(2);
  });
});
