import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { client, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, eventsOf, lendingTenant, type LendingTenant } from '../support/lifecycle';

const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const mandateEvents = async (loanId: string) => (await eventsOf(app, tenant.organisationId)).filter((e) => e.name === 'mandate.active' && e.data.loanId === loanId);

describe('mandates', () => {
  it('rail_c is a status marker: active at once, no URL, mandate.active once, the loan points at it', async () => {
    const { loan } = await acceptedLoan(app, tenant);
    const res = await api().post(`/v1/loans/${loan.id}/mandates`, { email: 'ada@example.com', provider: 'rail_c' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ provider: 'rail_c', status: 'active', authorizationUrl: null, activatedAt: expect.any(String) });
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data).toMatchObject({ hasActiveMandate: true, activeMandateId: res.body.data.id });
    expect(await mandateEvents(loan.id)).toHaveLength(1);
  });

  it('rail_a: initiated with a provider URL; returning from the page is not enough; active only after the provider confirms', async () => {
    const { loan } = await acceptedLoan(app, tenant);
    const created = await api().post(`/v1/loans/${loan.id}/mandates`, {
      email: 'ada@example.com',
      accountNumber: '0123456789',
      bankCode: '058',
      callbackUrl: 'https://partner.example/return',
    });
    expect(created.status).toBe(201);
    const mandate = created.body.data;
    expect(mandate).toMatchObject({ provider: 'rail_a', status: 'initiated', authorizationUrl: expect.stringContaining('/sandbox/rails/rail_a/authorise/') });
    expect(JSON.stringify(created.body)).not.toMatch(/authorizationCode|AUTH_/);

    const before = await api().post(`/v1/mandates/${mandate.id}/activate`);
    expect(before.body.data.status).toBe('pending');

    const page = await fetch(mandate.authorizationUrl);
    expect(page.status).toBe(200);
    const approve = await fetch(mandate.authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision: 'approve' }), redirect: 'manual' });
    expect(approve.status).toBe(303);
    expect(approve.headers.get('location')).toMatch(/^https:\/\/partner\.example\/return\?.*status=approved/);

    const approved = await api().post(`/v1/mandates/${mandate.id}/activate`);
    expect(approved.body.data.status).toBe('pending');
    expect(approved.body.message).toMatch(/not confirmed/);
    expect(await mandateEvents(loan.id)).toHaveLength(0);

    clock.advance(app.platform.config.RAIL_CONFIRMATION_LAG_MS + 1000);
    const active = await api().post(`/v1/mandates/${mandate.id}/activate`);
    expect(active.body.data).toMatchObject({ status: 'active', activatedAt: expect.any(String) });
    expect(JSON.stringify(active.body)).not.toMatch(/AUTH_/);
    await api().post(`/v1/mandates/${mandate.id}/activate`);
    expect(await mandateEvents(loan.id)).toHaveLength(1);
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.activeMandateId).toBe(mandate.id);
    const stored = await app.platform.db.selectFrom('loanMandates').select('authorizationCodeSealed').where('id', '=', mandate.id).executeTakeFirstOrThrow();
    expect(stored.authorizationCodeSealed).not.toMatch(/AUTH_/);
  });

  it('a refused authorisation fails the mandate', async () => {
    const { loan } = await acceptedLoan(app, tenant);
    const mandate = (await api().post(`/v1/loans/${loan.id}/mandates`, { email: 'ada@example.com', provider: 'rail_b' })).body.data;
    await fetch(mandate.authorizationUrl, { method: 'POST', body: new URLSearchParams({ decision: 'refuse' }), redirect: 'manual' });
    expect((await api().post(`/v1/mandates/${mandate.id}/activate`)).body.data.status).toBe('failed');
  });

  it('simulate-activation works with test keys and answers 403 to live keys', async () => {
    const { loan } = await acceptedLoan(app, tenant);
    const mandate = (await api().post(`/v1/loans/${loan.id}/mandates`, { email: 'ada@example.com' })).body.data;
    const live = await client(app, tenant.live).post(`/v1/test/mandates/${mandate.id}/simulate-activation`);
    expect(live.status).toBe(403);
    expect(live.body.error).toBe('SANDBOX_ONLY');
    const res = await api().post(`/v1/test/mandates/${mandate.id}/simulate-activation`);
    expect(res.body.data.status).toBe('active');
    expect(await mandateEvents(loan.id)).toHaveLength(1);
    expect((await api().get(`/v1/mandates/${mandate.id}`)).body.data.status).toBe('active');
  });

  it('refuses a mandate on a loan that cannot be collected (409) and a bad account number (400)', async () => {
    const { loan } = await acceptedLoan(app, tenant);
    await api().post(`/v1/loans/${loan.id}/cancel`, {});
    const res = await api().post(`/v1/loans/${loan.id}/mandates`, { email: 'ada@example.com' });
    expect(res.status).toBe(409);
    const { loan: other } = await acceptedLoan(app, tenant);
    expect((await api().post(`/v1/loans/${other.id}/mandates`, { email: 'ada@example.com', accountNumber: '12' })).status).toBe(400);
    expect((await api().post(`/v1/loans/${other.id}/mandates`, {})).status).toBe(400);
  });
});
