import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { ensureFinancingLender, FINANCING_LENDER_ID, FINANCING_POOL_CODE } from '../../server/platform/domain/financing/financing-lender';
import { newId } from '../../server/platform/domain/ids';
import { checkLedger } from '../../server/platform/domain/ledger/check-ledger';
import { scopeBalances, type ScopeBalance } from '../../server/platform/domain/ledger/loan-books';
import { simulateActivation } from '../../server/platform/domain/mandates/manage-mandate';
import { fundPool } from '../../server/platform/domain/pools/pool';
import { startFakeDojah, type FakeDojah } from '../support/fakes/dojah-fake';
import { goodCreditHistory, startFakeMono, type FakeMono } from '../support/fakes/mono-fake';
import { nubanCheckDigit, sessionClient, tokenOf } from '../support/checkout';
import { identity, initiatedApplication } from '../support/financing';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';

/**
 * A live patient-financing application whose direct debit is on `rail_b` (Mono Direct Debit), end to end against the
 * local fakes: identity at Dojah, the credit check at Mono's Lookup (a good file), the decision and the offer in the
 * hosted application, the mandate on Mono's page — and the loan disbursed only once Mono confirms the mandate (read
 * back; Mono's webhooks are only hints), `loan.disbursed` written to the partner's outbox with the disbursement, and the
 * loan in the service's books, balanced.
 *
 * A bad Mono report (declined, `delinquent`) and a Mono outage (502 `bureau_unavailable`, the application stays
 * `initiated` and is never approved) on a live application are in mono-bureau.test.ts.
 */
const MONO_SECRET = 'test_sk_fakemono0003';
const MONO_WEBHOOK_SECRET = 'mono-webhook-secret-0003';
const FUNDED_KOBO = 500_000_000;
const clock = new FakeClock(new Date());
let app: TestApp;
let mono: FakeMono;
let dojah: FakeDojah;
let clinic: Tenant;

beforeAll(async () => {
  // Approving on Mono's page leaves the mandate approved but not ready to debit, until the test says so: the lag.
  mono = await startFakeMono({ secretKey: MONO_SECRET, webhookSecret: MONO_WEBHOOK_SECRET, readyOnApprove: false });
  dojah = await startFakeDojah({ appId: 'app_fake', secretKey: 'dojah_fake_secret' });
  app = await startTestApp({
    clock,
    env: {
      MONO_SECRET_KEY: MONO_SECRET,
      MONO_BASE_URL: mono.url,
      MONO_WEBHOOK_SECRET,
      DOJAH_APP_ID: 'app_fake',
      DOJAH_SECRET_KEY: 'dojah_fake_secret',
      DOJAH_BASE_URL: dojah.url,
      PROVIDER_TIMEOUT_MS: '1000',
    },
  });
  mono.options.webhookUrl = `${app.url}/webhooks/mono`;
  clinic = await createTenant(app, { loanTenant: false, preapprovedLending: false });
  // The service's live FINANCING pool, funded as the operator would.
  await ensureFinancingLender(app.platform.db, app.platform.config.FINANCING_POLICY, clock.now());
  await fundPool(app.platform.db, { organisationId: FINANCING_LENDER_ID, mode: 'live', code: FINANCING_POOL_CODE, amountKobo: FUNDED_KOBO, now: clock.now() });
});
afterAll(async () => {
  await app?.stop();
  await Promise.all([mono?.close(), dojah?.close()]);
});

const live = () => client(app, clinic.live);
const db = () => app.platform.db;
const balances = (organisationId: string) => scopeBalances(db(), { organisationId, mode: 'live' });
const balanceOf = (rows: ScopeBalance[], kind: string, code: string) => rows.find((r) => r.kind === kind && r.code === code)?.balanceKobo ?? 0;
const sdkEvents = async (loanId: string) =>
  (await db().selectFrom('events').select(['name', 'payload']).where('api', '=', 'sdk').where('mode', '=', 'live').execute())
    .filter((e) => JSON.stringify(e.payload).includes(loanId))
    .map((e) => e.name);
const loanRow = (loanId: string) => db().selectFrom('loans').selectAll().where('id', '=', loanId).executeTakeFirstOrThrow();

