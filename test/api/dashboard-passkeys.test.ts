import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness';
import { dashboardClient, GOOD_PASSWORD, signedInOwner, type DashboardClient, cookiesOf } from '../support/dashboard';
import { SoftAuthenticator, tamper } from '../support/passkeys';

/**
 * Dashboard passkeys driven by a software authenticator in Node (real P-256 keys, real authenticator data): the
 * registration and sign-in ceremonies, and every refusal — a challenge never issued, used twice, issued for another
 * purpose or another session, another user's credential, a wrong origin, no CSRF token — and the two-step sign-in
 * whose pending state reaches nothing until the passkey answers.
 */
let app: TestApp;
let origin: string;
let rpId: string;
beforeAll(async () => {
  app = await startTestApp();
  origin = new URL(app.platform.baseUrl).origin;
  rpId = new URL(app.platform.baseUrl).hostname;
});
afterAll(() => app.stop());

async function registered(client: DashboardClient, authenticator = new SoftAuthenticator(origin, rpId), name = 'Laptop') {
  const options = await client.post('/passkeys/registration-options', {});
  expect(options.status).toBe(200);
  expect(options.json.data).toMatchObject({ rp: { id: rpId }, authenticatorSelection: { residentKey: 'required', userVerification: 'required' } });
  const response = authenticator.register({ challenge: options.json.data.challenge, userHandle: options.json.data.user.id });
  const saved = await client.post('/passkeys', { response, name });
  expect(saved.status).toBe(201);
  return { authenticator, passkey: saved.json.data as { id: string; name: string } };
}

async function auditActions(client: DashboardClient): Promise<string[]> {
  return (await client.get('/audit-log')).json.data.map((row: { action: string }) => row.action);
}

describe('registering a passkey', () => {
  it('options then verify store the passkey, listed with its name, and the audit log says so', async () => {
    const owner = await signedInOwner(app);
    const { passkey } = await registered(owner);
    const list = await owner.get('/passkeys');
    expect(list.json.data).toMatchObject({ passkeys: [{ id: passkey.id, name: 'Laptop', lastUsedAt: null }], requirePasskey: false });
    expect(await auditActions(owner)).toContain('passkey_registered');

    const renamed = await owner.send('PATCH', `/passkeys/${passkey.id}`, { name: 'Work laptop' });
    expect(renamed.status).toBe(200);
    expect((await owner.get('/passkeys')).json.data.passkeys[0].name).toBe('Work laptop');
  });

  it('refuses a replayed registration, a challenge never issued, a wrong origin and a session that did not ask', async () => {
    const owner = await signedInOwner(app);
    const authenticator = new SoftAuthenticator(origin, rpId);
    const options = (await owner.post('/passkeys/registration-options', {})).json.data;
    const response = authenticator.register({ challenge: options.challenge });
    expect((await owner.post('/passkeys', { response })).status).toBe(201);
    const replay = await owner.post('/passkeys', { response });
    expect(replay.status).toBe(422);
    expect(replay.json.error).toBe('passkey_challenge_invalid');

    const invented = await owner.post('/passkeys', { response: authenticator.register({ challenge: crypto.randomBytes(32).toString('base64url') }) });
    expect(invented.json.error).toBe('passkey_challenge_invalid');

    const fresh = (await owner.post('/passkeys/registration-options', {})).json.data;
    const wrongOrigin = await owner.post('/passkeys', { response: authenticator.register({ challenge: fresh.challenge, origin: 'https://evil.example' }) });
    expect(wrongOrigin.status).toBe(422);
    expect(wrongOrigin.json.error).toBe('passkey_verification_failed');

    // A challenge issued to one session cannot register a passkey in another (here: another user's).
    const other = await signedInOwner(app);
    const theirs = (await other.post('/passkeys/registration-options', {})).json.data;
    const stolen = await owner.post('/passkeys', { response: authenticator.register({ challenge: theirs.challenge }) });
    expect(stolen.json.error).toBe('passkey_challenge_invalid');
    expect((await owner.get('/passkeys')).json.data.passkeys).toHaveLength(1);
    expect((await other.get('/passkeys')).json.data.passkeys).toHaveLength(0);
  });

  it('needs a session and the CSRF token; bad input is 400 and changes nothing', async () => {
    const owner = await signedInOwner(app);
    const anonymous = dashboardClient(app);
    expect((await anonymous.post('/passkeys/registration-options', {})).json.error).toBe('session_required');
    expect((await anonymous.get('/passkeys')).status).toBe(401);
    const noCsrf = await owner.post('/passkeys/registration-options', {}, { 'x-csrf-token': '' });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.json.error).toBe('csrf_token_invalid');
    const { passkey } = await registered(owner);
    const del = await owner.send('DELETE', `/passkeys/${passkey.id}`, {}, { 'x-csrf-token': 'wrong' });
    expect(del.json.error).toBe('csrf_token_invalid');
    expect((await owner.send('PATCH', '/account/security', { requirePasskey: true }, { 'x-csrf-token': '' })).json.error).toBe('csrf_token_invalid');
    expect((await owner.post('/passkeys', { response: { id: 'x' } })).status).toBe(400);
    expect((await owner.send('PATCH', `/passkeys/${passkey.id}`, { name: '' })).status).toBe(400);
    expect((await owner.send('PATCH', '/account/security', { requirePasskey: 'yes' })).status).toBe(400);
    expect((await owner.get('/passkeys')).json.data).toMatchObject({ passkeys: [{ name: 'Laptop' }], requirePasskey: false });
  });
});

