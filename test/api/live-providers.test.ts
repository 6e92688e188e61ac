import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { AmlScreens, SandboxAmlScreen } from '../../server/integrations/aml';
import { SandboxInsurer } from '../../server/integrations/insurance';
import { PerMode } from '../../server/platform/domain/per-mode';
import type { Insurer } from '../../server/platform/domain/ports';
import { identity } from '../support/financing';
import { FakeClock } from '../../server/integrations/clock';
import { fundPool } from '../../server/platform/domain/pools/pool';
import { createProduct } from '../../server/platform/domain/products/product';
import { createOperatorLoan } from '../../server/platform/domain/loans/create-operator-loan';
import { productInput } from '../support/factories';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { newId } from '../../server/platform/domain/ids';
import { liveProviders, liveProvidersLine } from '../../server/platform/platform';
import { client, createTenant, pushBody, startTestApp, type TestApp } from '../support/harness';
import { consentFor, eventsOf, lendingTenant, type LendingTenant } from '../support/lifecycle';
import { mintSession, nubanCheckDigit, sessionClient, tokenOf } from '../support/checkout';

/**
 * Live mode never reaches a sandbox adapter: with no live payment rail configured every
 * rail-backed call answers 503 `provider_not_configured` and writes nothing, the collector leaves
 * live loans alone, the sandbox rail serves test-mode mandates only, and a live AML screen without
 * a provider leaves the loan `under_review`.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
let logged: Array<Record<string, unknown>>;

beforeAll(async () => {
  logged = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => logged.push(JSON.parse(line)) });
  app = await startTestApp({ clock, logger });
  tenant = await lendingTenant(app);
  await app.platform.db.transaction().execute((trx) =>
    fundPool(trx, { organisationId: tenant.organisationId, mode: 'live', code: 'MAIN', amountKobo: 1_000_000_000, now: clock.now() }),
  );
});
afterAll(() => app.stop());

const live = () => client(app, tenant.live);

/** Everything a rail-backed call could write: mandates, events, sandbox rail state, repayments, ledger. */
async function snapshot() {
  const db = app.platform.db;
  const count = async (table: 'loanMandates' | 'events' | 'sandboxRailAuthorisations' | 'sandboxRailCharges' | 'loanRepayments' | 'ledgerPostings') =>
    Number((await db.selectFrom(table).select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return {
    mandates: await count('loanMandates'),
    events: await count('events'),
    authorisations: await count('sandboxRailAuthorisations'),
    charges: await count('sandboxRailCharges'),
    repayments: await count('loanRepayments'),
    postings: await count('ledgerPostings'),
    loans: await db.selectFrom('loans').select(['id', 'status', 'activeMandateId', 'hasActiveMandate', 'outstandingKobo', 'updatedAt']).orderBy('id').execute(),
    borrowers: await db.selectFrom('borrowers').select(['id', 'email', 'updatedAt']).orderBy('id').execute(),
  };
}

/** Live loans reach an offer only through a screen, so these tests configure a fake live AML provider (rails stay unconfigured). */
function withLiveAml<T>(work: () => Promise<T>): Promise<T> {
  const before = app.platform.aml;
  app.platform.aml = new AmlScreens({ provider: 'fake', adapter: { screen: async () => ({ status: 'clear', detail: 'fake live provider: no match' }) } });
  return work().finally(() => {
    app.platform.aml = before;
  });
}

/** Disbursing an insured live loan needs a live insurer; the collector test is about rails, so it configures a stand-in. */
async function withLiveInsurer<T>(work: () => Promise<T>): Promise<T> {
  const before = app.platform.insurer;
  app.platform.insurer = new PerMode<Insurer>('insurance', new SandboxInsurer(), { provider: 'fake', adapter: new SandboxInsurer() });
  try {
    return await work();
  } finally {
    app.platform.insurer = before;
  }
}

async function liveAcceptedLoan() {
  return withLiveAml(async () => {
    const pushed = await live().post('/v1/preapprovals', pushBody());
    expect(pushed.status).toBe(202);
    const issued = await live().post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    expect(issued.status).toBe(200);
    const accepted = await live().post(`/v1/loans/${issued.body.data.id}/accept-terms`, { consent: consentFor(issued.body.data.documentReference) });
    expect(accepted.status).toBe(200);
    return accepted.body.data as { id: string; borrowerId: string; status: string };
  });
}

/** A live mandate set up on the sandbox rail before live mode stopped reaching it (the state this change must make harmless). */
async function legacyLiveMandate(loanId: string, status: 'initiated' | 'active' = 'initiated') {
  const reference = `MDT-${newId()}`;
  const created = await fetch(`${app.url}/sandbox/rails/rail_a/authorisations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reference, email: 'ada@example.com', amountKobo: 100_000 }),
  });
  expect(created.status).toBe(201);
  const authorisation = await created.json();
  const loan = await app.platform.db.selectFrom('loans').selectAll().where('id', '=', loanId).executeTakeFirstOrThrow();
  const at = clock.now().toISOString();
  const id = newId();
  await app.platform.db
    .insertInto('loanMandates')
    .values({
      id,
      organisationId: loan.organisationId,
      mode: 'live',
      borrowerId: loan.borrowerId,
      loanId,
      provider: 'rail_a',
      status,
      reference,
      email: 'ada@example.com',
      accountNumber: null,
      bankCode: null,
      amountKobo: 100_000,
      authorizationUrl: authorisation.authorizationUrl,
      callbackUrl: null,
      providerReference: authorisation.providerReference,
      providerStatus: status === 'active' ? 'active' : 'pending',
      authorizationCodeSealed: status === 'active' ? app.platform.secrets.encrypt('rail-authorisation-code', 'AUTH_legacy0001') : null,
      activatedAt: status === 'active' ? at : null,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  if (status === 'active') {
    await app.platform.db.updateTable('loans').set({ activeMandateId: id, hasActiveMandate: true }).where('id', '=', loanId).execute();
  }
  return { id, reference, providerReference: authorisation.providerReference as string, authorizationUrl: authorisation.authorizationUrl as string };
}

const refusedAsUnconfigured = (res: { status: number; body: any }) => {
  expect(res.status).toBe(503);
  expect(res.body).toMatchObject({ error: 'provider_not_configured', data: { port: 'payment_rail', provider: expect.stringMatching(/^rail_/) } });
  expect(res.body.message).toMatch(/rail_/);
};

describe('live mode with no payment rail configured', () => {
  it('when a live key sets up a mandate on rail_a or rail_b, then 503 provider_not_configured naming the rail, and nothing is written', async () => {
    const loan = await liveAcceptedLoan();
    const before = await snapshot();
    for (const provider of ['rail_a', 'rail_b'] as const) {
      const res = await live().post(`/v1/loans/${loan.id}/mandates`, { email: 'ada@example.com', accountNumber: '0123456789', bankCode: '058', provider });
      refusedAsUnconfigured(res);
      expect(res.body.data.provider).toBe(provider);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('when a live key activates a live mandate, then 503 and the mandate is unchanged', async () => {
    const loan = await liveAcceptedLoan();
    const mandate = await legacyLiveMandate(loan.id);
    const before = await snapshot();
    refusedAsUnconfigured(await live().post(`/v1/mandates/${mandate.id}/activate`));
    expect(await snapshot()).toEqual(before);
    expect((await live().get(`/v1/mandates/${mandate.id}`)).body.data.status).toBe('initiated');
  });

  it('when a live checkout sets up or confirms the direct debit, then 503 and nothing is written (the typed e-mail included)', async () => {
    const loan = await liveAcceptedLoan();
    const session = await mintSession(app, tenant.live, loan.id);
    expect(session.token).toMatch(/^cs_live_/);
    // Live OTP texts need a live SMS provider; the phone is marked verified directly.
    await app.platform.db.updateTable('checkoutSessions').set({ otpVerifiedAt: clock.now().toISOString() }).where('id', '=', session.id).execute();
    await app.platform.db.updateTable('borrowers').set({ email: null }).where('id', '=', loan.borrowerId).execute();
    const checkout = sessionClient(app, tokenOf(session.url));
    const before = await snapshot();
    refusedAsUnconfigured(await checkout.post('/v1/checkout/mandate', { email: 'typed@example.com' }));
    expect(await snapshot()).toEqual(before);

    await legacyLiveMandate(loan.id);
    const withMandate = await snapshot();
    refusedAsUnconfigured(await checkout.post('/v1/checkout/mandate/activate'));
    refusedAsUnconfigured(await checkout.post('/v1/checkout/mandate', { email: 'typed@example.com' }));
    expect(await snapshot()).toEqual(withMandate);
  });

  it('when a live financing application reaches the mandate step, then 503 and nothing is written', async () => {
    const clinic = await createTenant(app, { loanTenant: false, preapprovedLending: false });
    const initiated = await client(app, clinic.live).post('/api/v1/sdk/loans/initiate', {
      clientReference: `cref-${newId()}`,
      invoiceReference: 'INV-1',
      firstName: 'Ada',
      phoneNumber: '08031234567',
      treatment: 'Root canal',
      treatmentAmount: 15_000_000,
    });
    expect(initiated.status).toBe(201);
    const loanId = initiated.body.data.sdkReference as string;
    // Getting here for real needs live identity and bureau providers (none exist yet): the signed state is arranged directly.
    await app.platform.db.updateTable('financingApplications').set({ status: 'offer_accepted' }).where('id', '=', loanId).execute();
    await app.platform.db.updateTable('loans').set({ status: 'terms_accepted' }).where('id', '=', loanId).execute();
    const before = await snapshot();
    const accountNumber = `100000000${nubanCheckDigit('058', '100000000')}`;
    refusedAsUnconfigured(await client(app, clinic.live).post(`/api/v1/sdk/loans/${loanId}/mandate`, { bankCode: '058', accountNumber, email: 'ada@example.com' }));
    expect(await snapshot()).toEqual(before);
  });

  it('when the collector runs, then live loans without a live rail are skipped and logged: no repayment, no charge, no ledger change', async () => {
    const loan = await liveAcceptedLoan();
    expect((await withLiveInsurer(() => live().post(`/v1/loans/${loan.id}/disburse`))).status).toBe(200);
    const mandate = await legacyLiveMandate(loan.id, 'active');
    clock.advance(120 * 86_400_000);
    // A mandate repayment left pending from before: it must not be sent to any rail either.
    const leftPending = newId();
    const at = clock.now().toISOString();
    await app.platform.db
      .insertInto('loanRepayments')
      .values({
        id: leftPending, organisationId: tenant.organisationId, mode: 'live', loanId: loan.id, borrowerId: loan.borrowerId, reference: `RPY-${newId()}`,
        method: 'mandate', status: 'pending', amountKobo: 100_000, unallocatedKobo: 0, feePortionKobo: 0, interestPortionKobo: 0, principalPortionKobo: 0,
        externalReference: null, ledgerTransactionRef: null, completedAt: null, settlementId: null, mandateId: mandate.id, chargeReference: null,
        failureReason: null, initiatedBy: 'schedule', createdAt: at, updatedAt: at,
      })
      .execute();
    const before = await snapshot();
    logged.length = 0;
    const run = await runCollections(app.platform, clock.now());
    expect(run.skipped).toBeGreaterThan(0);
    const after = await snapshot();
    expect(after.repayments).toBe(before.repayments);
    expect(after.charges).toBe(before.charges);
    expect(after.postings).toBe(before.postings);
    expect(await app.platform.db.selectFrom('loanRepayments').select(['status', 'chargeReference']).where('id', '=', leftPending).executeTakeFirstOrThrow()).toEqual({ status: 'pending', chargeReference: null });
    expect(logged.some((line) => /collector skipped loans/.test(String(line.msg)) && JSON.stringify(line.providers).includes('live:rail_a'))).toBe(true);
  });
});

/** Every row a provider-backed call could write, beyond the rails': sessions, codes, texts, KYC, insurance, applications. */
async function everything() {
  const db = app.platform.db;
  const tables = ['loans', 'borrowers', 'events', 'ledgerPostings', 'kycSubmissions', 'loanInsurancePolicies', 'checkoutSessions', 'otpChallenges', 'otpSendWindows', 'checkoutRenewals', 'sandboxSms', 'financingApplications', 'loanMandates', 'loanRepayments'] as const;
  const out: Record<string, string[]> = {};
  for (const table of tables) out[table] = (await db.selectFrom(table).selectAll().execute()).map((row) => JSON.stringify(row)).sort();
  return out;
}

const refusedFor = (res: { status: number; body: any }, port: string) => {
  expect(res.status).toBe(503);
  expect(res.body).toMatchObject({ error: 'provider_not_configured', data: { port } });
  expect(res.body.message).toMatch(/No live .* is configured/);
};

/** A live checkout session whose phone is already verified (live OTP texts need a live SMS provider). */
async function verifiedLiveSession(loanId: string) {
  const session = await mintSession(app, tenant.live, loanId);
  await app.platform.db.updateTable('checkoutSessions').set({ otpVerifiedAt: clock.now().toISOString() }).where('id', '=', session.id).execute();
  return sessionClient(app, tokenOf(session.url));
}

describe('live mode without providers: every other provider-backed route answers 503 provider_not_configured and writes nothing', () => {
  it('when a live insured loan is disbursed with no live insurer, then 503 naming insurance, and no money, policy or event moves', async () => {
    const loan = await liveAcceptedLoan();
    const before = await everything();
    refusedFor(await live().post(`/v1/loans/${loan.id}/disburse`), 'insurance');
    expect(await everything()).toEqual(before);
    expect((await live().get(`/v1/loans/${loan.id}`)).body.data.status).toBe('terms_accepted');
  });

  it('when a live managed-tier KYC is submitted with no identity provider, then 503 naming identity, and no submission is recorded', async () => {
    const now = clock.now();
    const product = await createProduct(app.platform.db, { organisationId: tenant.organisationId, input: productInput({ approvalMode: 'tenant', kycTier: 'managed' }), now });
    const loan = await app.platform.db.transaction().execute((trx) =>
      createOperatorLoan(
        { db: trx, platform: app.platform, now, scope: { organisationId: tenant.organisationId, mode: 'live' }, actor: 'test' },
        { borrower: { firstName: 'Tunde', lastName: 'Bello', phone: '+2348030000001' }, productId: product.id, amountKobo: 5_000_000, tenorDays: 60 },
      ),
    );
    const before = await everything();
    refusedFor(await live().post(`/v1/loans/${loan.id}/kyc`, { bvn: '22222222222', nin: '12345678901' }), 'identity');
    expect(await everything()).toEqual(before);
  });

  it('when a live checkout asks for a code or a new link with no SMS provider, then 503 naming sms, and no code, cool-down, text or link is recorded', async () => {
    const loan = await liveAcceptedLoan();
    const session = await mintSession(app, tenant.live, loan.id);
    const checkout = sessionClient(app, tokenOf(session.url));
    const before = await everything();
    refusedFor(await checkout.post('/v1/checkout/otp/send'), 'sms');
    expect(await everything()).toEqual(before);
    clock.advance(app.platform.config.CHECKOUT_SESSION_TTL_MINUTES * 60_000 + 60_000);
    const expired = await everything();
    refusedFor(await checkout.post('/v1/checkout/session/renew', {}), 'sms');
    expect(await everything()).toEqual(expired);
  });

  it('when a live checkout looks up or saves a bank account with no lookup provider, then 503 naming bank_lookup, and nothing is saved', async () => {
    const loan = await liveAcceptedLoan();
    const checkout = await verifiedLiveSession(loan.id);
    const account = { bankCode: '058', accountNumber: `100000000${nubanCheckDigit('058', '100000000')}` };
    expect((await checkout.get('/v1/checkout/banks')).status).toBe(200);
    const before = await everything();
    refusedFor(await checkout.post('/v1/checkout/bank-account/resolve', account), 'bank_lookup');
    refusedFor(await checkout.post('/v1/checkout/bank-account', account), 'bank_lookup');
    expect(await everything()).toEqual(before);
  });

  it('when a live patient-financing application reaches the identity step with no BVN provider, then 503 naming bvn_identity, and nothing is recorded', async () => {
    const clinic = await createTenant(app, { loanTenant: false, preapprovedLending: false });
    const initiated = await client(app, clinic.live).post('/api/v1/sdk/loans/initiate', {
      clientReference: `cref-${newId()}`, invoiceReference: 'INV-2', firstName: 'Ada', phoneNumber: '08031234568', treatment: 'Root canal', treatmentAmount: 15_000_000,
    });
    expect(initiated.status).toBe(201);
    const token = tokenOf(initiated.body.data.applicationUrl);
    await app.platform.db.updateTable('checkoutSessions').set({ otpVerifiedAt: clock.now().toISOString() }).where('loanId', '=', initiated.body.data.sdkReference).execute();
    const before = await everything();
    refusedFor(await sessionClient(app, token).post('/v1/checkout/financing/identity', identity('22222222222')), 'bvn_identity');
    expect(await everything()).toEqual(before);
  });
});

describe('the sandbox rail serves test-mode mandates only', () => {
  it('when a live mandate reference is used on the sandbox rail, then every route answers 404 and the authorisation is not approved', async () => {
    const loan = await liveAcceptedLoan();
    const mandate = await legacyLiveMandate(loan.id);
    const rail = `${app.url}/sandbox/rails/rail_a`;
    const ref = encodeURIComponent(mandate.providerReference);
    expect((await fetch(`${rail}/authorisations/${ref}`)).status).toBe(404);
    expect((await fetch(`${rail}/authorise/${ref}`)).status).toBe(404);
    const approve = await fetch(`${rail}/authorise/${ref}`, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
    expect(approve.status).toBe(404);
    expect((await fetch(`${rail}/authorisations/${ref}/cancel`, { method: 'POST' })).status).toBe(404);
    const replay = await fetch(`${rail}/authorisations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reference: mandate.reference, email: 'ada@example.com', amountKobo: 100_000 }),
    });
    expect(replay.status).toBe(409);
    expect(JSON.stringify(await replay.json())).not.toMatch(/AUTH_|mdt_/);
    const stored = await app.platform.db.selectFrom('sandboxRailAuthorisations').selectAll().where('providerReference', '=', mandate.providerReference).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ status: 'pending', authorizationCode: null });
  });

  it('when the reference is a test-mode mandate, then the sandbox rail serves it as before', async () => {
    const test = client(app, tenant.test);
    const pushed = await test.post('/v1/preapprovals', pushBody());
    const issued = await test.post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    const mandate = (await test.post(`/v1/loans/${issued.body.data.id}/mandates`, { email: 'ada@example.com' })).body.data;
    expect(mandate.status).toBe('initiated');
    expect((await fetch(mandate.authorizationUrl)).status).toBe(200);
  });
});

