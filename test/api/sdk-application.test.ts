import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { verifySdkWebhook } from '../../server/platform/domain/financing/sdk-webhooks';
import { FINANCING_LENDER_ID, FINANCING_POOL_CODE } from '../../server/platform/domain/financing/financing-lender';
import { expireFinancingApplications } from '../../server/platform/domain/financing/expire-financing';
import { disburseReadyFinancing } from '../../server/platform/domain/financing/disburse-financing';
import { poolBalances } from '../../server/platform/domain/pools/pool';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { sweepArrears } from '../../server/platform/domain/repayments/sweep-arrears';
import { WebhookDispatcher } from '../../server/workers/webhook-dispatcher';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { nubanCheckDigit } from '../support/checkout';
import { startReceiver, type Receiver } from '../support/webhooks';
import { bvnEnding, fundFinancingPool, identity, initiatedApplication, verifyOtp } from '../support/financing';

/**
 * The hosted patient-financing application end to end through the checkout-session routes (what the hosted page
 * drives): OTP → identity → bureau → decision → tenor and offer → signature → bank + mandate on the sandbox rail →
 * disbursed to the partner's wallet from the service's pool, with the spec-B webhooks checked in order and verified
 * with the organisation's secret key; and the rejection, decline, identity-mismatch and expiry paths.
 */
let app: TestApp;
let clock: FakeClock;
let dispatcher: WebhookDispatcher;
let receiver: Receiver;
let partner: Tenant;

const SPEC_EVENTS = new Set([
  'loan.initiated', 'loan.application.submitted', 'loan.approved', 'loan.rejected', 'loan.offer.accepted', 'loan.offer.rejected',
  'loan.disbursed', 'loan.repayment.due', 'loan.repayment.completed', 'loan.completed', 'loan.cancelled', 'loan.defaulted',
]);

/** The verified webhooks the partner received for one application, in the order the service emitted them. */
async function eventsFor(sdkReference: string) {
  await dispatcher.runOnce();
  return receiver.received
    .map((r) => ({ id: String(r.headers['x-service-event-id']), header: r.headers['x-service-event'], envelope: verifySdkWebhook(r.rawBody, r.headers, partner.test.secretKey) }))
    .filter((r) => r.envelope.data.sdkReference === sdkReference)
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((r) => {
      expect(r.header).toBe(r.envelope.event);
      return r.envelope;
    });
}

const nuban = (bank: string, serial: string) => `${serial}${nubanCheckDigit(bank, serial)}`;
const signature = (documentReference: string) => ({ signatureFullName: 'Ada Obi', signatureEmail: 'ada@example.com', documentReference, ipAddress: '102.89.34.7', userAgent: 'Mozilla/5.0 (Linux; Android 14)' });

beforeAll(async () => {
  clock = new FakeClock('2026-11-26T09:00:00.000Z');
  app = await startTestApp({ clock });
  dispatcher = new WebhookDispatcher(app.platform, { random: () => 0.5 });
  receiver = await startReceiver();
  partner = await createTenant(app, { loanTenant: false, preapprovedLending: false });
  await client(app, partner.test).post('/api/v1/sdk/webhook-endpoints', { url: receiver.url('/financing') });
  await fundFinancingPool(app, 1_000_000_000);
});
afterAll(async () => {
  await receiver.stop();
  await app.stop();
});

