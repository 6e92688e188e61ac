import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type ApiResponse, type TestApp } from '../support/harness';
import { startDemoApp, SECRET_KEY } from '../support/demo';
import { latestOtp, sessionClient, tokenOf } from '../support/checkout';
import { consentFor } from '../support/lifecycle';
import { readBootstrap } from '../../server/platform/domain/bootstrap';

/**
 * The demo's JSON routes on the real app: they play the sandbox partner over the public API, refuse
 * bad input with a 4xx that changes nothing, and never hand the browser a secret key.
 */
let app: TestApp;
const seen: string[] = [];

async function demo<T = any>(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
  const res = await client(app).call<T>(method, `/demo/api${path}`, { body: body ?? (method === 'POST' ? {} : undefined), headers });
  seen.push(JSON.stringify(res.body));
  return res;
}

const eventNames = async (runId: string) => ((await demo('GET', `/runs/${runId}/events`)).body.data.events as Array<{ event: string }>).map((e) => e.event);
const rowCounts = async () => ({
  preapprovals: (await app.platform.db.selectFrom('preapprovals').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
  loans: (await app.platform.db.selectFrom('loans').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n,
});

beforeAll(async () => {
  app = await startDemoApp();
});
afterAll(async () => {
  // Nothing any demo route answered held a secret key.
  expect(seen.join('\n')).not.toMatch(SECRET_KEY);
  await app?.stop();
});

describe('demo routes: bad input', () => {
  it('when the scenario is unknown, missing or has company, then 400 invalid_scenario and nothing is pushed', async () => {
    const before = await rowCounts();
    for (const body of [{ scenario: 'platinum' }, {}, { scenario: 'delegated', bvn: '22222222222' }, { scenario: 7 }, []]) {
      const res = await demo('POST', '/runs', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: 'invalid_scenario' });
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('when the body is not JSON (or missing), then 415; when it is broken JSON, then 400 INVALID_JSON', async () => {
    const form = await client(app).call('POST', '/demo/api/runs', { raw: 'scenario=delegated', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    expect(form.body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
    const bare = await client(app).call('POST', '/demo/api/runs/demo-delegated-000000000000/actions/disburse');
    expect(bare.status).toBe(415);
    const broken = await client(app).call('POST', '/demo/api/runs', { raw: '{"scenario":', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe('INVALID_JSON');
  });

  it('when the run id, the action or the cursor is malformed, then 400; an unknown run, then 404', async () => {
    expect((await demo('GET', '/runs/not-a-run')).body.error).toBe('invalid_run_id');
    expect((await demo('GET', '/runs/demo-delegated-000000000000')).status).toBe(404);
    expect((await demo('GET', '/runs/demo-delegated-000000000000/sms')).body.error).toBe('run_not_found');
    const { body } = await demo('POST', '/runs', { scenario: 'delegated' });
    const action = await demo('POST', `/runs/${body.data.id}/actions/launch`);
    expect(action.status).toBe(400);
    expect(action.body.error).toBe('invalid_action');
    const cursor = await demo('GET', `/runs/${body.data.id}/events?after=1%20or%201=1`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.error).toBe('invalid_request');
  });

  it('when a step is not the run\'s next one, then 409 action_not_available and the loan is unchanged', async () => {
    const { body } = await demo('POST', '/runs', { scenario: 'delegated' });
    const res = await demo('POST', `/runs/${body.data.id}/actions/disburse`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('action_not_available');
    expect((await demo('GET', `/runs/${body.data.id}`)).body.data.loan.status).toBe('awaiting_acceptance');
  });

  it('when the sandbox is not bootstrapped, then /demo is not served at all', async () => {
    const plain = await startTestApp();
    try {
      const res = await client(plain).get('/demo');
      expect(res.status).toBe(404);
      const page = await fetch(`${plain.url}/checkout/`);
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    } finally {
      await plain.stop();
    }
  });
});

describe('demo routes: scenarios', () => {
  it('serves the page and lets the checkout be framed by its own origin only', async () => {
    const page = await fetch(`${app.url}/demo`, { redirect: 'manual' });
    // 127.0.0.1 is a local alias of PUBLIC_BASE_URL (localhost): the demo lives on the public origin.
    expect(page.status).toBe(307);
    expect(page.headers.get('location')).toBe(`${app.platform.baseUrl}/demo`);
    const served = await fetch(`${app.platform.baseUrl.replace('localhost', '127.0.0.1')}/demo`, { headers: { host: new URL(app.platform.baseUrl).host } });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(served.headers.get('content-security-policy')).toContain("frame-src 'self'");
    const html = await served.text();
    expect(html).toContain('<demo-app api="/demo/api">');
    // The tab says the name the page's header says (demo/shared/demo-name.ts).
    expect(html).toContain('<title>Lending platform · live demo</title>');
    expect(html).not.toMatch(SECRET_KEY);
    const checkout = await fetch(`${app.url}/checkout/`);
    expect(checkout.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
  });

  it('lists the four scenarios', async () => {
    const res = await demo('GET', '/scenarios');
    expect(res.body.data.map((s: { id: string }) => s.id)).toEqual(['delegated', 'managed', 'aml', 'decline']);
  });

  it('delegated: push → offer with a checkout link → signed → disburse → repayments until the loan is completed, events in order', async () => {
    const started = await demo('POST', '/runs', { scenario: 'delegated' });
    expect(started.status).toBe(201);
    const run = started.body.data;
    expect(run).toMatchObject({
      scenario: 'delegated',
      preapproval: { status: 'offer_issued', hasLoan: true },
      // 4% a month flat (48% a year), priced into three monthly instalments as the checkout shows them; nothing lent yet.
      loan: { status: 'awaiting_acceptance', interestRateBps: 4800, interestModel: 'flat', tenorDays: 90, repaymentFrequency: 'monthly', instalmentCount: 3, disbursedAmountKobo: null },
      mandate: null,
      actions: [],
      waiting: { action: 'disburse' },
    });
    expect(run.loan.totalRepayableKobo).toBe((await app.platform.db.selectFrom('loanScheduleItems').select('totalKobo').where('loanId', '=', run.loan.id).execute()).reduce((sum, r) => sum + r.totalKobo, 0));
    expect(run.checkoutPath).toMatch(/^\/checkout\/c\/cs_test_[0-9A-Za-z]{40}$/);
    expect(await eventNames(run.id)).toEqual(['preapproval.received', 'loan.kyc.attested', 'loan.approved', 'loan.offer.issued']);

    // The borrower's side, through the session the link carries: the code from the inbox the demo shows, then the signature.
    const session = sessionClient(app, tokenOf(run.checkoutPath));
    expect((await session.post('/v1/checkout/otp/send')).status).toBe(200);
    const inbox = await demo('GET', `/runs/${run.id}/sms`);
    expect(inbox.body.data.messages[0].body).toContain(await latestOtp(app, run.borrower.phone));
    expect((await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, run.borrower.phone) })).status).toBe(200);
    const loan = (await client(app).get(`/demo/api/runs/${run.id}`)).body.data.loan;
    const { documentReference } = await app.platform.db.selectFrom('loans').select('documentReference').where('id', '=', loan.id).executeTakeFirstOrThrow();
    // The borrower signs with their own name (the checkout refuses anyone else's).
    const { ipAddress, userAgent } = consentFor(documentReference!);
    expect((await session.post('/v1/checkout/accept', { ipAddress, userAgent, signatureFullName: run.borrower.name, documentReference })).status).toBe(200);

    // Signed, but no direct debit yet: the platform would disburse; the demo's partner waits for "mandate.active".
    const signed = await demo('GET', `/runs/${run.id}`);
    expect(signed.body.data).toMatchObject({ loan: { status: 'terms_accepted', hasActiveMandate: false }, mandate: null, actions: [], waiting: { action: 'disburse', needs: expect.stringContaining('mandate.active') } });
    const early = await demo('POST', `/runs/${run.id}/actions/disburse`);
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('action_not_available');
    expect((await demo('GET', `/runs/${run.id}`)).body.data.loan.status).toBe('terms_accepted');

    // The direct debit, as the partner would set it up and the bank confirm it: waiting, then active.
    const partner = client(app, (await readBootstrap(app.platform.db, app.platform.secrets))!.keys);
    const mandate = await partner.post(`/v1/loans/${loan.id}/mandates`, { email: 'amaka@example.com' });
    expect(mandate.status).toBe(201);
    expect((await demo('GET', `/runs/${run.id}`)).body.data).toMatchObject({ mandate: { provider: 'rail_a', status: 'initiated' }, actions: [], waiting: { action: 'disburse' } });
    expect((await partner.post(`/v1/test/mandates/${mandate.body.data.id}/simulate-activation`)).status).toBe(200);
    expect((await demo('GET', `/runs/${run.id}`)).body.data).toMatchObject({ mandate: { status: 'active' }, actions: ['disburse'], waiting: null });
    const disbursed = await demo('POST', `/runs/${run.id}/actions/disburse`);
    expect(disbursed.status).toBe(200);
    expect(disbursed.body.data.loan).toMatchObject({ status: 'active', instalmentCount: 3, instalmentsPaid: 0, disbursedAmountKobo: 25_000_000 });
    expect(disbursed.body.data.actions).toEqual(['repay']);

    let state = disbursed.body.data;
    for (let i = 1; i <= 3; i += 1) {
      const next = state.loan.nextInstalment;
      expect(next.number).toBe(i);
      const paid = await demo('POST', `/runs/${run.id}/actions/repay`);
      expect(paid.status).toBe(200);
      state = paid.body.data;
      expect(state.loan.instalmentsPaid).toBe(i);
    }
    expect(state.loan).toMatchObject({ status: 'completed', outstandingKobo: 0, nextInstalment: null });
    expect(state.actions).toEqual([]);
    // The mandate as the platform reports it after the last instalment (the page reads "no more debits" from the loan's status).
    expect(state.mandate).toEqual({ provider: 'rail_a', status: 'active' });
    expect(state.loan.amountPaidKobo).toBe((await app.platform.db.selectFrom('loanScheduleItems').select('totalKobo').where('loanId', '=', loan.id).execute()).reduce((sum, r) => sum + r.totalKobo, 0));
    expect(await eventNames(run.id)).toEqual([
      'preapproval.received', 'loan.kyc.attested', 'loan.approved', 'loan.offer.issued', 'loan.offer.accepted', 'mandate.active',
      'loan.disbursed', 'loan.repayment.completed', 'loan.repayment.completed', 'loan.repayment.completed', 'loan.completed',
    ]);

    // The feed resumes after a cursor, and another run's events never show up in it.
    const all = (await demo('GET', `/runs/${run.id}/events`)).body.data;
    const tail = await demo('GET', `/runs/${run.id}/events?after=${all.events[8].id}`);
    expect(tail.body.data.events.map((e: { event: string }) => e.event)).toEqual(['loan.repayment.completed', 'loan.completed']);
    expect(all.events.every((e: { data: { clientReference: string } }) => e.data.clientReference === run.id)).toBe(true);
  });

  it('decline: the decision is recorded, no loan, no checkout, no step to take', async () => {
    const res = await demo('POST', '/runs', { scenario: 'decline' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ preapproval: { status: 'declined', hasLoan: false }, loan: null, mandate: null, checkoutPath: null, actions: [], waiting: null });
    expect(await eventNames(res.body.data.id)).toEqual(['preapproval.received']);
  });

  it('AML hit: the loan is held under review with no checkout; compliance rejects it', async () => {
    const res = await demo('POST', '/runs', { scenario: 'aml' });
    expect(res.body.data).toMatchObject({ loan: { status: 'under_review', disbursedAmountKobo: null }, checkoutPath: null, actions: ['reject'] });
    expect(await eventNames(res.body.data.id)).toEqual(['preapproval.received', 'loan.kyc.attested', 'review.opened']);
    const rejected = await demo('POST', `/runs/${res.body.data.id}/actions/reject`);
    // The platform keeps the held pre-approval `received` (with its loan); the loan is rejected, never disbursed, no mandate.
    expect(rejected.body.data).toMatchObject({ preapproval: { status: 'received', hasLoan: true }, loan: { status: 'rejected', disbursedAmountKobo: null, amountPaidKobo: 0 }, mandate: null, actions: [], waiting: null });
    // Rejecting the loan closes its review: the one webhook of a rejection.
    expect(await eventNames(res.body.data.id)).toEqual(['preapproval.received', 'loan.kyc.attested', 'review.opened', 'review.closed']);
  });

  it('managed tier: an application on a managed product with a checkout session; after KYC the lender approves and the offer issues', async () => {
    const res = await demo('POST', '/runs', { scenario: 'managed' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const run = res.body.data;
    expect(run).toMatchObject({ loan: { status: 'kyc_required', kycTier: 'managed', interestRateBps: 4800, interestModel: 'flat' }, actions: [], waiting: { action: 'approve' } });
    expect(run.checkoutPath).toMatch(/^\/checkout\/c\/cs_test_/);
    expect((await demo('POST', `/runs/${run.id}/actions/approve`)).status).toBe(409);

    const session = sessionClient(app, tokenOf(run.checkoutPath));
    await session.post('/v1/checkout/otp/send');
    expect((await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, run.borrower.phone) })).status).toBe(200);
    expect((await session.post('/v1/checkout/kyc', { bvn: '30000000017' })).status).toBe(200);
    expect((await demo('GET', `/runs/${run.id}`)).body.data).toMatchObject({ loan: { status: 'kyc_completed' }, actions: ['approve'] });
    const approved = await demo('POST', `/runs/${run.id}/actions/approve`);
    expect(approved.body.data.loan.status).toBe('awaiting_acceptance');
    expect(await eventNames(run.id)).toEqual(['loan.kyc.attested', 'loan.approved', 'loan.offer.issued']);
    // A second managed run reuses the demo's product.
    const again = await demo('POST', '/runs', { scenario: 'managed' });
    expect(again.status).toBe(201);
  });
});