describe('AML screening per mode', () => {
  it('when a live decision is pushed and no AML provider is configured, then the loan is under_review and the screen says pending (never clear)', async () => {
    const pushed = await live().post('/v1/preapprovals', pushBody());
    const issued = await live().post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    expect(issued.status).toBe(200);
    expect(issued.body.data).toMatchObject({ status: 'under_review', documentReference: null });
    const attestation = await app.platform.db.selectFrom('kycAttestations').selectAll().where('loanId', '=', issued.body.data.id).executeTakeFirstOrThrow();
    expect(attestation).toMatchObject({ mode: 'live', amlScreenStatus: 'pending', amlScreenDetail: expect.stringMatching(/no live AML/) });
    const events = (await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'loan.kyc.attested' && e.data.loanId === issued.body.data.id);
    expect(events.map((e) => e.data.amlScreenStatus)).toEqual(['pending']);
  });

  it.each(['approve', 'attestation'] as const)(
    'when a live delegated-tier loan is attested through %s and no AML provider is configured, then it is under_review, not screened clear',
    async (route) => {
      const now = clock.now();
      const product = await createProduct(app.platform.db, { organisationId: tenant.organisationId, input: productInput({ approvalMode: 'tenant', kycTier: 'delegated' }), now });
      const loan = await app.platform.db.transaction().execute((trx) =>
        createOperatorLoan(
          { db: trx, platform: app.platform, now, scope: { organisationId: tenant.organisationId, mode: 'live' }, actor: 'test' },
          { borrower: { firstName: 'Tunde', lastName: 'Bello', phone: '+2348030000000' }, productId: product.id, amountKobo: 5_000_000, tenorDays: 60 },
        ),
      );
      const res =
        route === 'approve'
          ? await live().post(`/v1/loans/${loan.id}/approve`, { attestation: { schemaVersion: 1, attestedChecks: { bvnVerified: true } } })
          : await live().post(`/v1/loans/${loan.id}/attestation`, { attestedChecks: { bvnVerified: true } });
      expect(res.status).toBe(route === 'approve' ? 200 : 201);
      const attestation = route === 'approve' ? res.body.data.attestation : res.body.data;
      expect(attestation.amlScreenStatus).toBe('pending');
      if (route === 'approve') expect(res.body.data).toMatchObject({ approved: false, loan: { status: 'under_review', documentReference: null } });
      expect((await live().get(`/v1/loans/${loan.id}`)).body.data.status).toBe('under_review');
    },
  );

  it('keeps the sandbox screen in test mode, and the sandbox never screens a live person clear', async () => {
    const screens = new AmlScreens();
    expect(await screens.screen({ firstName: 'Ada', lastName: 'Obi', mode: 'test' })).toMatchObject({ status: 'clear' });
    expect(await screens.screen({ firstName: 'Ada', lastName: 'Sanctioned', mode: 'test' })).toMatchObject({ status: 'hit' });
    expect(await screens.screen({ firstName: 'Ada', lastName: 'Obi', mode: 'live' })).toMatchObject({ status: 'pending' });
    expect(await new SandboxAmlScreen().screen({ firstName: 'Ada', lastName: 'Obi', mode: 'live' })).toMatchObject({ status: 'pending' });
  });
});

describe('start-up log', () => {
  it('lists the live providers in one line', () => {
    const providers = liveProviders(app.platform);
    expect(providers).toMatchObject({ rail: 'none', aml: 'none', identity: 'none', bvnIdentity: 'none', bureau: 'none', bankLookup: 'none', sms: 'none', insurance: 'none' });
    expect(liveProvidersLine(providers)).toMatch(/^live providers: rail none, aml none, identity none, .*sms none, insurance none/);
  });
});
