import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, lookupSession } from '../../server/platform/domain/dashboard/sessions';
import { startTestApp, type TestApp } from '../support/harness';
import { dashboardClient, GOOD_PASSWORD, inboxCount, signedInOwner, tokenFromInbox, type DashboardClient, cookiesOf } from '../support/dashboard';
import { SoftAuthenticator } from '../support/passkeys';

/**
 * Every path that can open a dashboard session, for an account that asks a passkey after the password: password
 * sign-in, accepting an invitation, a password reset, e-mail verification, switching organisation, a passwordless
 * passkey and the passkey step. Only a verified passkey opens a session for such an account; whatever else a path
 * proves (the password, the mailbox) gets the passkey step or nothing, and the organisation switch never lifts a
 * session beyond what its user completed.
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

/** An owner who registered a passkey and switched "ask for a passkey after the password" on. */
async function passkeyOwner() {
  const owner = await signedInOwner(app);
  const authenticator = new SoftAuthenticator(origin, rpId);
  const options = (await owner.post('/passkeys/registration-options', {})).json.data;
  expect((await owner.post('/passkeys', { response: authenticator.register({ challenge: options.challenge, userHandle: options.user.id }), name: 'Phone' })).status).toBe(201);
  expect((await owner.send('PATCH', '/account/security', { requirePasskey: true })).status).toBe(200);
  const userId = (await owner.get('/session')).json.data.user.id as string;
  return Object.assign(owner, { authenticator, userId });
}

async function invitationFor(inviter: DashboardClient, email: string, role: 'owner' | 'developer') {
  const before = inboxCount(app, email);
  expect((await inviter.post('/team/invitations', { email, role })).status).toBe(201);
  return tokenFromInbox(app, email, 'accept-invitation', before);
}

async function resetPasswordByMail(email: string, password: string) {
  const before = inboxCount(app, email);
  expect((await dashboardClient(app).post('/password-reset/request', { email })).status).toBe(202);
  const token = await tokenFromInbox(app, email, 'reset-password', before);
  const reset = await dashboardClient(app).post('/password-reset', { token, password });
  expect(reset.status).toBe(200);
  expect(cookiesOf(reset.headers).dashboard_session ?? '').toBe('');
}

const sessionsOf = async (userId: string) => app.platform.db.selectFrom('dashboardSessions').select(['id', 'organisationId', 'passkeyVerifiedAt']).where('userId', '=', userId).where('revokedAt', 'is', null).execute();

