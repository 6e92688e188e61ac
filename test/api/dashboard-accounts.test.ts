import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { createApiKey } from '../../server/platform/domain/api-keys/api-key';
import { configureOrganisation } from '../../server/platform/domain/organisations/organisation';
import { startTestApp, type TestApp } from '../support/harness';
import { dashboardClient, GOOD_PASSWORD, inboxCount, signedInOwner, tokenFromInbox, uniqueEmail } from '../support/dashboard';

const clock = new FakeClock(new Date());
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(() => app?.stop());

const MINUTE = 60_000;

describe('dashboard accounts: sign up, verify, sign in, sign out', () => {
  it('when a partner signs up, verifies from the sandbox inbox and signs in, then the cookie session works until sign-out', async () => {
    const email = uniqueEmail();
    const browser = dashboardClient(app);
    const signUp = await browser.post('/sign-up', { email, password: GOOD_PASSWORD, organisationName: 'Ikeja Clinic' });
    expect(signUp.status).toBe(202);

    // Not verified yet: the right password is refused until the link is followed.
    expect((await browser.post('/sign-in', { email, password: GOOD_PASSWORD })).json.error).toBe('email_not_verified');
    const token = await tokenFromInbox(app, email, 'verify-email');
    expect((await browser.post('/verify-email', { token })).status).toBe(200);
    expect((await browser.post('/verify-email', { token })).json.error).toBe('email_token_invalid');

    const signIn = await browser.post('/sign-in', { email: email.toUpperCase(), password: GOOD_PASSWORD });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get('set-cookie')).toMatch(/^dashboard_session=[\w-]{40,}; Max-Age=43200; Path=\/dashboard; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
    browser.csrf = signIn.json.data.csrfToken;

    const session = await browser.get('/session');
    expect(session.status).toBe(200);
    expect(session.json.data).toMatchObject({ role: 'owner', user: { email: email.toLowerCase() }, organisation: { name: 'Ikeja Clinic', liveEnabled: false } });
    expect(JSON.stringify(session.json)).not.toMatch(/sk_(test|live)_/);

    expect((await browser.post('/sign-out', {})).status).toBe(200);
    expect(browser.cookie).toBeUndefined();
    const stale = dashboardClient(app);
    stale.cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    expect((await stale.get('/session')).json.error).toBe('session_required');
  });

  it('when an e-mail already has an account, then sign-up answers the same and e-mails the owner instead', async () => {
    const owner = await signedInOwner(app);
    const before = inboxCount(app, owner.email);
    const again = await dashboardClient(app).post('/sign-up', { email: owner.email.toUpperCase(), password: GOOD_PASSWORD, organisationName: 'Other' });
    expect(again.status).toBe(202);
    expect(again.json.message).toBe('Check your inbox: we sent a link to verify your e-mail.');
    await expect.poll(() => inboxCount(app, owner.email)).toBe(before + 1);
  });

  it('when the e-mail is unknown, then the answer is the one a wrong password gets, in similar time', async () => {
    const owner = await signedInOwner(app);
    const time = async (email: string) => {
      const started = performance.now();
      const res = await dashboardClient(app).post('/sign-in', { email, password: 'not the right password at all' });
      return { res, ms: performance.now() - started };
    };
    // Pairs taken one after the other, compared by their medians: a moment of load on a shared machine then falls on
    // both sides alike instead of deciding a single sample.
    const wrongs: number[] = [];
    const unknowns: number[] = [];
    for (let i = 0; i < 5; i++) {
      const wrong = await time(owner.email);
      const unknown = await time(uniqueEmail('nobody'));
      expect(unknown.res.status).toBe(401);
      expect(unknown.res.json).toEqual(wrong.res.json);
      wrongs.push(wrong.ms);
      unknowns.push(unknown.ms);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    // Both verify an argon2id hash; an unknown e-mail that skipped it would answer in a few milliseconds.
    expect(median(unknowns)).toBeGreaterThan(median(wrongs) / 4);
  });
});

describe('dashboard accounts: password rules', () => {
  it.each([
    ['short password', 'short pass', 'password_too_short'],
    ['common password', 'correcthorsebatterystaple', 'password_too_common'],
    ['common password with digits appended', 'password123456789', 'password_too_common'],
  ])('when sign-up uses a %s, then 422 and nothing is created', async (_name, password, problem) => {
    const email = uniqueEmail('weak');
    const res = await dashboardClient(app).post('/sign-up', { email, password, organisationName: 'Weak Co' });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('password_rejected');
    expect(res.json.data).toEqual({ problem });
    const user = await app.platform.db.selectFrom('dashboardUsers').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst();
    expect(user).toBeUndefined();
  });

  it('when a body is malformed, then 400 invalid_request', async () => {
    const res = await dashboardClient(app).post('/sign-up', { email: 'not-an-email', password: GOOD_PASSWORD, organisationName: 'X' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_request');
  });
});

describe('dashboard accounts: lockout', () => {
  it('when ten wrong passwords are tried within 15 minutes, then even the right one is refused until the window passes, and an unknown e-mail locks the same way', async () => {
    const owner = await signedInOwner(app);
    const nobody = uniqueEmail('nobody');
    for (let i = 0; i < 10; i += 1) {
      for (const email of [owner.email, nobody]) {
        expect((await dashboardClient(app).post('/sign-in', { email, password: `wrong password number ${i}` })).json.error).toBe('invalid_credentials');
      }
    }
    const locked = await dashboardClient(app).post('/sign-in', { email: owner.email, password: GOOD_PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.json.error).toBe('too_many_sign_in_attempts');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await dashboardClient(app).post('/sign-in', { email: nobody, password: GOOD_PASSWORD })).json).toEqual(locked.json);

    clock.advance(16 * MINUTE);
    expect((await dashboardClient(app).post('/sign-in', { email: owner.email, password: GOOD_PASSWORD })).status).toBe(200);
  });
});

describe('dashboard accounts: CSRF', () => {
  it('when a state-changing request lacks the CSRF token, has a wrong one or comes from another origin, then 403 and the session stays', async () => {
    const owner = await signedInOwner(app);
    const csrf = owner.csrf!;
    owner.csrf = undefined;
    expect((await owner.post('/sign-out', {})).json.error).toBe('csrf_token_invalid');
    expect((await owner.post('/sign-out', {}, { 'x-csrf-token': `${csrf.slice(0, -2)}AA` })).json.error).toBe('csrf_token_invalid');
    expect((await owner.post('/sign-out', {}, { 'x-csrf-token': csrf, origin: 'https://evil.example' })).json.error).toBe('csrf_token_invalid');
    const form = await fetch(`${app.url}/dashboard/api/sign-out`, { method: 'POST', headers: { cookie: owner.cookie!, 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' });
    expect(form.status).toBe(415);
    expect((await owner.get('/session')).status).toBe(200);
    // A page of this host (same origin) passes.
    expect((await owner.post('/sign-out', {}, { 'x-csrf-token': csrf, origin: new URL(app.url).origin })).status).toBe(200);
  });
});

describe('dashboard accounts: session lifetime on the platform clock', () => {
  it('when a session is idle for 30 minutes, then it has ended', async () => {
    const owner = await signedInOwner(app);
    clock.advance(29 * MINUTE);
    expect((await owner.get('/session')).status).toBe(200);
    clock.advance(29 * MINUTE);
    expect((await owner.get('/session')).status).toBe(200);
    clock.advance(30 * MINUTE);
    expect((await owner.get('/session')).json.error).toBe('session_required');
  });

  it('when a session is used steadily, then it still ends 12 hours after sign-in', async () => {
    const owner = await signedInOwner(app);
    for (let elapsed = 0; elapsed < 12 * 60 - 20; elapsed += 20) {
      clock.advance(20 * MINUTE);
      expect((await owner.get('/session')).status).toBe(200);
    }
    clock.advance(20 * MINUTE);
    expect((await owner.get('/session')).json.error).toBe('session_required');
  });

  it('when the user signs out everywhere, then every device is signed out', async () => {
    const laptop = await signedInOwner(app);
    const phone = dashboardClient(app);
    const signIn = await phone.post('/sign-in', { email: laptop.email, password: GOOD_PASSWORD });
    expect(signIn.status).toBe(200);
    const everywhere = await laptop.post('/sign-out-everywhere', {});
    expect(everywhere.status).toBe(200);
    expect(everywhere.json.data.sessionsEnded).toBe(2);
    expect((await phone.get('/session')).json.error).toBe('session_required');
    expect((await laptop.get('/session')).json.error).toBe('session_required');
  });
});

describe('dashboard accounts: password reset', () => {
  it('when a reset link is followed, then a rejected password changes nothing, a good one replaces it and ends every session', async () => {
    const owner = await signedInOwner(app);
    const before = inboxCount(app, owner.email);
    expect((await dashboardClient(app).post('/password-reset/request', { email: owner.email })).status).toBe(202);
    const token = await tokenFromInbox(app, owner.email, 'reset-password', before);

    const weak = await dashboardClient(app).post('/password-reset', { token, password: 'password' });
    expect(weak.json.error).toBe('password_rejected');
    expect((await owner.get('/session')).status).toBe(200);

    const newPassword = 'a different and longer pass phrase';
    expect((await dashboardClient(app).post('/password-reset', { token, password: newPassword })).status).toBe(200);
    expect((await owner.get('/session')).json.error).toBe('session_required');
    expect((await dashboardClient(app).post('/password-reset', { token, password: newPassword })).json.error).toBe('email_token_invalid');
    expect((await dashboardClient(app).post('/sign-in', { email: owner.email, password: GOOD_PASSWORD })).json.error).toBe('invalid_credentials');
    expect((await dashboardClient(app).post('/sign-in', { email: owner.email, password: newPassword })).status).toBe(200);
  });

  it('when a reset is asked for an unknown e-mail, then the answer is the same and nothing is sent', async () => {
    const email = uniqueEmail('nobody');
    const res = await dashboardClient(app).post('/password-reset/request', { email });
    expect(res.status).toBe(202);
    expect(res.json.message).toBe('If this e-mail has an account, we sent it a link to choose a new password.');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(inboxCount(app, email)).toBe(0);
  });

  it('when a reset link has expired, then it is refused', async () => {
    const owner = await signedInOwner(app);
    const before = inboxCount(app, owner.email);
    await dashboardClient(app).post('/password-reset/request', { email: owner.email });
    const token = await tokenFromInbox(app, owner.email, 'reset-password', before);
    clock.advance(61 * MINUTE);
    expect((await dashboardClient(app).post('/password-reset', { token, password: 'a perfectly fine new pass phrase' })).json.error).toBe('email_token_invalid');
  });
});

describe('dashboard accounts: audit log and tenant isolation', () => {
  it('when owners of two organisations act, then each audit log holds its own organisation rows only', async () => {
    const a = await signedInOwner(app);
    const b = await signedInOwner(app);
    expect(a.organisationId).not.toBe(b.organisationId);
    const logA = (await a.get('/audit-log')).json.data as Array<{ action: string; userId: string; userAgent: string | null; ip: string | null }>;
    expect(logA.map((r) => r.action).sort()).toEqual(['sign_in', 'sign_up']);
    expect(logA[0]!.ip).toBeTruthy();
    const userA = (await a.get('/session')).json.data.user.id;
    const userB = (await b.get('/session')).json.data.user.id;
    expect(logA.every((r) => r.userId === userA)).toBe(true);
    expect(((await b.get('/audit-log')).json.data as Array<{ userId: string }>).every((r) => r.userId === userB)).toBe(true);

    const rows = await app.platform.db.selectFrom('dashboardAuditLog').select('action').where('userId', '=', userA).execute();
    expect(rows.map((r) => r.action).sort()).toEqual(['email_verified', 'sign_in', 'sign_up']);
  });
});

describe('dashboard accounts: test mode only until an operator enables live', () => {
  it('when a signed-up organisation calls with a live key, then 403 LIVE_MODE_NOT_ENABLED until live is enabled', async () => {
    const owner = await signedInOwner(app);
    const live = await createApiKey(app.platform.db, app.platform.secrets, { organisationId: owner.organisationId, mode: 'live', now: clock.now() });
    const test = await createApiKey(app.platform.db, app.platform.secrets, { organisationId: owner.organisationId, mode: 'test', now: clock.now() });
    const call = (key: { publicKey: string; secretKey: string }) =>
      fetch(`${app.url}/v1/products`, { headers: { 'X-API-Public-Key': key.publicKey, 'X-API-Secret-Key': key.secretKey } });
    expect((await call(test)).status).toBe(200);
    const refused = await call(live);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toBe('LIVE_MODE_NOT_ENABLED');

    await configureOrganisation(app.platform.db, owner.organisationId, { liveEnabled: true }, clock.now());
    await expect.poll(async () => (await call(live)).status, { timeout: 2000 }).toBe(200);
  });
});