describe('approved → signed → mandate live → disbursed to the partner', () => {
  it('walks the whole hosted application and the partner receives every event in order, each signed with its secret key', async () => {
    const { initiation, session, phone } = await initiatedApplication(app, partner);
    const before = await session.get('/v1/checkout/session');
    expect(before.body.data).toMatchObject({ nextStep: 'otp', financing: null, loan: null });
    expect(before.body.data.steps.map((s: { name: string }) => s.name)).toEqual(['otp', 'identity', 'decision', 'offer', 'bank', 'mandate']);
    expect((await session.post('/v1/checkout/financing/identity', identity(bvnEnding('0')))).body.error).toBe('checkout_otp_required');
    await verifyOtp(app, session, phone);
    expect((await session.get('/v1/checkout/session')).body.data).toMatchObject({ nextStep: 'identity', financing: { status: 'initiated', amountKobo: 15_000_000 } });

    // Identity + bureau (band A) + policy: approved with the band's tenors that pass affordability.
    const decided = await session.post('/v1/checkout/financing/identity', identity(bvnEnding('0')));
    expect(decided.status).toBe(200);
    expect(decided.body.data).toMatchObject({ status: 'approved', riskBand: 'A', rejectionReason: null });
    expect(decided.body.data.options.map((o: { tenorMonths: number }) => o.tenorMonths)).toEqual([3, 6]);
    expect(JSON.stringify(decided.body)).not.toMatch(/bvn/i);
    expect((await session.get('/v1/checkout/session')).body.data.nextStep).toBe('decision');

    // The patient chooses 6 months: the offer issues with the schedule the affordability test saw.
    const six = decided.body.data.options.find((o: { tenorMonths: number }) => o.tenorMonths === 6);
    expect((await session.post('/v1/checkout/financing/tenor', { tenorMonths: 12 })).body.error).toBe('tenor_not_offered');
    const offered = await session.post('/v1/checkout/financing/tenor', { tenorMonths: 6 });
    expect(offered.status).toBe(200);
    const state = (await session.get('/v1/checkout/session')).body.data;
    expect(state).toMatchObject({ nextStep: 'offer', status: 'in_progress', offer: { principalKobo: 15_000_000, tenorDays: 180, interestRateBps: 3600, totalRepayableKobo: six.totalRepayableKobo } });
    expect(state.offer.schedule).toHaveLength(6);
    expect(state.offer.schedule.reduce((sum: number, r: { totalKobo: number }) => sum + r.totalKobo, 0)).toBe(six.totalRepayableKobo);
    expect(Math.max(...state.offer.schedule.map((r: { totalKobo: number }) => r.totalKobo))).toBe(six.instalmentKobo);
    const letter = await fetch(state.offer.offerLetter.url);
    expect(letter.headers.get('content-type')).toBe('application/pdf');

    // Signature with BorrowerConsent evidence, as the lending API records it.
    const accepted = await session.post('/v1/checkout/accept', signature(state.offer.documentReference));
    expect(accepted.status).toBe(200);
    const consent = await app.platform.db.selectFrom('loanConsents').selectAll().where('loanId', '=', initiation.sdkReference).executeTakeFirstOrThrow();
    expect(consent).toMatchObject({ kind: 'accept', signatureFullName: 'Ada Obi', ipAddress: '102.89.34.7', documentReference: state.offer.documentReference, signedAt: clock.now().toISOString() });
    expect((await client(app, partner.test).get(`/api/v1/sdk/loans/${initiation.sdkReference}/mandate`)).body.data).toMatchObject({ applicationStatus: 'offer_accepted', stage: 'awaiting_bank_account' });

    // Bank account, mandate on the sandbox rail, approval on the provider's page; the provider confirms after its lag.
    const account = { bankCode: '057', accountNumber: nuban('057', '100000042') };
    expect((await session.post('/v1/checkout/bank-account', account)).status).toBe(200);
    const mandate = await session.post('/v1/checkout/mandate', {});
    expect(mandate.status).toBe(201);
    const polled = await client(app, partner.test).get(`/api/v1/sdk/loans/${initiation.sdkReference}/mandate`);
    expect(polled.body.data).toMatchObject({ stage: 'awaiting_authorisation', authorizationUrl: mandate.body.data.authorizationUrl, mandate: { accountNumberLast4: account.accountNumber.slice(-4) } });
    await fetch(mandate.body.data.authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
    expect((await session.post('/v1/checkout/mandate/activate')).body.data.status).toBe('pending');
    const pool = async () => (await poolBalances(app.platform.db, FINANCING_LENDER_ID, 'test')).find((p) => p.code === FINANCING_POOL_CODE)!.balanceKobo;
    const poolBefore = await pool();
    // Not disbursed while the provider has not confirmed the mandate live.
    expect(await disburseReadyFinancing(app.platform.db, app.platform, clock.now())).toBe(0);
    clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1000);
    expect((await session.post('/v1/checkout/mandate/activate')).body.data.status).toBe('active');
    expect((await session.get('/v1/checkout/session')).body.data).toMatchObject({ status: 'complete', nextStep: null });

    // Disbursed: the service's pool paid the treatment amount to the partner's wallet.
    expect(poolBefore - (await pool())).toBe(15_000_000);
    const wallet = await app.platform.db
      .selectFrom('ledgerAccounts')
      .innerJoin('ledgerPostings', 'ledgerPostings.accountId', 'ledgerAccounts.id')
      .select('ledgerPostings.amountKobo')
      .where('ledgerAccounts.organisationId', '=', partner.organisationId)
      .where('ledgerAccounts.kind', '=', 'organisation_wallet')
      .execute();
    expect(wallet.reduce((s, p) => s + Number(p.amountKobo), 0)).toBe(-15_000_000);
    expect((await client(app, partner.test).get(`/api/v1/sdk/loans/${initiation.sdkReference}/mandate`)).body.data).toMatchObject({ applicationStatus: 'disbursed', stage: 'active' });
    const loan = await app.platform.db.selectFrom('loans').selectAll().where('id', '=', initiation.sdkReference).executeTakeFirstOrThrow();
    expect(loan).toMatchObject({ status: 'active', disbursedAmountKobo: 15_000_000, hasActiveMandate: expect.anything() });

    const events = await eventsFor(initiation.sdkReference);
    expect(events.map((e) => e.event).filter((n) => SPEC_EVENTS.has(n))).toEqual([
      'loan.initiated', 'loan.application.submitted', 'loan.approved', 'loan.offer.accepted', 'loan.disbursed',
    ]);
    expect(events.map((e) => e.event)).toContain('mandate.active');
    const byName = Object.fromEntries(events.map((e) => [e.event, e.data]));
    expect(byName['loan.approved']).toMatchObject({ status: 'approved', riskBand: 'A', annualRateBps: 3600, tenorOptions: [{ tenorMonths: 3 }, { tenorMonths: 6 }] });
    expect(byName['loan.offer.accepted']).toMatchObject({ status: 'offer_accepted', tenorMonths: 6, totalRepayableKobo: six.totalRepayableKobo, applicant: { firstName: 'Ada', lastName: 'Obi', gender: null } });
    expect(byName['loan.disbursed']).toMatchObject({ status: 'disbursed', disbursedAmountKobo: 15_000_000, settledToOrganisationId: partner.organisationId, amount: 15_000_000, currency: 'NGN' });
    // Nothing of the lending API's own event set leaks to the partner's financing endpoint.
    expect(events.map((e) => e.event)).not.toContain('loan.offer.issued');
  });
});

