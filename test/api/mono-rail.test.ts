import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { liveProviders } from '../../server/platform/platform';
import { startFakeMono, type FakeMono } from '../support/fakes/mono-fake';
import { liveLendingTenant, startLiveProviders, type LiveProviders } from '../support/live-providers';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { consentFor, eventsOf, type LendingTenant } from '../support/lifecycle';

/**
 * Live `rail_b` on Mono Direct Debit, against the local Mono fake: the mandate is authorised on Mono's page, the
 * webhook (authenticated by its secret header) is only a hint and the mandate is read back before it activates; every
 * debit follows a balance inquiry, a short balance defers the debit to the collector's next try, and a debit whose
 * outcome is unknown is looked up by its reference, never sent twice.
 */
const WEBHOOK_SECRET = 'mono-webhook-secret-0002';
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
let providers: LiveProviders;
let mono: FakeMono;

beforeAll(async () => {
  providers = await startLiveProviders();
  mono = await startFakeMono({ secretKey: 'test_sk_fakemono0002', webhookSecret: WEBHOOK_SECRET });
  const { TERMII_API_KEY: _sms, TERMII_BASE_URL: _smsUrl, ...env } = providers.env;
  app = await startTestApp({
    clock,
    env: { ...env, MONO_SECRET_KEY: 'test_sk_fakemono0002', MONO_BASE_URL: mono.url, MONO_WEBHOOK_SECRET: WEBHOOK_SECRET, PROVIDER_TIMEOUT_MS: '500' },
  });
  providers.connect(app);
  mono.options.webhookUrl = `${app.url}/webhooks/mono`;
  tenant = await liveLendingTenant(app, clock.now());
});
afterAll(async () => {
  await app?.stop();
  await Promise.all([providers?.close(), mono?.close()]);
});

const live = () => client(app, tenant.live);
const debitsOf = (reference: string) => mono.state.requests.filter((r) => r.method === 'POST' && /\/debit$/.test(r.path) && (r.body as { reference?: string }).reference === reference);
const repaymentsOf = async (loanId: string) =>
  app.platform.db.selectFrom('loanRepayments').select(['id', 'reference', 'status', 'amountKobo', 'failureReason', 'chargeReference']).where('loanId', '=', loanId).orderBy('createdAt').orderBy('id').execute();

let loanId: string;
let mandateReference: string;
let schedule: Array<{ dueDate: string; totalKobo: number }>;

