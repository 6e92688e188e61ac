import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { startTestApp, type TestApp } from '../support/harness';
import { dashboardClient, GOOD_PASSWORD, signedInOwner, type DashboardClient } from '../support/dashboard';
import { SoftAuthenticator } from '../support/passkeys';

/**
 * Session lifetime on the platform's clock (a FakeClock): idle 30 minutes, absolute 12 hours, whichever way the
 * session was opened (password, passkey, password + passkey); "sign out everywhere" ends the other devices' sessions;
 * the account's sessions list shows only what is still alive; a pending second factor lives 5 minutes.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let authenticatorFor: () => SoftAuthenticator;
beforeAll(async () => {
  app = await startTestApp({ clock });
  const base = new URL(app.platform.baseUrl);
  authenticatorFor = () => new SoftAuthenticator(base.origin, base.hostname);
});
afterAll(() => app?.stop());

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

async function withPasskey(owner: DashboardClient) {
  const authenticator = authenticatorFor();
  const options = (await owner.post('/passkeys/registration-options', {})).json.data;
  expect((await owner.post('/passkeys', { response: authenticator.register({ challenge: options.challenge, userHandle: options.user.id }) })).status).toBe(201);
  return authenticator;
}

async function passkeySession(authenticator: SoftAuthenticator): Promise<DashboardClient> {
  const browser = dashboardClient(app);
  const options = (await browser.post('/passkeys/sign-in/options', {})).json.data;
  const signedIn = await browser.post('/passkeys/sign-in/verify', { response: authenticator.sign({ challenge: options.challenge }) });
  expect(signedIn.status).toBe(200);
  browser.csrf = signedIn.json.data.csrfToken;
  return browser;
}

describe('idle timeout: 30 minutes without a request', () => {
  it('a password session answers at 29 min 59 s of silence and is over at 30 min, for reads and for changes', async () => {
    const owner = await signedInOwner(app);
    clock.advance(29 * MINUTE + 59 * SECOND);
    expect((await owner.get('/session')).status).toBe(200);
    clock.advance(30 * MINUTE);
    expect((await owner.get('/session')).json.error).toBe('session_required');
    expect((await owner.get('/audit-log')).status).toBe(401);
    const change = await owner.send('PATCH', '/account/security', { requirePasskey: false });
    expect(change.json.error).toBe('session_required');
  });

  it('a passkey session idles out the same way', async () => {
    const owner = await signedInOwner(app);
    const browser = await passkeySession(await withPasskey(owner));
    clock.advance(20 * MINUTE);
    expect((await browser.get('/passkeys')).status).toBe(200);
    clock.advance(30 * MINUTE);
    expect((await browser.get('/passkeys')).json.error).toBe('session_required');
  });
});

describe('absolute lifetime: 12 hours after sign-in', () => {
  it('a session used every 25 minutes ends at 12 h, and signing in again opens a fresh 12 h', async () => {
    const owner = await signedInOwner(app);
    const start = clock.now().getTime();
    while (clock.now().getTime() + 25 * MINUTE < start + 12 * HOUR) {
      clock.advance(25 * MINUTE);
      expect((await owner.get('/session')).status).toBe(200);
    }
    clock.set(new Date(start + 12 * HOUR));
    expect((await owner.get('/session')).json.error).toBe('session_required');

    const again = await owner.post('/sign-in', { email: owner.email, password: GOOD_PASSWORD });
    expect(again.status).toBe(200);
    expect(Date.parse(again.json.data.expiresAt)).toBe(clock.now().getTime() + 12 * HOUR);
    expect((await owner.get('/session')).status).toBe(200);
  });

  it('a session opened by password then passkey (second factor) has the same 12 h', async () => {
    const owner = await signedInOwner(app);
    const authenticator = await withPasskey(owner);
    expect((await owner.send('PATCH', '/account/security', { requirePasskey: true })).status).toBe(200);
    const browser = dashboardClient(app);
    const password = await browser.post('/sign-in', { email: owner.email, password: GOOD_PASSWORD });
    const pending = password.headers.getSetCookie()[0]!.split(';')[0]!;
    const done = await browser.post('/passkeys/second-factor/verify', { response: authenticator.sign({ challenge: password.json.data.options.challenge }) }, { cookie: pending });
    expect(done.status).toBe(200);
    expect(Date.parse(done.json.data.expiresAt)).toBe(clock.now().getTime() + 12 * HOUR);
  });
});

describe('pending second factor', () => {
  it('expires 5 minutes after the password: the passkey is then refused and no session opens', async () => {
    const owner = await signedInOwner(app);
    const authenticator = await withPasskey(owner);
    expect((await owner.send('PATCH', '/account/security', { requirePasskey: true })).status).toBe(200);
    const browser = dashboardClient(app);
    const password = await browser.post('/sign-in', { email: owner.email, password: GOOD_PASSWORD });
    const pending = password.headers.getSetCookie()[0]!.split(';')[0]!;
    clock.advance(5 * MINUTE);
    const late = await browser.post('/passkeys/second-factor/verify', { response: authenticator.sign({ challenge: password.json.data.options.challenge }) }, { cookie: pending });
    expect(late.status).toBe(422);
    expect(late.json.error).toBe('passkey_challenge_invalid');
    expect(late.headers.getSetCookie().some((c) => c.startsWith('dashboard_session=') && !c.startsWith('dashboard_session=;'))).toBe(false);
  });
});

describe('sign out everywhere', () => {
  it('ends the other devices\' sessions (password and passkey), the account lists only live sessions, and the audit log records it', async () => {
    const laptop = await signedInOwner(app);
    const authenticator = await withPasskey(laptop);
    const phone = await passkeySession(authenticator);
    const tablet = dashboardClient(app);
    expect((await tablet.post('/sign-in', { email: laptop.email, password: GOOD_PASSWORD }, { 'user-agent': 'Tablet test' })).status).toBe(200);

    const sessions = (await laptop.get('/account/sessions')).json.data;
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(sessions.map((s: { userAgent: string | null }) => s.userAgent)).toContain('Tablet test');
    expect(sessions[0]).not.toHaveProperty('id');

    // An idle session leaves the list (the laptop keeps using its own).
    clock.advance(20 * MINUTE);
    expect((await laptop.get('/session')).status).toBe(200);
    expect((await phone.get('/session')).status).toBe(200);
    clock.advance(15 * MINUTE);
    expect((await laptop.get('/account/sessions')).json.data).toHaveLength(2);

    const everywhere = await phone.post('/sign-out-everywhere', {});
    expect(everywhere.status).toBe(200);
    for (const device of [laptop, phone, tablet]) expect((await device.get('/session')).json.error).toBe('session_required');

    const again = await signInAgain(laptop);
    const audit = (await again.get('/audit-log?action=sign_out_everywhere')).json.data;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ email: laptop.email.toLowerCase() });
    expect((await again.get('/account/sessions')).json.data).toHaveLength(1);
  });
});

async function signInAgain(owner: DashboardClient & { email: string }): Promise<DashboardClient> {
  const client = dashboardClient(app);
  const signIn = await client.post('/sign-in', { email: owner.email, password: GOOD_PASSWORD });
  expect(signIn.status).toBe(200);
  client.csrf = signIn.json.data.csrfToken;
  return client;
}
