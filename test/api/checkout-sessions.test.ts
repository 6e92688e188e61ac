import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { consentFor, lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { mintSession, sessionClient, tokenOf, uniquePhone, verifiedSession } from '../support/checkout';

const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
let stranger: Tenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
  stranger = await createTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const minutes = (n: number) => n * 60_000;

describe('minting checkout sessions', () => {
  it('when an offer issues, then the loan carries an applicationUrl with a working session token, kept only hashed and sealed', async () => {
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    expect(loan.applicationUrl).toMatch(/^http:\/\/localhost:\d+\/checkout\/c\/cs_test_[0-9A-Za-z]{40}$/);
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.applicationUrl).toBe(loan.applicationUrl);
    const token = tokenOf(loan.applicationUrl);
    const state = await sessionClient(app, token).get('/v1/checkout/session');
    expect(state.status).toBe(200);
    expect(state.body.data).toMatchObject({ status: 'in_progress', nextStep: 'otp', session: { source: 'offer_issued', otpVerified: false }, loan: null, offer: null });
    const row = await app.platform.db.selectFrom('loans').select(['applicationUrl', 'applicationTokenSealed']).where('id', '=', loan.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(token);
    const sessions = await app.platform.db.selectFrom('checkoutSessions').selectAll().where('loanId', '=', loan.id).execute();
    expect(JSON.stringify(sessions)).not.toContain(token);
  });

  it('when the partner mints a session, then 201 with url, token and a 30-minute expiry inside a 12-hour cap', async () => {
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    const res = await api().post(`/v1/loans/${loan.id}/checkout-sessions`);
    expect(res.status).toBe(201);
    const now = clock.now().getTime();
    expect(res.body.data).toMatchObject({ loanId: loan.id, source: 'partner', revokedAt: null, token: expect.stringMatching(/^cs_test_/) });
    expect(res.body.data.url).toBe(`${app.platform.baseUrl}/checkout/c/${res.body.data.token}`);
    expect(new Date(res.body.data.expiresAt).getTime()).toBe(now + minutes(30));
    expect(new Date(res.body.data.maxExpiresAt).getTime()).toBe(now + minutes(720));
    expect((await sessionClient(app, res.body.data.token).get('/v1/checkout/session')).status).toBe(200);
  });

  it('when another organisation mints a session for the loan, then 404 and nothing is created', async () => {
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    const before = await app.platform.db.selectFrom('checkoutSessions').select('id').execute();
    const res = await client(app, stranger.test).post(`/v1/loans/${loan.id}/checkout-sessions`);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('NOT_FOUND');
    expect(await app.platform.db.selectFrom('checkoutSessions').select('id').execute()).toHaveLength(before.length);
  });

  it('when the loan is closed, then minting answers 409 invalid_loan_state', async () => {
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    await api().post(`/v1/loans/${loan.id}/cancel`, {});
    const res = await api().post(`/v1/loans/${loan.id}/checkout-sessions`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('invalid_loan_state');
  });
});

describe('session lifetime', () => {
  it('when 30 minutes pass, then the token answers 401 checkout_session_expired', async () => {
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    const session = sessionClient(app, tokenOf(loan.applicationUrl));
    clock.advance(minutes(29));
    expect((await session.get('/v1/checkout/session')).status).toBe(200);
    clock.advance(minutes(1));
    const res = await session.get('/v1/checkout/session');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: 'checkout_session_expired' });
    expect((await session.post('/v1/checkout/session/refresh')).body.error).toBe('checkout_session_expired');
  });

  it('when refreshed, then it lives 30 more minutes, but never past its absolute cap', async () => {
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    const minted = await mintSession(app, tenant.test, loan.id);
    const session = sessionClient(app, minted.token);
    clock.advance(minutes(20));
    const refreshed = await session.post('/v1/checkout/session/refresh');
    expect(refreshed.status).toBe(200);
    expect(new Date(refreshed.body.data.expiresAt).getTime()).toBe(clock.now().getTime() + minutes(30));
    clock.advance(minutes(20));
    expect((await session.get('/v1/checkout/session')).status).toBe(200);
    for (let i = 0; i < 40; i++) {
      const res = await session.post('/v1/checkout/session/refresh');
      expect(res.status).toBe(200);
      if (res.body.data.expiresAt === minted.maxExpiresAt) break;
      clock.advance(minutes(25));
    }
    expect((await session.get('/v1/checkout/session')).body.data.session.expiresAt).toBe(minted.maxExpiresAt);
    clock.set(new Date(new Date(minted.maxExpiresAt).getTime() + 1));
    expect((await session.get('/v1/checkout/session')).body.error).toBe('checkout_session_expired');
  });

  it('when the partner revokes a session, then its token answers 401 checkout_session_revoked; revoking again changes nothing', async () => {
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    const minted = await mintSession(app, tenant.test, loan.id);
    const revoked = await api().post(`/v1/checkout-sessions/${minted.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).toEqual(expect.any(String));
    const res = await sessionClient(app, minted.token).get('/v1/checkout/session');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('checkout_session_revoked');
    // The withdrawn page says whom to ask: the lender's public contact, nothing of the loan.
    const org = await app.platform.db.selectFrom('organisations').select('name').where('id', '=', tenant.organisationId).executeTakeFirstOrThrow();
    expect(res.body.data).toEqual({ lender: { name: org.name, email: null, phone: null, url: null } });
    expect((await api().post(`/v1/checkout-sessions/${minted.id}/revoke`)).body.data.revokedAt).toBe(revoked.body.data.revokedAt);
    expect((await client(app, stranger.test).post(`/v1/checkout-sessions/${minted.id}/revoke`)).status).toBe(404);
  });
});

describe('the session credential', () => {
  it('is refused on every partner route with 403 credential_not_allowed', async () => {
    const { loan } = await offeredLoan(app, tenant, { phone: uniquePhone() });
    const session = sessionClient(app, tokenOf(loan.applicationUrl));
    for (const res of [
      await session.get(`/v1/loans/${loan.id}`),
      await session.get('/v1/products'),
      await session.post(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(loan.documentReference) }),
      await session.post(`/v1/loans/${loan.id}/checkout-sessions`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('credential_not_allowed');
    }
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.status).toBe('awaiting_acceptance');
  });

  it('when an API key calls a checkout route, then 403 credential_not_allowed', async () => {
    for (const res of [await api().get('/v1/checkout/session'), await api().post('/v1/checkout/otp/send', {})]) {
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('credential_not_allowed');
    }
  });

  it('when the token is unknown or malformed, then 401 UNAUTHENTICATED', async () => {
    for (const token of [`cs_test_${'A'.repeat(40)}`, 'nonsense']) {
      const res = await sessionClient(app, token).get('/v1/checkout/session');
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('UNAUTHENTICATED');
    }
  });

  it('only ever shows its own loan', async () => {
    const a = await verifiedSession(app, tenant);
    const b = await verifiedSession(app, tenant);
    expect((await a.session.get('/v1/checkout/session')).body.data.loan.id).toBe(a.loan.id);
    expect((await b.session.get('/v1/checkout/session')).body.data.loan.id).toBe(b.loan.id);
  });
});