/** An application signed for 3 months with a bank account and a mandate the patient approved at the provider. */
async function signedAndAuthorised(bvnLast = '6') {
  const { initiation, session, phone } = await initiatedApplication(app, partner);
  await verifyOtp(app, session, phone);
  await session.post('/v1/checkout/financing/identity', identity(bvnEnding(bvnLast)));
  await session.post('/v1/checkout/financing/tenor', { tenorMonths: 3 });
  const { documentReference } = (await session.get('/v1/checkout/session')).body.data.offer;
  await session.post('/v1/checkout/accept', signature(documentReference));
  await session.post('/v1/checkout/bank-account', { bankCode: '058', accountNumber: nuban('058', '200000007') });
  const mandate = (await session.post('/v1/checkout/mandate', {})).body.data;
  await fetch(mandate.authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
  return { initiation, session };
}

describe('after the patient leaves: the partner polls, the mandate collects', () => {
  it('polling the mandate carries the loan to disbursed once the provider confirms, with no browser involved', async () => {
    const { initiation } = await signedAndAuthorised();
    const poll = () => client(app, partner.test).get(`/api/v1/sdk/loans/${initiation.sdkReference}/mandate`);
    expect((await poll()).body.data).toMatchObject({ applicationStatus: 'offer_accepted', stage: 'awaiting_confirmation' });
    clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1000);
    expect((await poll()).body.data).toMatchObject({ applicationStatus: 'disbursed', stage: 'active', mandate: { status: 'active' } });
    expect((await poll()).body.data.applicationStatus).toBe('disbursed');
    // The schedule's due dates count from disbursement (the clock moved on since the offer).
    const loan = await app.platform.db.selectFrom('loans').select(['disbursedAt', 'tenorDays']).where('id', '=', initiation.sdkReference).executeTakeFirstOrThrow();
    const rows = await app.platform.db.selectFrom('loanScheduleItems').select('dueDate').where('loanId', '=', initiation.sdkReference).orderBy('installmentNumber').execute();
    const days = rows.map((r) => (new Date(r.dueDate).getTime() - new Date(loan.disbursedAt!).getTime()) / 86_400_000);
    expect(days).toEqual([30, 60, loan.tenorDays]);
    const events = await eventsFor(initiation.sdkReference);
    expect(events.filter((e) => e.event === 'loan.disbursed')).toHaveLength(1);
  });

  it('an unpaid instalment sends loan.repayment.due; collection on the mandate sends loan.repayment.completed, and the last one loan.completed', async () => {
    const { initiation } = await signedAndAuthorised();
    clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1000);
    await client(app, partner.test).get(`/api/v1/sdk/loans/${initiation.sdkReference}/mandate`);
    const schedule = await app.platform.db.selectFrom('loanScheduleItems').selectAll().where('loanId', '=', initiation.sdkReference).orderBy('installmentNumber').execute();
    expect(schedule).toHaveLength(3);
    // Past the first due date before the collector ran: overdue, then collected.
    clock.set(new Date(new Date(schedule[0]!.dueDate).getTime() + 1000));
    await sweepArrears(app.platform.db, app.platform, clock.now());
    for (const row of schedule) {
      clock.set(new Date(Math.max(clock.now().getTime(), new Date(row.dueDate).getTime() + 1000)));
      await runCollections(app.platform, clock.now());
      clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
      await runCollections(app.platform, clock.now());
    }
    const loan = await app.platform.db.selectFrom('loans').selectAll().where('id', '=', initiation.sdkReference).executeTakeFirstOrThrow();
    expect(loan.status).toBe('completed');
    const events = (await eventsFor(initiation.sdkReference)).map((e) => e.event).filter((n) => SPEC_EVENTS.has(n));
    expect(events.slice(0, 5)).toEqual(['loan.initiated', 'loan.application.submitted', 'loan.approved', 'loan.offer.accepted', 'loan.disbursed']);
    expect(events[5]).toBe('loan.repayment.due');
    expect(events.filter((n) => n === 'loan.repayment.completed').length).toBeGreaterThanOrEqual(3);
    expect(events.at(-1)).toBe('loan.completed');
    const app_ = await app.platform.db.selectFrom('financingApplications').select('status').where('id', '=', initiation.sdkReference).executeTakeFirstOrThrow();
    expect(app_.status).toBe('completed');
  });
});