describe('removing a passkey', () => {
  it('removes one of your own; another user\'s answers 404; the last one cannot go while it is asked after the password', async () => {
    const owner = await signedInOwner(app);
    const other = await signedInOwner(app);
    const first = (await registered(owner)).passkey;
    const second = (await registered(owner, undefined, 'Phone')).passkey;
    const theirs = (await registered(other)).passkey;

    const foreign = await owner.send('DELETE', `/passkeys/${theirs.id}`);
    expect(foreign.status).toBe(404);
    expect((await other.get('/passkeys')).json.data.passkeys).toHaveLength(1);
    expect((await owner.send('PATCH', `/passkeys/${theirs.id}`, { name: 'Mine now' })).status).toBe(404);

    expect((await owner.send('PATCH', '/account/security', { requirePasskey: true })).status).toBe(200);
    expect((await owner.send('DELETE', `/passkeys/${first.id}`)).status).toBe(200);
    const last = await owner.send('DELETE', `/passkeys/${second.id}`);
    expect(last.status).toBe(409);
    expect(last.json.error).toBe('dashboard_last_passkey');
    expect((await owner.send('PATCH', '/account/security', { requirePasskey: false })).status).toBe(200);
    expect((await owner.send('DELETE', `/passkeys/${second.id}`)).status).toBe(200);
    expect((await owner.get('/passkeys')).json.data.passkeys).toEqual([]);
    const actions = await auditActions(owner);
    expect(actions.filter((a) => a === 'passkey_removed')).toHaveLength(2);
    expect(actions).toEqual(expect.arrayContaining(['passkey_second_factor_enabled', 'passkey_second_factor_disabled']));
  });

  it('asking a passkey after the password needs a passkey', async () => {
    const owner = await signedInOwner(app);
    const refused = await owner.send('PATCH', '/account/security', { requirePasskey: true });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toBe('dashboard_passkey_needed');
    expect((await owner.get('/passkeys')).json.data.requirePasskey).toBe(false);
  });
});

