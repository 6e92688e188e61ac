import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { OTP_RULES } from '../../server/platform/domain/checkout/otp';
import { RENEW_RULES } from '../../server/platform/domain/checkout/renew-checkout-session';
import { client, startSecondInstance, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, offeredLoan, operatorLoan, type LendingTenant } from '../support/lifecycle';
import { PerMode } from '../../server/platform/domain/per-mode';
import type { SmsSender } from '../../server/platform/domain/ports';
import { latestOtp, mintSession, sessionClient, tokenOf, uniquePhone, verifiedSession } from '../support/checkout';

/**
 * Sessions that survive real life: the OTP challenge in the state (a reload restores it), a code
 * replaced by a newer one, the loan's application-link expiry, "text me a new link" from an
 * expired session (and only an expired one), its rate limit across processes, and the text a
 * waiting borrower gets when the lender issues the offer.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);
const minutes = (n: number) => n * 60_000;
const ttl = () => minutes(app.platform.config.CHECKOUT_SESSION_TTL_MINUTES + 1);

async function inbox(phone: string): Promise<string[]> {
  const res = await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`);
  return (res.body.data.messages as Array<{ body: string }>).map((m) => m.body);
}

/** The texts after-commit work sends are not awaited by the answer: read the inbox until one matches. */
async function waitForText(phone: string, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const found = (await inbox(phone)).find((body) => pattern.test(body));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no text matching ${pattern} for ${phone}: ${JSON.stringify(await inbox(phone))}`);
}

async function freshSession() {
  const phone = uniquePhone();
  const { loan } = await offeredLoan(app, tenant, { phone });
  const token = tokenOf(loan.applicationUrl);
  return { phone, loan, token, session: sessionClient(app, token) };
}

describe('the OTP challenge in the checkout state', () => {
  it('when a code was sent, then the state shows where it went, its expiry, the resend time and the attempts left; a wrong code lowers them and says so', async () => {
    const { phone, session } = await freshSession();
    expect((await session.get('/v1/checkout/session')).body.data.otpChallenge).toBeNull();
    const sent = await session.post('/v1/checkout/otp/send');
    expect(sent.status).toBe(200);
    const state = (await session.get('/v1/checkout/session')).body.data;
    const now = clock.now().getTime();
    expect(state.otpChallenge).toEqual({
      sentTo: `•••• ${phone.slice(-4)}`,
      expiresAt: new Date(now + OTP_RULES.lifetimeMs).toISOString(),
      resendAvailableAt: new Date(now + OTP_RULES.resendCooldownMs).toISOString(),
      resendInSeconds: 30,
      attemptsAllowed: 5,
      attemptsLeft: 5,
    });
    const code = await latestOtp(app, phone);
    const wrong = await session.post('/v1/checkout/otp/verify', { code: code === '000000' ? '111111' : '000000' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ error: 'otp_incorrect', data: { attemptsLeft: 4 } });
    expect(wrong.body.message).toContain('4 attempts left');
    expect((await session.get('/v1/checkout/session')).body.data.otpChallenge.attemptsLeft).toBe(4);
    expect((await session.post('/v1/checkout/otp/verify', { code })).status).toBe(200);
    expect((await session.get('/v1/checkout/session')).body.data.otpChallenge).toBeNull();
  });

  it('when "Send code" is pressed again within the cool-down, then the 429 carries Retry-After and the code still in play', async () => {
    const { phone, session } = await freshSession();
    await session.post('/v1/checkout/otp/send');
    clock.advance(12_000);
    const early = await session.post('/v1/checkout/otp/send');
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('18');
    expect(early.body).toMatchObject({ error: 'otp_resend_too_soon', data: { sentTo: `•••• ${phone.slice(-4)}`, attemptsLeft: 5, resendInSeconds: 18 } });
    expect(early.body.data).toEqual((await session.get('/v1/checkout/session')).body.data.otpChallenge);
  });

  it('when the code has expired, then the state has no challenge (the page offers "Send code" again)', async () => {
    const { session } = await freshSession();
    await session.post('/v1/checkout/otp/send');
    clock.advance(OTP_RULES.lifetimeMs + 1_000);
    expect((await session.get('/v1/checkout/session')).body.data.otpChallenge).toBeNull();
  });

  it('when the borrower types the older code after a newer one was sent, then 422 otp_superseded, counted as an attempt, never a match; the newer code still verifies', async () => {
    const { phone, session } = await freshSession();
    await session.post('/v1/checkout/otp/send');
    const first = await latestOtp(app, phone);
    let second = first;
    // Codes are random: ask again until the new one differs (each ask waits out the cool-down).
    while (second === first) {
      clock.advance(OTP_RULES.resendCooldownMs);
      expect((await session.post('/v1/checkout/otp/send')).status).toBe(200);
      second = await latestOtp(app, phone);
    }
    const old = await session.post('/v1/checkout/otp/verify', { code: first });
    expect(old.status).toBe(422);
    expect(old.body).toMatchObject({ error: 'otp_superseded', data: { attemptsLeft: 4 } });
    expect(old.body.message).toMatch(/newer code was sent/);
    expect((await session.get('/v1/checkout/session')).body.data.session.otpVerified).toBe(false);
    // The limit holds whatever is typed: four more old codes lock the newer one.
    for (let left = 3; left >= 0; left--) {
      expect((await session.post('/v1/checkout/otp/verify', { code: first })).body).toMatchObject({ error: 'otp_superseded', data: { attemptsLeft: left } });
    }
    expect((await session.post('/v1/checkout/otp/verify', { code: second })).body.error).toBe('otp_locked');
    clock.advance(OTP_RULES.resendCooldownMs);
    await session.post('/v1/checkout/otp/send');
    expect((await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) })).status).toBe(200);
  });
});

describe('the loan\'s checkoutSession', () => {
  it('when the loan has an application link, then GET /v1/loans/{id} shows its expiry and cap, sliding when the borrower refreshes', async () => {
    const { loan, session } = await freshSession();
    const now = clock.now().getTime();
    const read = await api().get(`/v1/loans/${loan.id}`);
    expect(read.body.data.checkoutSession).toEqual({
      expiresAt: new Date(now + minutes(30)).toISOString(),
      maxExpiresAt: new Date(now + minutes(720)).toISOString(),
      revokedAt: null,
    });
    clock.advance(minutes(20));
    expect((await session.post('/v1/checkout/session/refresh')).status).toBe(200);
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.checkoutSession.expiresAt).toBe(new Date(now + minutes(50)).toISOString());
  });

  it('when the page reads the state or refreshes, then each answer says how many seconds the session has left (what the keep-alive is timed by)', async () => {
    const { session } = await freshSession();
    clock.advance(minutes(10));
    expect((await session.get('/v1/checkout/session')).body.data.session.expiresInSeconds).toBe(20 * 60);
    const refreshed = await session.post('/v1/checkout/session/refresh');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.data.expiresInSeconds).toBe(app.platform.config.CHECKOUT_SESSION_TTL_MINUTES * 60);
    expect(new Date(refreshed.body.data.expiresAt).getTime()).toBe(clock.now().getTime() + refreshed.body.data.expiresInSeconds * 1000);
  });

  it('when the loan has no application link yet, then checkoutSession is null', async () => {
    const loan = await operatorLoan(app, tenant, { kycTier: 'managed' }, { borrower: { firstName: 'Tunde', lastName: 'Bello', phone: uniquePhone() } });
    const read = await api().get(`/v1/loans/${loan.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ applicationUrl: null, checkoutSession: null });
  });
});