describe('live patient financing with the mandate on Mono (rail_b), against the fakes', () => {
  it('initiate → identity → Mono bureau → decision → offer → mandate on Mono\'s page → disbursed only once Mono confirms → loan.disbursed → the service\'s books', async () => {
    // Initiate (live key). Live OTP texts need an SMS provider, which this test does not run: the phone is marked verified.
    const initiated = await live().post('/api/v1/sdk/loans/initiate', {
      clientReference: `cref-${newId()}`,
      invoiceReference: 'INV-MONO-1',
      firstName: 'Ada',
      phoneNumber: '08031234570',
      treatment: 'Knee arthroscopy',
      treatmentAmount: 15_000_000,
    });
    expect(initiated.status).toBe(201);
    const loanId = initiated.body.data.sdkReference as string;
    await db().updateTable('checkoutSessions').set({ otpVerifiedAt: clock.now().toISOString() }).where('loanId', '=', loanId).execute();
    const session = sessionClient(app, tokenOf(initiated.body.data.applicationUrl));

    // Identity at Dojah, then Mono's credit history (a good file): approved on the facts.
    const bvn = `2230${String(Date.now() % 10_000_000).padStart(7, '0')}`;
    dojah.seedBvn(bvn, { firstName: 'Ada', lastName: 'Obi', dob: '1990-04-01' });
    mono.seedCreditHistory(bvn, goodCreditHistory());
    const decided = await session.post('/v1/checkout/financing/identity', identity(bvn));
    expect(decided.status).toBe(200);
    expect(decided.body.data.status).toBe('approved');
    expect(mono.state.requests.filter((r) => r.path === '/v3/lookup/credit-history/all')).toHaveLength(1);
    const application = await db().selectFrom('financingApplications').selectAll().where('id', '=', loanId).executeTakeFirstOrThrow();
    expect(application).toMatchObject({ status: 'approved', bureauOutcome: 'good' });

    // The offer: a plan chosen and signed in the hosted application.
    expect((await session.post('/v1/checkout/financing/tenor', { tenorMonths: 3 })).status).toBe(200);
    const { documentReference } = (await session.get('/v1/checkout/session')).body.data.offer;
    const signed = await session.post('/v1/checkout/accept', {
      signatureFullName: 'Ada Obi',
      signatureEmail: 'ada@example.com',
      documentReference,
      ipAddress: '102.89.34.7',
      userAgent: 'Mozilla/5.0 (Linux; Android 14)',
    });
    expect(signed.status).toBe(200);
    expect((await live().get(`/api/v1/sdk/loans/${loanId}/mandate`)).body.data).toMatchObject({ applicationStatus: 'offer_accepted', stage: 'awaiting_bank_account' });

    // The partner sets the direct debit up on Mono (the patient gave no account in the hosted application).
    const accountNumber = `300000001${nubanCheckDigit('058', '300000001')}`;
    const created = await live().post(`/api/v1/sdk/loans/${loanId}/mandate`, { provider: 'rail_b', bankCode: '058', accountNumber });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ stage: 'awaiting_authorisation', mandate: { provider: 'rail_b', status: 'initiated', bankCode: '058', accountNumberLast4: accountNumber.slice(-4) } });
    const authorizationUrl = created.body.data.authorizationUrl as string;
    expect(authorizationUrl.startsWith(`${mono.url}/authorise/`)).toBe(true);
    const initiate = mono.state.requests.find((r) => r.path === '/v2/payments/initiate')!;
    const principalKobo = (await loanRow(loanId)).principalKobo;
    expect(initiate.body).toMatchObject({ type: 'recurring-debit', method: 'mandate', account_number: accountNumber, bank_code: '058' });
    // Mono sends the patient back to the hosted application, bound to this loan.
    expect((initiate.body as { redirect_url: string }).redirect_url).toContain(`loan=${loanId}`);
    const reference = (initiate.body as { reference: string }).reference;
    // Asked again without a rail or new details: the mandate in play is returned, not a second one.
    const again = await live().post(`/api/v1/sdk/loans/${loanId}/mandate`, {});
    expect(again.status).toBe(200);
    expect(again.body.data.mandate.id).toBe(created.body.data.mandate.id);
    expect(mono.state.requests.filter((r) => r.path === '/v2/payments/initiate')).toHaveLength(1);

    // The patient approves on Mono's page; Mono's "approved" webhook is read back: approved, not ready to debit.
    const page = await fetch(authorizationUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/Approve[\s\S]*Decline/);
    const approved = await fetch(`${authorizationUrl}/approve`, { method: 'POST', redirect: 'manual' });
    expect(approved.status).toBe(303);
    expect(mono.state.webhooks).toEqual([{ event: 'events.mandates.approved', status: 200 }]);

    // Before Mono confirms: polling and the hosted application's return both leave the loan undisbursed.
    const waiting = await live().get(`/api/v1/sdk/loans/${loanId}/mandate`);
    expect(waiting.body.data).toMatchObject({ applicationStatus: 'offer_accepted', stage: 'awaiting_confirmation', mandate: { provider: 'rail_b', status: 'pending' } });
    const returned = await session.post('/v1/checkout/mandate/activate');
    expect(returned.status).toBe(200);
    expect(returned.body.data.status).toBe('pending');
    const signedLoan = await loanRow(loanId);
    expect(signedLoan).toMatchObject({ status: 'terms_accepted', activeMandateId: null, disbursedAt: null });
    expect(Boolean(signedLoan.hasActiveMandate)).toBe(false);
    expect(await sdkEvents(loanId)).not.toContain('loan.disbursed');
    expect(balanceOf(await balances(FINANCING_LENDER_ID), 'capital_pool', FINANCING_POOL_CODE)).toBe(FUNDED_KOBO);
    expect(balanceOf(await balances(FINANCING_LENDER_ID), 'loan_receivable', loanId)).toBe(0);

    // Mono confirms: its "ready" webhook is a hint; the mandate is read back (by our reference, then by its id) and is active.
    const before = mono.state.requests.length;
    await mono.makeReady(reference);
    expect(mono.state.webhooks.at(-1)).toEqual({ event: 'events.mandates.ready', status: 200 });
    const readBack = mono.state.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(readBack).toContain('GET /v3/payments/mandates');
    expect(readBack.some((r) => /^GET \/v3\/payments\/mandates\/mmc_/.test(r))).toBe(true);

    // The partner's next poll releases the loan.
    const live_ = await live().get(`/api/v1/sdk/loans/${loanId}/mandate`);
    expect(live_.body.data).toMatchObject({ applicationStatus: 'disbursed', stage: 'active', authorizationUrl: null, mandate: { provider: 'rail_b', status: 'active' } });
    const loan = await loanRow(loanId);
    expect(loan).toMatchObject({ status: 'active', disbursedAmountKobo: principalKobo });
    expect(Boolean(loan.hasActiveMandate)).toBe(true);
    const mandate = await db().selectFrom('loanMandates').selectAll().where('id', '=', loan.activeMandateId!).executeTakeFirstOrThrow();
    expect(mandate).toMatchObject({ provider: 'rail_b', status: 'active', reference });
    // Mono's mmc_ id is the authorisation code, sealed at rest.
    expect(JSON.stringify(mandate)).not.toContain(mono.mandateByReference(reference).id!);

    // loan.disbursed is in the partner's outbox (live, patient-financing API), once, written with the disbursement.
    // Live webhook endpoints must be https, so no loopback receiver gets it here; the dispatcher delivers the outbox
    // as for any other event (sdk-financing.test.ts).
    const outbox = await db().selectFrom('events').select(['name', 'payload', 'organisationId']).where('api', '=', 'sdk').where('mode', '=', 'live').where('name', '=', 'loan.disbursed').execute();
    const mine = outbox.filter((e) => JSON.stringify(e.payload).includes(loanId));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.organisationId).toBe(clinic.organisationId);
    expect(await sdkEvents(loanId)).toEqual(expect.arrayContaining(['loan.initiated', 'loan.approved', 'mandate.active', 'loan.disbursed']));

    // The books: balanced; the principal left the service's FINANCING pool into its receivable; the partner is owed
    // the treatment amount and holds nothing of the service's loan.
    expect(await checkLedger(db())).toMatchObject({ ok: true, ledgerSumKobo: 0, unbalancedTransactions: [], balanceMismatches: [], negativeGuardedAccounts: [] });
    const lender = await balances(FINANCING_LENDER_ID);
    expect(balanceOf(lender, 'capital_pool', FINANCING_POOL_CODE)).toBe(FUNDED_KOBO - principalKobo);
    expect(balanceOf(lender, 'loan_receivable', loanId)).toBe(principalKobo);
    const own = await balances(clinic.organisationId);
    expect(balanceOf(own, 'organisation_wallet', clinic.organisationId)).toBe(-principalKobo);
    expect(own.filter((r) => ['loan_receivable', 'interest_income', 'fee_income', 'rail_collections'].includes(r.kind) && r.balanceKobo !== 0)).toEqual([]);
  });

  it('when a mandate waits on rail_a and the partner asks for rail_b, then the rail_a one is withdrawn and a rail_b one set up on the same account; a live mandate is never replaced by another rail', async () => {
    // Test mode: both rails are the sandbox's. The patient signs in the hosted application; the partner sets the debit up.
    const { initiation, session } = await initiatedApplication(app, clinic);
    const loanId = initiation.sdkReference;
    await db().updateTable('checkoutSessions').set({ otpVerifiedAt: clock.now().toISOString() }).where('loanId', '=', loanId).execute();
    const decided = await session.post('/v1/checkout/financing/identity', identity(`2000000000${6}`));
    expect(decided.body.data.status).toBe('approved');
    await session.post('/v1/checkout/financing/tenor', { tenorMonths: 3 });
    const { documentReference } = (await session.get('/v1/checkout/session')).body.data.offer;
    expect((await session.post('/v1/checkout/accept', { signatureFullName: 'Ada Obi', signatureEmail: 'ada@example.com', documentReference, ipAddress: '102.89.34.7', userAgent: 'Mozilla/5.0 (Linux; Android 14)' })).status).toBe(200);
    const account = { bankCode: '058', accountNumber: `300000002${nubanCheckDigit('058', '300000002')}` };
    const test = client(app, clinic.test);

    const onA = await test.post(`/api/v1/sdk/loans/${loanId}/mandate`, account);
    expect(onA.status).toBe(201);
    expect(onA.body.data.mandate.provider).toBe('rail_a');
    expect((await test.post(`/api/v1/sdk/loans/${loanId}/mandate`, { provider: 'rail_a' })).status).toBe(200);

    const onB = await test.post(`/api/v1/sdk/loans/${loanId}/mandate`, { provider: 'rail_b' });
    expect(onB.status).toBe(201);
    expect(onB.body.data).toMatchObject({ stage: 'awaiting_authorisation', mandate: { provider: 'rail_b', status: 'initiated', accountNumberLast4: account.accountNumber.slice(-4) } });
    expect(onB.body.data.mandate.id).not.toBe(onA.body.data.mandate.id);
    const mandates = await db().selectFrom('loanMandates').select(['id', 'provider', 'status', 'accountNumber']).where('loanId', '=', loanId).execute();
    expect(mandates.find((m) => m.id === onA.body.data.mandate.id)).toMatchObject({ provider: 'rail_a', status: 'cancelled' });
    expect(mandates.find((m) => m.id === onB.body.data.mandate.id)).toMatchObject({ provider: 'rail_b', status: 'initiated', accountNumber: account.accountNumber });
    const again = await test.post(`/api/v1/sdk/loans/${loanId}/mandate`, { provider: 'rail_b' });
    expect(again.status).toBe(200);
    expect(again.body.data.mandate.id).toBe(onB.body.data.mandate.id);

    // Live at the rail (the sandbox confirms at once): asking for rail_a now answers the live rail_b mandate.
    const activated = await simulateActivation(db(), app.platform, { organisationId: clinic.organisationId, mode: 'test' }, onB.body.data.mandate.id, clock.now());
    expect(activated.status).toBe('active');
    const kept = await test.post(`/api/v1/sdk/loans/${loanId}/mandate`, { provider: 'rail_a' });
    expect(kept.status).toBe(200);
    expect(kept.body.data).toMatchObject({ stage: 'active', mandate: { id: onB.body.data.mandate.id, provider: 'rail_b', status: 'active' } });
    expect(await db().selectFrom('loanMandates').select('id').where('loanId', '=', loanId).execute()).toHaveLength(2);
  });

  it('when the rail is not one the service charges (rail_c), then 400 invalid_request naming the field', async () => {
    const res = await live().post(`/api/v1/sdk/loans/${newId()}/mandate`, { provider: 'rail_c' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('body.provider') });
  });
});