describe('passwordless sign-in', () => {
  it('a discoverable passkey signs in without the e-mail: the same session cookie as the password, audited', async () => {
    const owner = await signedInOwner(app);
    const { authenticator, passkey } = await registered(owner);
    const browser = dashboardClient(app);
    const options = await browser.post('/passkeys/sign-in/options', {});
    expect(options.status).toBe(200);
    expect(options.json.data).toMatchObject({ rpId, userVerification: 'required' });
    expect(options.json.data.allowCredentials ?? []).toEqual([]);
    const response = authenticator.sign({ challenge: options.json.data.challenge });
    const signedIn = await browser.post('/passkeys/sign-in/verify', { response });
    expect(signedIn.status).toBe(200);
    expect(signedIn.json.data).toMatchObject({ organisationId: owner.organisationId, csrfToken: expect.any(String) });
    expect(signedIn.headers.get('set-cookie')).toMatch(/^dashboard_session=.+; Max-Age=43200; Path=\/dashboard; .*HttpOnly; SameSite=Lax/);
    browser.csrf = signedIn.json.data.csrfToken;
    const session = await browser.get('/session');
    expect(session.json.data.user.email).toBe(owner.email.toLowerCase());
    expect((await owner.get('/passkeys')).json.data.passkeys[0]).toMatchObject({ id: passkey.id, lastUsedAt: expect.any(String) });
    const audit = (await browser.get('/audit-log')).json.data;
    expect(audit[0]).toMatchObject({ action: 'passkey_sign_in', email: owner.email.toLowerCase() });

    // The same answer again: the challenge is spent.
    const replay = await dashboardClient(app).post('/passkeys/sign-in/verify', { response });
    expect(replay.status).toBe(422);
    expect(replay.json.error).toBe('passkey_challenge_invalid');
  });

  it('refuses an unknown credential, a tampered signature, a registration challenge and an invented one', async () => {
    const owner = await signedInOwner(app);
    const { authenticator } = await registered(owner);
    const stranger = new SoftAuthenticator(origin, rpId);
    stranger.register({ challenge: 'x'.repeat(43) });
    const client = dashboardClient(app);

    const unknown = await client.post('/passkeys/sign-in/verify', { response: stranger.sign({ challenge: (await client.post('/passkeys/sign-in/options', {})).json.data.challenge }) });
    expect(unknown.status).toBe(422);
    expect(unknown.json.error).toBe('passkey_verification_failed');

    const signed = authenticator.sign({ challenge: (await client.post('/passkeys/sign-in/options', {})).json.data.challenge });
    const tampered = await client.post('/passkeys/sign-in/verify', { response: { ...signed, response: { ...signed.response, signature: tamper(signed.response.signature) } } });
    expect(tampered.json.error).toBe('passkey_verification_failed');

    const registration = (await owner.post('/passkeys/registration-options', {})).json.data.challenge;
    expect((await client.post('/passkeys/sign-in/verify', { response: authenticator.sign({ challenge: registration }) })).json.error).toBe('passkey_challenge_invalid');
    expect((await client.post('/passkeys/sign-in/verify', { response: authenticator.sign({ challenge: crypto.randomBytes(32).toString('base64url') }) })).json.error).toBe('passkey_challenge_invalid');
    expect(client.cookie).toBeUndefined();
  });

  it('is rate-limited per address: after 10 failed passkeys, and with 30 prompts open, options answer 429 with Retry-After', async () => {
    const limited = await startTestApp();
    try {
      const base = new URL(limited.platform.baseUrl);
      const stranger = new SoftAuthenticator(base.origin, base.hostname);
      stranger.register({ challenge: 'x'.repeat(43) });
      const client = dashboardClient(limited);
      for (let i = 0; i < 10; i += 1) {
        const options = await client.post('/passkeys/sign-in/options', {});
        expect(options.status).toBe(200);
        expect((await client.post('/passkeys/sign-in/verify', { response: stranger.sign({ challenge: options.json.data.challenge }) })).status).toBe(422);
      }
      const locked = await client.post('/passkeys/sign-in/options', {});
      expect(locked.status).toBe(429);
      expect(locked.json.error).toBe('too_many_sign_in_attempts');
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);

      // Options alone (no answer sent) are capped too: 30 open prompts per address at once.
      await limited.platform.db.deleteFrom('dashboardLoginFailures').execute();
      for (let i = 0; i < 30; i += 1) expect((await client.post('/passkeys/sign-in/options', {})).status).toBe(200);
      const flooded = await client.post('/passkeys/sign-in/options', {});
      expect(flooded.status).toBe(429);
      expect(flooded.headers.get('retry-after')).toBe('300');
    } finally {
      await limited.stop();
    }
  });
});