describe('text me a new link', () => {
  it('when the lender set a display name and support contact in its checkout settings, then the expired page shows them (and another mode\'s settings are not used)', async () => {
    const own = await lendingTenant(app);
    const settings = { displayName: 'Acme Credit', supportEmail: 'help@acme.example', supportPhone: '+2347001234567', supportUrl: 'https://acme.example/help' };
    expect((await client(app, own.live).call('PATCH', '/v1/checkout-settings', { body: { displayName: 'Acme Live Only' } })).status).toBe(200);
    expect((await client(app, own.test).call('PATCH', '/v1/checkout-settings', { body: settings })).status).toBe(200);
    const { loan } = await offeredLoan(app, own, { phone: uniquePhone() });
    const session = sessionClient(app, tokenOf(loan.applicationUrl));
    clock.advance(ttl());
    const info = await session.get('/v1/checkout/session/renewal');
    expect(info.status).toBe(200);
    expect(info.body.data.lender).toEqual({ name: 'Acme Credit', email: 'help@acme.example', phone: '+234 700 123 4567', url: 'https://acme.example/help' });
  });

  it('when the session has expired, then the renewal page facts show the lender; renew mints a new session for the same loan, texts its link to the phone on record, and the loan\'s applicationUrl moves to it', async () => {
    const { phone, loan, session, token } = await freshSession();
    clock.advance(ttl());
    expect((await session.get('/v1/checkout/session')).body.error).toBe('checkout_session_expired');
    const info = await session.get('/v1/checkout/session/renewal');
    expect(info.status).toBe(200);
    expect(info.body.data).toMatchObject({ lender: { name: expect.stringMatching(/^Tenant /), email: null, phone: null, url: null }, renewable: true, renewAvailableAt: clock.now().toISOString(), renewInSeconds: 0 });
    expect(JSON.stringify(info.body.data)).not.toContain(loan.id);

    const renewed = await session.post('/v1/checkout/session/renew', {});
    expect(renewed.status).toBe(200);
    expect(renewed.body.data).toMatchObject({ sentTo: `•••• ${phone.slice(-4)}`, lender: { name: info.body.data.lender.name } });
    const text = (await inbox(phone))[0]!;
    const link = text.match(/(http\S+\/checkout\/c\/(cs_test_[0-9A-Za-z]{40}))/);
    expect(link).not.toBeNull();
    const fresh = sessionClient(app, link![2]!);
    const state = await fresh.get('/v1/checkout/session');
    expect(state.status).toBe(200);
    expect(state.body.data).toMatchObject({ session: { loanId: loan.id, source: 'renewed' }, nextStep: 'otp' });
    const read = (await api().get(`/v1/loans/${loan.id}`)).body.data;
    expect(read.applicationUrl).toBe(link![1]);
    expect(new Date(read.checkoutSession.expiresAt).getTime()).toBe(clock.now().getTime() + minutes(30));
    // The old token stays expired; the new one is not the old one.
    expect(link![2]).not.toBe(token);
    expect((await session.get('/v1/checkout/session')).body.error).toBe('checkout_session_expired');
  });

  it('when the text cannot be sent, then 502 sms_unavailable: the unsent link is revoked, the loan keeps its link, and the borrower may try again at once', async () => {
    const { phone, loan, session } = await freshSession();
    clock.advance(ttl());
    const before = (await api().get(`/v1/loans/${loan.id}`)).body.data.applicationUrl;
    const sms = app.platform.sms;
    app.platform.sms = new PerMode<SmsSender>('sms', { send: async () => Promise.reject(new Error('provider down')) });
    let failed;
    try {
      failed = await session.post('/v1/checkout/session/renew', {});
    } finally {
      app.platform.sms = sms;
    }
    expect(failed.status).toBe(502);
    expect(failed.body.error).toBe('sms_unavailable');
    const minted = await app.platform.db.selectFrom('checkoutSessions').select(['source', 'revokedAt']).where('loanId', '=', loan.id).where('source', '=', 'renewed').execute();
    expect(minted).toHaveLength(1);
    expect(minted[0]!.revokedAt).toEqual(expect.any(String));
    expect((await api().get(`/v1/loans/${loan.id}`)).body.data.applicationUrl).toBe(before);
    expect((await session.get('/v1/checkout/session/renewal')).body.data.renewInSeconds).toBe(0);
    expect((await session.post('/v1/checkout/session/renew', {})).status).toBe(200);
    expect((await inbox(phone)).filter((body) => body.includes('new link'))).toHaveLength(1);
  });

  it('when the session still works, then renew answers 409 checkout_session_not_expired and texts nothing', async () => {
    const { phone, session } = await freshSession();
    const res = await session.post('/v1/checkout/session/renew', {});
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('checkout_session_not_expired');
    expect((await session.get('/v1/checkout/session/renewal')).body.error).toBe('checkout_session_not_expired');
    expect(await inbox(phone)).toEqual([]);
  });

  it('when the session was revoked (even after it expired), or the token is unknown, then renew is refused and nothing is minted or texted', async () => {
    const { phone, loan, session } = await freshSession();
    const sessionId = (await session.get('/v1/checkout/session')).body.data.session.id;
    expect((await api().post(`/v1/checkout-sessions/${sessionId}/revoke`)).status).toBe(200);
    clock.advance(ttl());
    const before = await app.platform.db.selectFrom('checkoutSessions').select('id').where('loanId', '=', loan.id).execute();
    const revoked = await session.post('/v1/checkout/session/renew', {});
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toBe('checkout_session_revoked');
    const unknown = await sessionClient(app, `cs_test_${'a'.repeat(40)}`).post('/v1/checkout/session/renew', {});
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('UNAUTHENTICATED');
    expect(await app.platform.db.selectFrom('checkoutSessions').select('id').where('loanId', '=', loan.id).execute()).toHaveLength(before.length);
    expect(await inbox(phone)).toEqual([]);
  });

  it('when the loan was closed meanwhile, then the page facts say it cannot be renewed and renew answers 409 invalid_loan_state, texting nothing', async () => {
    const { phone, loan, session } = await freshSession();
    expect((await api().post(`/v1/loans/${loan.id}/cancel`, {})).status).toBe(200);
    clock.advance(ttl());
    expect((await session.get('/v1/checkout/session/renewal')).body.data.renewable).toBe(false);
    const res = await session.post('/v1/checkout/session/renew', {});
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('invalid_loan_state');
    expect(await inbox(phone)).toEqual([]);
    // Nothing was counted either.
    expect(await app.platform.db.selectFrom('checkoutRenewals').selectAll().where('loanId', '=', loan.id).execute()).toEqual([]);
  });

  it('when an API key calls renew, then 403 credential_not_allowed', async () => {
    const res = await api().post('/v1/checkout/session/renew', {});
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('credential_not_allowed');
  });

  it('when an expired session calls any other checkout route, then it is still 401 checkout_session_expired', async () => {
    const { session } = await freshSession();
    clock.advance(ttl());
    for (const res of [await session.post('/v1/checkout/otp/send'), await session.post('/v1/checkout/session/refresh'), await session.get('/v1/checkout/banks')]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('checkout_session_expired');
    }
  });

  it('when new links are asked for too often, then one per 10 minutes and three per day per loan, across processes and across renewed sessions (429 checkout_renew_limit with Retry-After)', async () => {
    const { phone, session } = await freshSession();
    // Start well inside a UTC day, so the day's count is not cut by midnight during the test.
    const untilMorning = (86_400_000 - (clock.now().getTime() % 86_400_000) + minutes(60)) % 86_400_000;
    clock.advance(untilMorning + ttl());
    const second = await startSecondInstance(app, {}, { clock });
    try {
      const first = await session.post('/v1/checkout/session/renew', {});
      expect(first.status).toBe(200);
      // The same expired session again, through another process: the 10-minute spacing holds.
      const other = await fetch(`${second.url}/v1/checkout/session/renew`, {
        method: 'POST',
        headers: { authorization: `CheckoutSession ${tokenOf((await freshLink(phone))!)}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(other.status).toBe(409); // the new link still works: nothing to renew from it
      const again = await session.post('/v1/checkout/session/renew', {});
      expect(again.status).toBe(429);
      expect(again.body.error).toBe('checkout_renew_limit');
      expect(Number(again.headers.get('retry-after'))).toBe(RENEW_RULES.minIntervalMs / 1000);
      expect((await session.get('/v1/checkout/session/renewal')).body.data).toMatchObject({
        renewAvailableAt: new Date(clock.now().getTime() + RENEW_RULES.minIntervalMs).toISOString(),
        renewInSeconds: RENEW_RULES.minIntervalMs / 1000,
      });

      clock.advance(RENEW_RULES.minIntervalMs);
      // The renewed session expires too; renewing from it counts against the same loan.
      const renewedToken = tokenOf((await freshLink(phone))!);
      clock.advance(ttl());
      const viaSecond = await fetch(`${second.url}/v1/checkout/session/renew`, {
        method: 'POST',
        headers: { authorization: `CheckoutSession ${renewedToken}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(viaSecond.status).toBe(200);
      clock.advance(RENEW_RULES.minIntervalMs);
      expect((await session.post('/v1/checkout/session/renew', {})).status).toBe(200);
      clock.advance(RENEW_RULES.minIntervalMs);
      const fourth = await session.post('/v1/checkout/session/renew', {});
      expect(fourth.status).toBe(429);
      expect(fourth.body.error).toBe('checkout_renew_limit');
      expect(fourth.body.message).toMatch(/3 new links were texted today/);
      expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(RENEW_RULES.minIntervalMs / 1000);
      expect((await inbox(phone)).filter((body) => body.includes('new link'))).toHaveLength(3);
    } finally {
      await second.stop();
    }
  });
});

/** The link of the latest "new link" text to a phone. */
async function freshLink(phone: string): Promise<string | undefined> {
  return (await inbox(phone)).find((body) => body.includes('new link'))?.match(/http\S+\/checkout\/c\/cs_test_[0-9A-Za-z]{40}/)?.[0];
}

describe('the offer-ready text', () => {
  it('when a borrower who verified their phone waits for the lender and the lender issues the offer, then they get a text with the application link (after the commit)', async () => {
    const phone = uniquePhone();
    const loan = await operatorLoan(app, tenant, { kycTier: 'managed' }, { borrower: { firstName: 'Tunde', lastName: 'Bello', phone } });
    const { token } = await mintSession(app, tenant.test, loan.id);
    const session = sessionClient(app, token);
    await session.post('/v1/checkout/otp/send');
    expect((await session.post('/v1/checkout/otp/verify', { code: await latestOtp(app, phone) })).status).toBe(200);
    expect((await session.post('/v1/checkout/kyc', { bvn: '22222222222' })).status).toBe(200);
    expect((await session.get('/v1/checkout/session')).body.data.status).toBe('waiting_for_lender');

    const approved = await api().post(`/v1/loans/${loan.id}/approve`, {});
    expect(approved.status).toBe(200);
    const text = await waitForText(phone, /offer is ready/);
    expect(text).toContain(approved.body.data.applicationUrl);
    expect((await session.get('/v1/checkout/session')).body.data).toMatchObject({ status: 'in_progress', nextStep: 'offer' });
  });

  it('when nobody reached the checkout, then issuing the offer texts nothing', async () => {
    const phone = uniquePhone();
    const loan = await operatorLoan(app, tenant, {}, { borrower: { firstName: 'Tunde', lastName: 'Bello', phone } });
    expect((await api().post(`/v1/loans/${loan.id}/approve`, {})).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await inbox(phone)).toEqual([]);
  });
});