describe('live rail_b on Mono Direct Debit (fake Mono)', () => {
  it('the start-up line names both rails and the bureau', () => {
    expect(liveProviders(app.platform)).toMatchObject({ rail: 'rail_a:paystack+rail_b:mono', bureau: 'mono:all' });
  });

  it('mandate → authorised on Mono\'s page → webhook → read back → active', async () => {
    const pushed = await live().post('/v1/preapprovals', pushBody({ amount: 60000 }));
    expect(pushed.status).toBe(202);
    const issued = await live().post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    expect(issued.body.data.status).toBe('awaiting_acceptance');
    loanId = issued.body.data.id as string;
    expect((await live().post(`/v1/loans/${loanId}/accept-terms`, { consent: consentFor(issued.body.data.documentReference) })).status).toBe(200);

    const created = await live().post(`/v1/loans/${loanId}/mandates`, { provider: 'rail_b', email: 'ada@example.com', accountNumber: '0123456789', bankCode: '058', callbackUrl: 'https://partner.example/return' });
    expect(created.status).toBe(201);
    const mandate = created.body.data;
    expect(mandate).toMatchObject({ provider: 'rail_b', status: 'initiated' });
    expect(mandate.authorizationUrl.startsWith(`${mono.url}/authorise/`)).toBe(true);
    const initiated = mono.state.requests.find((r) => r.path === '/v2/payments/initiate')!;
    expect(initiated.body).toMatchObject({ type: 'recurring-debit', method: 'mandate', debit_type: 'variable', account_number: '0123456789', bank_code: '058', redirect_url: 'https://partner.example/return' });
    mandateReference = (initiated.body as { reference: string }).reference;

    // Before the borrower approves, Mono holds no mandate for the reference: reading it back keeps it pending.
    expect((await live().post(`/v1/mandates/${mandate.id}/activate`)).body.data.status).toBe('pending');

    const page = await fetch(mandate.authorizationUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/Approve[\s\S]*Decline/);
    const requestsBefore = mono.state.requests.length;
    const approved = await fetch(`${mandate.authorizationUrl}/approve`, { method: 'POST', redirect: 'manual' });
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toMatch(/^https:\/\/partner\.example\/return\?reference=.*status=approved/);
    expect(mono.state.webhooks).toEqual([
      { event: 'events.mandates.approved', status: 200 },
      { event: 'events.mandates.ready', status: 200 },
    ]);
    // The webhook was only a hint: the mandate was read back from Mono (found by our reference, then by its id).
    const readBack = mono.state.requests.slice(requestsBefore).map((r) => `${r.method} ${r.path}`);
    expect(readBack).toContain('GET /v3/payments/mandates');
    expect(readBack.some((r) => /^GET \/v3\/payments\/mandates\/mmc_/.test(r))).toBe(true);
    const active = await live().get(`/v1/mandates/${mandate.id}`);
    expect(active.body.data.status).toBe('active');
    expect(JSON.stringify(active.body.data)).not.toContain(mono.mandateByReference(mandateReference).id!);

    expect((await live().post(`/v1/loans/${loanId}/disburse`)).status).toBe(200);
    schedule = (await live().get(`/v1/loans/${loanId}/schedule`)).body.data;
    expect(schedule).toHaveLength(3);
  });

  it('the first instalment is debited after a balance inquiry, with our reference, and completes on read-back', async () => {
    clock.set(new Date(new Date(schedule[0]!.dueDate).getTime() + 1_000));
    const from = mono.state.requests.length;
    expect(await runCollections(app.platform, clock.now())).toMatchObject({ scheduled: 1, charged: 1, failed: 0, skipped: 0 });
    const [repayment] = await repaymentsOf(loanId);
    const sent = mono.state.requests.slice(from).map((r) => `${r.method} ${r.path.replace(/mmc_[a-z0-9]+/, ':id')} ${JSON.stringify(r.query)}`);
    // The inquiry, the debit, then the same run's read-back (still processing).
    expect(sent).toEqual([
      `GET /v3/payments/mandates/:id/balance-inquiry {"amount":"${schedule[0]!.totalKobo}"}`,
      'POST /v3/payments/mandates/:id/debit {}',
      `GET /v3/payments/mandates/:id/debits/${repayment!.reference} {}`,
    ]);
    expect(debitsOf(repayment!.reference)).toHaveLength(1);
    expect(debitsOf(repayment!.reference)[0]!.body).toMatchObject({ amount: schedule[0]!.totalKobo, reference: repayment!.reference });

    await mono.settleDebit(repayment!.reference);
    expect(mono.state.webhooks.at(-1)).toEqual({ event: 'events.mandates.debit.successful', status: 200 });
    expect((await repaymentsOf(loanId))[0]).toMatchObject({ status: 'completed' });
  });

  it('a short balance defers the debit (nothing is sent) and the collector tries again on its schedule; a debit Mono never took is sent again with the same reference', async () => {
    mono.setBalance(mandateReference, 1_000);
    clock.set(new Date(new Date(schedule[1]!.dueDate).getTime() + 1_000));
    expect(await runCollections(app.platform, clock.now())).toMatchObject({ scheduled: 1, charged: 0, failed: 1 });
    const deferred = (await repaymentsOf(loanId))[1]!;
    expect(deferred.status).toBe('failed');
    expect(deferred.failureReason).toMatch(/insufficient_balance|deferred/);
    expect(debitsOf(deferred.reference)).toHaveLength(0);

    // Within the retry window nothing is tried again.
    expect(await runCollections(app.platform, clock.now())).toMatchObject({ scheduled: 0, charged: 0 });

    mono.setBalance(mandateReference, 100_000_000);
    clock.advance((app.platform.config.COLLECTION_RETRY_HOURS + 1) * 3_600_000);
    // The retry's debit fails at Mono before it is taken (a 503): its outcome is unknown, so it is looked up first.
    mono.failNext(1, 503, /\/debit$/);
    expect(await runCollections(app.platform, clock.now())).toMatchObject({ scheduled: 1, charged: 0, unknown: 1 });
    const retry = (await repaymentsOf(loanId))[2]!;
    expect(retry).toMatchObject({ status: 'pending', failureReason: 'charge_outcome_unknown', chargeReference: null });
    expect(mono.state.debits.has(retry.reference)).toBe(false);
    // Looked up by its reference: Mono never took it, so it is sent again with the same reference.
    expect(await runCollections(app.platform, clock.now())).toMatchObject({ reconciled: 0, charged: 1 });
    expect(debitsOf(retry.reference)).toHaveLength(2);
    expect(mono.state.requests.some((r) => r.method === 'GET' && r.path.endsWith(`/debits/${retry.reference}`))).toBe(true);
    await mono.settleDebit(retry.reference);
    expect((await repaymentsOf(loanId))[2]).toMatchObject({ status: 'completed' });
  });

  it('a debit whose answer is lost (taken, then timed out) is looked up by its reference and never charged twice', async () => {
    clock.set(new Date(new Date(schedule[2]!.dueDate).getTime() + 1_000));
    mono.delayNext(1_500, /\/debit$/);
    expect(await runCollections(app.platform, clock.now())).toMatchObject({ scheduled: 1, charged: 0, unknown: 1 });
    const lost = (await repaymentsOf(loanId))[3]!;
    expect(lost).toMatchObject({ status: 'pending', failureReason: 'charge_outcome_unknown' });
    expect(mono.state.debits.get(lost.reference)).toMatchObject({ status: 'processing', amount: lost.amountKobo });

    expect(await runCollections(app.platform, clock.now())).toMatchObject({ reconciled: 1, charged: 0 });
    expect(debitsOf(lost.reference)).toHaveLength(1);
    expect((await repaymentsOf(loanId))[3]!.chargeReference).toMatch(/^mmc_[a-z0-9]+:RPY-/);
    await mono.settleDebit(lost.reference);
    expect((await repaymentsOf(loanId))[3]).toMatchObject({ status: 'completed' });
    expect((await live().get(`/v1/loans/${loanId}`)).body.data).toMatchObject({ status: 'completed', outstandingKobo: 0 });
    // One successful debit per instalment, for exactly the schedule's kobo.
    const taken = [...mono.state.debits.values()].filter((d) => d.status === 'successful');
    expect(taken.map((d) => d.amount)).toEqual(schedule.map((i) => i.totalKobo));
    const names = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loanId).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['mandate.active', 'loan.disbursed', 'loan.repayment.completed', 'loan.completed']));
  });

  it('a webhook without the secret, or with another one, is refused (401) and nothing is read', async () => {
    const before = mono.state.requests.length;
    for (const secret of ['forged-secret-000000', null]) {
      const status = await mono.sendWebhook('events.mandates.cancelled', { id: 'mmc_forged', reference: mandateReference, status: 'cancelled' }, { secret });
      expect(status).toBe(401);
    }
    const res = await fetch(`${app.url}/webhooks/mono`, { method: 'POST', headers: { 'content-type': 'application/json', 'mono-webhook-secret': 'forged-secret-000000' }, body: '{}' });
    expect((await res.json()).error).toBe('mono_webhook_secret_invalid');
    expect(mono.state.requests.length).toBe(before);
    expect((await app.platform.db.selectFrom('loanMandates').select('status').where('loanId', '=', loanId).executeTakeFirstOrThrow()).status).toBe('active');
  });

  it('an authenticated webhook naming a reference we do not hold is acknowledged (200) and changes nothing', async () => {
    const res = await fetch(`${app.url}/webhooks/mono`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mono-webhook-secret': WEBHOOK_SECRET },
      body: JSON.stringify({ event: 'events.mandates.debit.successful', data: { mandate: 'mmc_notours', reference_number: 'RPY-not-ours', status: 'successful' } }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.outcome).toBe('unknown_reference');
  });

  it('cancelling the mandate cancels it at Mono', async () => {
    const rail = app.platform.rails.railFor('live', 'rail_b')!;
    await rail.cancel(mandateReference);
    expect(mono.mandateByReference(mandateReference).status).toBe('cancelled');
    expect(await rail.readAuthorisation(mandateReference)).toEqual({ status: 'cancelled', authorizationCode: null });
  });
});