describe('passkey as a second factor', () => {
  it('after the right password: 200 { secondFactor: passkey } and no session; the pending step reaches nothing; the passkey opens the session', async () => {
    const owner = await signedInOwner(app);
    const { authenticator, passkey } = await registered(owner);
    expect((await owner.send('PATCH', '/account/security', { requirePasskey: true })).status).toBe(200);

    const browser = dashboardClient(app);
    const password = await browser.post('/sign-in', { email: owner.email, password: GOOD_PASSWORD });
    expect(password.status).toBe(200);
    expect(password.json.data).toMatchObject({ secondFactor: 'passkey', options: { rpId, allowCredentials: [{ id: passkey.id }] } });
    expect(password.json.data.csrfToken).toBeUndefined();
    const cookies = cookiesOf(password.headers);
    expect(cookies.dashboard_session).toBeUndefined();
    expect(password.headers.get('set-cookie')).toMatch(/^dashboard_second_factor=.+; Max-Age=300; Path=\/dashboard; .*HttpOnly; SameSite=Strict/);
    const pending = `dashboard_second_factor=${cookies.dashboard_second_factor}`;

    // The pending cookie is no session: nothing answers it (and as a session cookie it is unknown).
    for (const path of ['/session', '/audit-log', '/passkeys', '/account/sessions']) {
      expect((await browser.get(path, { cookie: pending })).status).toBe(401);
    }
    expect((await browser.get('/session', { cookie: `dashboard_session=${cookies.dashboard_second_factor}` })).status).toBe(401);
    expect((await browser.post('/passkeys/registration-options', {}, { cookie: pending })).status).toBe(401);

    // Without the pending cookie the challenge is not this browser's.
    const challenge = password.json.data.options.challenge;
    const elsewhere = await dashboardClient(app).post('/passkeys/second-factor/verify', { response: authenticator.sign({ challenge }) });
    expect(elsewhere.json.error).toBe('passkey_challenge_invalid');
    // Nor can the second-factor challenge be used for a passwordless sign-in.
    expect((await dashboardClient(app).post('/passkeys/sign-in/verify', { response: authenticator.sign({ challenge }) })).json.error).toBe('passkey_challenge_invalid');

    const done = await browser.post('/passkeys/second-factor/verify', { response: authenticator.sign({ challenge }) }, { cookie: pending });
    expect(done.status).toBe(200);
    const session = cookiesOf(done.headers).dashboard_session;
    expect(session).toBeTruthy();
    browser.cookie = `dashboard_session=${session}`;
    expect((await browser.get('/session')).json.data.user.email).toBe(owner.email.toLowerCase());

    const replay = await dashboardClient(app).post('/passkeys/second-factor/verify', { response: authenticator.sign({ challenge }) }, { cookie: pending });
    expect(replay.json.error).toBe('passkey_challenge_invalid');
  });

  it('refuses another user\'s passkey for the second step, and a wrong password still gets no second step', async () => {
    const owner = await signedInOwner(app);
    const other = await signedInOwner(app);
    await registered(owner);
    const theirs = (await registered(other)).authenticator;
    expect((await owner.send('PATCH', '/account/security', { requirePasskey: true })).status).toBe(200);

    const browser = dashboardClient(app);
    expect((await browser.post('/sign-in', { email: owner.email, password: 'not the password at all' })).json.error).toBe('invalid_credentials');
    const password = await browser.post('/sign-in', { email: owner.email, password: GOOD_PASSWORD });
    const pending = `dashboard_second_factor=${cookiesOf(password.headers).dashboard_second_factor}`;
    const wrong = await browser.post('/passkeys/second-factor/verify', { response: theirs.sign({ challenge: password.json.data.options.challenge }) }, { cookie: pending });
    expect(wrong.status).toBe(422);
    expect(wrong.json.error).toBe('passkey_verification_failed');
    expect(cookiesOf(wrong.headers).dashboard_session).toBeUndefined();
    const audit = (await owner.get('/audit-log?action=passkey_sign_in')).json.data;
    expect(audit).toEqual([]);
  });
});