describe('the application ends with a clear outcome', () => {
  it('a delinquent bureau file is rejected: loan.initiated, loan.application.submitted, loan.rejected', async () => {
    const { initiation, session, phone } = await initiatedApplication(app, partner);
    await verifyOtp(app, session, phone);
    const res = await session.post('/v1/checkout/financing/identity', identity(bvnEnding('9')));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'rejected', rejectionReason: 'delinquent', options: null });
    expect((await session.get('/v1/checkout/session')).body.data).toMatchObject({ status: 'closed', nextStep: null });
    expect((await session.post('/v1/checkout/financing/tenor', { tenorMonths: 3 })).body.error).toBe('invalid_loan_state');
    const events = await eventsFor(initiation.sdkReference);
    expect(events.map((e) => e.event)).toEqual(['loan.initiated', 'loan.application.submitted', 'loan.rejected']);
    expect(events[2]!.data).toMatchObject({ status: 'rejected', reason: 'delinquent' });
  });

  it('a thin file (band C) is approved at the band\'s rate; an income too low for any tenor is rejected as unaffordable', async () => {
    const thin = await initiatedApplication(app, partner);
    await verifyOtp(app, thin.session, thin.phone);
    const approved = await thin.session.post('/v1/checkout/financing/identity', identity(bvnEnding('1')));
    expect(approved.body.data).toMatchObject({ status: 'approved', riskBand: 'C' });
    expect(approved.body.data.options.every((o: { annualRateBps: number }) => o.annualRateBps === 6000)).toBe(true);

    const poor = await initiatedApplication(app, partner);
    await verifyOtp(app, poor.session, poor.phone);
    const rejected = await poor.session.post('/v1/checkout/financing/identity', identity(bvnEnding('2'), { declaredMonthlyIncomeKobo: 500_000 }));
    expect(rejected.body.data).toMatchObject({ status: 'rejected', rejectionReason: 'unaffordable' });
  });

  it('the patient declines the offer: loan.offer.rejected ends it', async () => {
    const { initiation, session, phone } = await initiatedApplication(app, partner);
    await verifyOtp(app, session, phone);
    await session.post('/v1/checkout/financing/identity', identity(bvnEnding('4')));
    await session.post('/v1/checkout/financing/tenor', { tenorMonths: 3 });
    const { documentReference } = (await session.get('/v1/checkout/session')).body.data.offer;
    const declined = await session.post('/v1/checkout/decline', { ...signature(documentReference), reason: 'Too expensive' });
    expect(declined.status).toBe(200);
    expect((await session.get('/v1/checkout/session')).body.data).toMatchObject({ status: 'declined', financing: { status: 'offer_rejected' } });
    const events = await eventsFor(initiation.sdkReference);
    expect(events.map((e) => e.event)).toEqual(['loan.initiated', 'loan.application.submitted', 'loan.approved', 'loan.offer.rejected']);
    expect(events[3]!.data).toMatchObject({ status: 'offer_rejected', reason: 'Too expensive', documentReference });
    expect((await client(app, partner.test).get(`/api/v1/sdk/loans/${initiation.sdkReference}/mandate`)).body.data.stage).toBe('closed');
  });

  it('details that do not match the BVN record get two more tries, then the application is rejected (identity_mismatch)', async () => {
    const { initiation, session, phone } = await initiatedApplication(app, partner);
    await verifyOtp(app, session, phone);
    const bvn = bvnEnding('0');
    const first = await session.post('/v1/checkout/financing/identity', identity(bvn, { fullName: 'Ada Mismatch' }));
    expect(first.status).toBe(422);
    expect(first.body).toMatchObject({ error: 'identity_mismatch', message: expect.stringContaining('2 tries left') });
    // The clinic said "Ada": another first name does not match the patient the clinic named.
    const second = await session.post('/v1/checkout/financing/identity', identity(bvn, { fullName: 'Chidi Obi' }));
    expect(second.body).toMatchObject({ error: 'identity_mismatch', message: expect.stringContaining('1 try left') });
    const third = await session.post('/v1/checkout/financing/identity', identity('00000000000'));
    expect(third.status).toBe(200);
    expect(third.body.data).toMatchObject({ status: 'rejected', rejectionReason: 'identity_mismatch' });
    const events = await eventsFor(initiation.sdkReference);
    expect(events.map((e) => e.event)).toEqual(['loan.initiated', 'loan.rejected']);
    // Only keyed hashes of the BVN were kept.
    const stored = await app.platform.db.selectFrom('kycSubmissions').select('bvnHash').where('loanId', '=', initiation.sdkReference).execute();
    expect(stored.map((s) => s.bvnHash)).not.toContain(bvn);
    expect(JSON.stringify(await app.platform.db.selectFrom('financingApplications').selectAll().where('id', '=', initiation.sdkReference).execute())).not.toContain(bvn);
  });

  it('an application not signed by expiresAt expires: its link stops working and loan.cancelled (reason expired) goes out', async () => {
    const { initiation, session, phone } = await initiatedApplication(app, partner);
    await verifyOtp(app, session, phone);
    clock.advance(app.platform.config.FINANCING_APPLICATION_TTL_HOURS * 3_600_000 + 1000);
    // The application's session lives exactly as long as the application.
    const late = await session.post('/v1/checkout/financing/identity', identity(bvnEnding('0')));
    expect(late.status).toBe(401);
    expect(late.body.error).toBe('checkout_session_expired');
    expect(await expireFinancingApplications(app.platform.db, clock.now())).toBeGreaterThanOrEqual(1);
    const events = await eventsFor(initiation.sdkReference);
    expect(events.map((e) => e.event)).toEqual(['loan.initiated', 'loan.cancelled']);
    expect(events[1]!.data).toMatchObject({ status: 'expired', reason: 'expired' });
    const replay = await client(app, partner.test).get(`/api/v1/sdk/loans/${initiation.sdkReference}/mandate`);
    expect(replay.body.data).toMatchObject({ applicationStatus: 'expired', stage: 'closed' });
  });
});