describe('the session gate, for an account that asks a passkey after the password', () => {
  it('mailbox access alone (reset the password, accept an invitation) yields the passkey step, no session, and no way into the other organisation', async () => {
    const victim = await passkeyOwner();
    const attackerOrg = await signedInOwner(app);
    const token = await invitationFor(attackerOrg, victim.email, 'developer');
    // With the mailbox: a new password, then the invitation accepted with it.
    await resetPasswordByMail(victim.email, 'a brand new passphrase nobody guessed');
    const browser = dashboardClient(app);
    const accepted = await browser.post('/invitations/accept', { token, password: 'a brand new passphrase nobody guessed' });
    expect(accepted.status).toBe(200);
    expect(accepted.json.data).toMatchObject({ secondFactor: 'passkey' });
    expect(accepted.json.data.csrfToken).toBeUndefined();
    expect(cookiesOf(accepted.headers).dashboard_session).toBeUndefined();
    expect(browser.cookie).toBeUndefined();
    // Whatever the browser holds, nothing is signed in: no switch to the victim's organisation, no key.
    const pending = `dashboard_second_factor=${cookiesOf(accepted.headers).dashboard_second_factor}`;
    expect((await browser.get('/session', { cookie: pending })).status).toBe(401);
    expect((await browser.post('/session/organisation', { organisationId: victim.organisationId }, { cookie: pending })).status).toBe(401);
    expect((await browser.post('/keys', { mode: 'test' }, { cookie: pending })).status).toBe(401);
    expect(await sessionsOf(victim.userId)).toEqual([]);

    // The real owner's passkey answers the step: a session in the inviting organisation, with the passkey recorded.
    const done = await browser.post('/passkeys/second-factor/verify', { response: victim.authenticator.sign({ challenge: accepted.json.data.options.challenge }) }, { cookie: pending });
    expect(done.status).toBe(200);
    browser.cookie = `dashboard_session=${cookiesOf(done.headers).dashboard_session}`;
    browser.csrf = done.json.data.csrfToken;
    expect((await browser.get('/session')).json.data).toMatchObject({ role: 'developer', organisation: { id: attackerOrg.organisationId } });
    expect((await browser.post('/session/organisation', { organisationId: victim.organisationId })).status).toBe(200);
    expect((await browser.get('/session')).json.data).toMatchObject({ role: 'owner', organisation: { id: victim.organisationId } });
  });

  it('password reset and e-mail verification open no session; the password sign-in gets the passkey step', async () => {
    const owner = await passkeyOwner();
    await resetPasswordByMail(owner.email, 'another long passphrase for the test');
    expect(await sessionsOf(owner.userId)).toEqual([]);
    const password = await dashboardClient(app).post('/sign-in', { email: owner.email, password: 'another long passphrase for the test' });
    expect(password.json.data).toMatchObject({ secondFactor: 'passkey' });
    expect(cookiesOf(password.headers).dashboard_session).toBeUndefined();
    expect(await sessionsOf(owner.userId)).toEqual([]);
  });

  it('a passwordless passkey opens a session with the passkey recorded', async () => {
    const owner = await passkeyOwner();
    const browser = dashboardClient(app);
    const options = (await browser.post('/passkeys/sign-in/options', {})).json.data;
    const done = await browser.post('/passkeys/sign-in/verify', { response: owner.authenticator.sign({ challenge: options.challenge }) });
    expect(done.status).toBe(200);
    browser.cookie = `dashboard_session=${cookiesOf(done.headers).dashboard_session}`;
    expect((await browser.get('/session')).status).toBe(200);
    const verified = (await sessionsOf(owner.userId)).filter((s) => s.passkeyVerifiedAt);
    expect(verified.length).toBeGreaterThanOrEqual(1);
  });

  it('switching the passkey on keeps the session that did it and ends the password-only sessions elsewhere', async () => {
    const owner = await signedInOwner(app);
    const elsewhere = dashboardClient(app);
    const signIn = await elsewhere.post('/sign-in', { email: owner.email, password: GOOD_PASSWORD });
    elsewhere.csrf = signIn.json.data.csrfToken;
    expect((await elsewhere.get('/session')).status).toBe(200);
    const authenticator = new SoftAuthenticator(origin, rpId);
    const options = (await owner.post('/passkeys/registration-options', {})).json.data;
    expect((await owner.post('/passkeys', { response: authenticator.register({ challenge: options.challenge, userHandle: options.user.id }) })).status).toBe(201);
    expect((await owner.send('PATCH', '/account/security', { requirePasskey: true })).status).toBe(200);
    expect((await owner.get('/session')).status).toBe(200);
    expect((await elsewhere.get('/session')).status).toBe(401);
    expect((await elsewhere.post('/keys', { mode: 'test' })).status).toBe(401);
  });

  it('a session opened without the passkey by any other path is refused: the gate holds in the session lookup too', async () => {
    const owner = await passkeyOwner();
    const now = app.platform.clock.now();
    const bypass = await createSession(app.platform.db, { userId: owner.userId, organisationId: owner.organisationId, now, ip: null, userAgent: null, passkeyVerified: false });
    expect(await lookupSession(app.platform.db, bypass.token, now)).toBeUndefined();
    const proper = await createSession(app.platform.db, { userId: owner.userId, organisationId: owner.organisationId, now, ip: null, userAgent: null, passkeyVerified: true });
    expect(await lookupSession(app.platform.db, proper.token, now)).toMatchObject({ userId: owner.userId });
  });

  it('an account without the passkey setting accepts an invitation straight into a session, as before', async () => {
    const inviter = await signedInOwner(app);
    const member = await signedInOwner(app);
    const token = await invitationFor(inviter, member.email, 'developer');
    const browser = dashboardClient(app);
    const accepted = await browser.post('/invitations/accept', { token, password: GOOD_PASSWORD });
    expect(accepted.status).toBe(200);
    expect(accepted.json.data.csrfToken).toEqual(expect.any(String));
    expect((await browser.get('/session')).json.data).toMatchObject({ role: 'developer', organisation: { id: inviter.organisationId } });
  });
});
