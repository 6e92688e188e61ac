import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { liveProviders } from '../../server/platform/platform';
import { signPaystackPayload } from '../../server/integrations/paystack/paystack-webhook';
import type { FakePaystack } from '../support/fakes/paystack-fake';
import type { FakeDojah } from '../support/fakes/dojah-fake';
import { liveLendingTenant, startLiveProviders, type LiveProviders } from '../support/live-providers';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { signedInOwner } from '../support/dashboard';
import { enableLive } from '../support/dashboard-members';
import { consentFor, eventsOf, type LendingTenant } from '../support/lifecycle';

/**
 * Live mode with real provider adapters, against local fakes of the providers'
 * documented APIs: Paystack (direct debit rail_a, webhooks) and Dojah (AML screening). A live loan
 * goes push → offer → accept → mandate through Paystack's authorisation page → disburse →
 * collection → completed, and no sandbox adapter is touched on the way.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
let providers: LiveProviders;
let paystack: FakePaystack;
let dojah: FakeDojah;
let SECRET: string;

beforeAll(async () => {
  providers = await startLiveProviders({ paystack: { autoSettleCharges: true } });
  ({ paystack, dojah, paystackSecret: SECRET } = providers);
  // Texts are not part of this journey: live SMS stays unconfigured (the start-up line says so).
  const { TERMII_API_KEY: _sms, TERMII_BASE_URL: _smsUrl, ...env } = providers.env;
  app = await startTestApp({ clock, env });
  providers.connect(app);
  tenant = await liveLendingTenant(app, clock.now());
});
afterAll(async () => {
  await app?.stop();
  await providers?.close();
});

const live = () => client(app, tenant.live);

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 5_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a live loan through real provider adapters (fake Paystack and Dojah)', () => {
  it('the start-up line names the configured providers', () => {
    expect(liveProviders(app.platform)).toMatchObject({ rail: 'rail_a:paystack', aml: 'dojah', identity: 'dojah', bvnIdentity: 'dojah', bankLookup: 'paystack', sms: 'none', insurance: 'none' });
  });

  it('push → offer → accept → mandate on Paystack\'s page → disburse → collection → completed', async () => {
    // Push and offer: the live AML screen is Dojah's (clear), so the offer is issued, not held for review.
    const pushed = await live().post('/v1/preapprovals', pushBody({ amount: 60000 }));
    expect(pushed.status).toBe(202);
    const issued = await live().post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {});
    expect(issued.status).toBe(200);
    expect(issued.body.data.status).toBe('awaiting_acceptance');
    expect(dojah.requests.some((r) => r.path.includes('/aml/'))).toBe(true);
    const loanId = issued.body.data.id as string;
    expect((await live().post(`/v1/loans/${loanId}/accept-terms`, { consent: consentFor(issued.body.data.documentReference) })).status).toBe(200);

    // The mandate: Paystack's authorisation page, approved by the borrower; Paystack's signed webhook activates it.
    const created = await live().post(`/v1/loans/${loanId}/mandates`, {
      email: 'ada@example.com',
      accountNumber: '0123456789',
      bankCode: '058',
      callbackUrl: 'https://partner.example/return',
    });
    expect(created.status).toBe(201);
    const mandate = created.body.data;
    expect(mandate).toMatchObject({ provider: 'rail_a', status: 'initiated' });
    expect(mandate.authorizationUrl.startsWith(paystack.url)).toBe(true);
    expect(JSON.stringify(mandate)).not.toMatch(/AUTH_|authorization_code/i);
    expect((await fetch(mandate.authorizationUrl)).status).toBe(200);
    const approved = await fetch(`${mandate.authorizationUrl}/approve`, { method: 'POST', redirect: 'manual' });
    expect(approved.status).toBe(303);
    expect(approved.headers.get('location')).toMatch(/^https:\/\/partner\.example\/return\?reference=/);
    expect(paystack.state.webhooks.at(-1)).toMatchObject({ event: 'direct_debit.authorization.active', status: 200 });
    const active = await until(() => live().get(`/v1/mandates/${mandate.id}`), (res) => res.body.data.status === 'active');
    expect(active.body.data.status).toBe('active');

    // Disbursement, then every instalment collected through Paystack as it falls due.
    expect((await live().post(`/v1/loans/${loanId}/disburse`)).status).toBe(200);
    const schedule = (await live().get(`/v1/loans/${loanId}/schedule`)).body.data as Array<{ dueDate: string; totalKobo: number }>;
    expect(schedule.length).toBeGreaterThan(1);
    for (const item of schedule) {
      clock.set(new Date(new Date(item.dueDate).getTime() + 1_000));
      const run = await runCollections(app.platform, clock.now());
      expect(run).toMatchObject({ scheduled: 1, charged: 1, failed: 0, skipped: 0 });
      // charge.success arrives as a signed webhook and is read back at once; the next run would read it otherwise.
      await until(
        () => live().get(`/v1/loans/${loanId}/repayments`),
        (res) => res.body.data.every((r: { status: string }) => r.status === 'completed'),
      );
      await runCollections(app.platform, clock.now());
    }
    const loan = (await live().get(`/v1/loans/${loanId}`)).body.data;
    expect(loan).toMatchObject({ status: 'completed', outstandingKobo: 0 });
    const repayments = (await live().get(`/v1/loans/${loanId}/repayments`)).body.data as Array<{ status: string; amountKobo: number }>;
    expect(repayments.every((r) => r.status === 'completed')).toBe(true);
    expect(repayments.reduce((sum, r) => sum + r.amountKobo, 0)).toBe(schedule.reduce((sum, i) => sum + i.totalKobo, 0));

    // Paystack saw one charge per instalment, each for the instalment's kobo, with the mandate's e-mail.
    const charges = paystack.state.requests.filter((r) => r.method === 'POST' && r.path === '/transaction/charge_authorization');
    expect(charges.map((r) => Number((r.body as { amount: string }).amount))).toEqual(schedule.map((i) => i.totalKobo));
    expect(charges.every((r) => (r.body as { email: string }).email === 'ada@example.com')).toBe(true);
    const names = (await eventsOf(app, tenant.organisationId)).filter((e) => e.data.loanId === loanId).map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['mandate.active', 'loan.disbursed', 'loan.repayment.completed', 'loan.completed']));

    // Live mode never touched the sandbox rail.
    const db = app.platform.db;
    expect(Number((await db.selectFrom('sandboxRailAuthorisations').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(0);
    expect(Number((await db.selectFrom('sandboxRailCharges').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(0);
  });

  it('when a notification is not signed with the integration key, then 401 and nothing is read or changed', async () => {
    const body = JSON.stringify({ event: 'charge.success', data: { reference: 'RPY-anything', status: 'success', amount: 100 } });
    const before = paystack.state.requests.length;
    for (const signature of [signPaystackPayload(body, 'sk_test_someoneelse'), undefined]) {
      const res = await fetch(`${app.url}/webhooks/paystack`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { 'x-paystack-signature': signature } : {}) },
        body,
      });
      expect(res.status).toBe(401);
      expect((await res.json()).error).toMatch(/^paystack_signature_/);
    }
    expect(paystack.state.requests.length).toBe(before);
  });

  it('when a signed notification names a reference we do not hold, then 200 (Paystack stops retrying) and nothing changes', async () => {
    const body = JSON.stringify({ event: 'charge.success', data: { reference: 'RPY-not-ours', status: 'success', amount: 100 } });
    const res = await fetch(`${app.url}/webhooks/paystack`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-paystack-signature': signPaystackPayload(body, SECRET) }, body });
    expect(res.status).toBe(200);
    expect((await res.json()).data.outcome).toBe('unknown_reference');
  });

  it('a live bank lookup resolves the account through Paystack', async () => {
    const resolved = await app.platform.bankLookup.for('live').resolveAccount({ bankCode: '058', accountNumber: '0123456789', mode: 'live' });
    expect(resolved.found).toBe(true);
    expect(paystack.state.requests.some((r) => r.path === '/bank/resolve')).toBe(true);
  });

  it('the dashboard home of a live-enabled organisation names what live mode has no provider for here (texts), not "live keys work"', async () => {
    const owner = await signedInOwner(app);
    await enableLive(app, owner.organisationId);
    const overview = (await owner.get('/overview')).json.data;
    expect(overview.organisation).toMatchObject({ liveEnabled: true, liveProvidersMissing: ['sms'] });
  });
});
