import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { startTestApp, type TestApp } from '../support/harness';
import { dashboardClient, GOOD_PASSWORD, inboxCount, signedInOwner, tokenFromInbox, uniqueEmail, type DashboardClient } from '../support/dashboard';

/**
 * The team page's routes: members, invitations (e-mail link, one-time, 7 days), accepting as a new person or with an
 * existing account, roles with the owner rules (only an owner touches an owner, never the last one), removal ending
 * the member's sessions there, and the organisation switch. Runs on a FakeClock for the invitation's expiry.
 */
const clock = new FakeClock('2026-11-02T08:00:00.000Z');
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ clock });
});
afterAll(() => app?.stop());

type Role = 'owner' | 'admin' | 'developer' | 'analyst';

async function invite(owner: DashboardClient, email: string, role: Role): Promise<{ id: string; token: string }> {
  const before = inboxCount(app, email);
  const res = await owner.post('/team/invitations', { email, role });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  const token = await tokenFromInbox(app, email, 'accept-invitation', before);
  return { id: res.json.data.id, token };
}

/** Invites a new person and accepts as them: a client signed in to the owner's organisation with that role. */
async function joined(owner: DashboardClient, role: Role, email = uniqueEmail(role)) {
  const { token } = await invite(owner, email, role);
  const member = dashboardClient(app);
  const res = await member.post('/invitations/accept', { token, password: GOOD_PASSWORD });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  member.csrf = res.json.data.csrfToken;
  const session = await member.get('/session');
  return Object.assign(member, { email: email.toLowerCase(), userId: session.json.data.user.id as string });
}

async function members(client: DashboardClient): Promise<Array<{ userId: string; email: string; role: Role }>> {
  const res = await client.get('/team/members');
  expect(res.status).toBe(200);
  return res.json.data;
}

const auditActions = async (organisationId: string) =>
  (await app.platform.db.selectFrom('dashboardAuditLog').select('action').where('organisationId', '=', organisationId).execute()).map((r) => r.action);

describe('dashboard team', { timeout: 60_000 }, () => {
  it('when an owner invites a new person as analyst, then the link lets them set a password once, signs them in with a verified e-mail, and the server refuses them keys and team', async () => {
    const owner = await signedInOwner(app);
    const email = uniqueEmail('analyst');
    const { id, token } = await invite(owner, email, 'analyst');
    const pending = await owner.get('/team/invitations');
    expect(pending.json.data).toEqual([expect.objectContaining({ id, email: email.toLowerCase(), role: 'analyst' })]);

    const visitor = dashboardClient(app);
    const described = await visitor.post('/invitations/describe', { token });
    expect(described.json.data).toMatchObject({ organisationName: 'Ikeja Clinic', email: email.toLowerCase(), role: 'analyst', hasAccount: false });

    const weak = await visitor.post('/invitations/accept', { token, password: 'short' });
    expect(weak.status).toBe(422);
    expect(weak.json.error).toBe('password_rejected');

    const accepted = await visitor.post('/invitations/accept', { token, password: GOOD_PASSWORD });
    expect(accepted.status).toBe(200);
    expect(accepted.json.data.organisationId).toBe(owner.organisationId);
    visitor.csrf = accepted.json.data.csrfToken;
    expect((await visitor.get('/session')).json.data).toMatchObject({ role: 'analyst', organisation: { id: owner.organisationId } });
    const user = await app.platform.db.selectFrom('dashboardUsers').select('emailVerifiedAt').where('email', '=', email.toLowerCase()).executeTakeFirstOrThrow();
    expect(user.emailVerifiedAt).not.toBeNull();

    // The link was one-time.
    expect((await dashboardClient(app).post('/invitations/accept', { token, password: GOOD_PASSWORD })).json.error).toBe('invitation_invalid');
    expect((await owner.get('/team/invitations')).json.data).toEqual([]);
    expect((await members(owner)).map((m) => [m.email, m.role])).toEqual([
      [owner.email.toLowerCase(), 'owner'],
      [email.toLowerCase(), 'analyst'],
    ]);
    for (const path of ['/keys', '/team/members', '/team/invitations']) {
      const refused = await visitor.get(path);
      expect(refused.status, path).toBe(403);
      expect(refused.json.error).toBe('dashboard_permission_denied');
    }
    // And they can sign in normally afterwards.
    const again = dashboardClient(app);
    expect((await again.post('/sign-in', { email, password: GOOD_PASSWORD })).status).toBe(200);
    expect(await auditActions(owner.organisationId)).toEqual(expect.arrayContaining(['member_invited', 'invitation_accepted']));
  });

  it('when a person with an account is invited, then they accept with their own password (a wrong one is refused), belong to both organisations and can switch', async () => {
    const owner = await signedInOwner(app);
    const other = await signedInOwner(app);
    const { token } = await invite(owner, other.email, 'developer');
    const visitor = dashboardClient(app);
    expect((await visitor.post('/invitations/describe', { token })).json.data).toMatchObject({ hasAccount: true, role: 'developer' });
    const wrong = await visitor.post('/invitations/accept', { token, password: 'not the password at all, sorry' });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe('invalid_credentials');
    const accepted = await visitor.post('/invitations/accept', { token, password: GOOD_PASSWORD });
    expect(accepted.status).toBe(200);
    visitor.csrf = accepted.json.data.csrfToken;
    expect((await visitor.get('/session')).json.data).toMatchObject({ role: 'developer', organisation: { id: owner.organisationId } });

    const orgs = await visitor.get('/organisations');
    expect(orgs.json.data.map((o: any) => [o.id, o.role, o.current])).toHaveLength(2);
    expect(orgs.json.data.map((o: any) => [o.id, o.role, o.current])).toEqual(
      expect.arrayContaining([
        [other.organisationId, 'owner', false],
        [owner.organisationId, 'developer', true],
      ]),
    );
    const switched = await visitor.post('/session/organisation', { organisationId: other.organisationId });
    expect(switched.status).toBe(200);
    expect((await visitor.get('/session')).json.data).toMatchObject({ role: 'owner', organisation: { id: other.organisationId } });
    expect((await visitor.get('/team/members')).status).toBe(200);

    // An organisation they do not belong to does not exist for them; CSRF applies to the switch.
    const stranger = await signedInOwner(app);
    expect((await visitor.post('/session/organisation', { organisationId: stranger.organisationId })).status).toBe(404);
    expect((await visitor.post('/session/organisation', { organisationId: owner.organisationId }, { 'x-csrf-token': '' })).json.error).toBe('csrf_token_invalid');
    expect((await visitor.get('/session')).json.data.organisation.id).toBe(other.organisationId);
    expect(await auditActions(other.organisationId)).toContain('organisation_switched');
  });

  it('when an invitation is revoked, replaced or 7 days old, then its link is refused', async () => {
    const owner = await signedInOwner(app);
    const revokedEmail = uniqueEmail('revoked');
    const revoked = await invite(owner, revokedEmail, 'developer');
    expect((await owner.send('DELETE', `/team/invitations/${revoked.id}`)).status).toBe(200);
    expect((await dashboardClient(app).post('/invitations/describe', { token: revoked.token })).json.error).toBe('invitation_invalid');

    const replacedEmail = uniqueEmail('replaced');
    const first = await invite(owner, replacedEmail, 'developer');
    const second = await invite(owner, replacedEmail, 'analyst');
    expect((await dashboardClient(app).post('/invitations/accept', { token: first.token, password: GOOD_PASSWORD })).json.error).toBe('invitation_invalid');
    expect((await owner.get('/team/invitations')).json.data.map((i: any) => i.id)).toEqual([second.id]);

    const late = await invite(owner, uniqueEmail('late'), 'developer');
    clock.advance(7 * 24 * 3600_000);
    const res = await dashboardClient(app).post('/invitations/accept', { token: late.token, password: GOOD_PASSWORD });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invitation_invalid');
    expect(await auditActions(owner.organisationId)).toContain('invitation_revoked');
  });

  it('when the invitee is already a member, or the input is bad, then 409/400 and nothing is sent', async () => {
    const owner = await signedInOwner(app);
    const before = inboxCount(app, owner.email);
    const dup = await owner.post('/team/invitations', { email: owner.email, role: 'admin' });
    expect(dup.status).toBe(409);
    expect(dup.json.error).toBe('already_member');
    for (const body of [{ email: 'not-an-email', role: 'admin' }, { email: uniqueEmail(), role: 'superuser' }, { email: uniqueEmail() }, { email: uniqueEmail(), role: 'admin', extra: 1 }]) {
      const res = await owner.post('/team/invitations', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error).toBe('invalid_request');
    }
    expect((await owner.get('/team/invitations')).json.data).toEqual([]);
    expect(inboxCount(app, owner.email)).toBe(before);
    const member = await joined(owner, 'developer');
    const bad = await owner.send('PATCH', `/team/members/${member.userId}`, { role: 'boss' });
    expect(bad.status).toBe(400);
    expect((await members(owner)).find((m) => m.userId === member.userId)?.role).toBe('developer');
  });

  it('when roles change, then only an owner makes or unmakes an owner, and the last owner can be neither demoted nor removed (409 last_owner)', async () => {
    const owner = await signedInOwner(app);
    const ownerId = (await owner.get('/session')).json.data.user.id;
    const admin = await joined(owner, 'admin');
    const dev = await joined(owner, 'developer');

    expect((await admin.send('PATCH', `/team/members/${dev.userId}`, { role: 'analyst' })).json.data).toMatchObject({ role: 'analyst' });
    for (const [path, method, body] of [
      [`/team/members/${dev.userId}`, 'PATCH', { role: 'owner' }],
      [`/team/members/${ownerId}`, 'PATCH', { role: 'admin' }],
      [`/team/members/${ownerId}`, 'DELETE', {}],
    ] as const) {
      const res = await admin.send(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json.error).toBe('owner_required');
    }
    expect((await admin.post('/team/invitations', { email: uniqueEmail(), role: 'owner' })).json.error).toBe('owner_required');

    for (const [method, body] of [
      ['PATCH', { role: 'admin' }],
      ['DELETE', {}],
    ] as const) {
      const res = await owner.send(method, `/team/members/${ownerId}`, body);
      expect(res.status).toBe(409);
      expect(res.json).toMatchObject({ error: 'last_owner', data: { reason: 'last_owner' } });
    }
    expect((await owner.send('PATCH', `/team/members/${admin.userId}`, { role: 'owner' })).status).toBe(200);
    // Two owners now: one may step down, then the other is the last again.
    expect((await admin.send('PATCH', `/team/members/${ownerId}`, { role: 'developer' })).status).toBe(200);
    expect((await admin.send('DELETE', `/team/members/${admin.userId}`)).json.error).toBe('last_owner');
    expect((await members(admin)).map((m) => m.role).sort()).toEqual(['analyst', 'developer', 'owner']);
    expect(await auditActions(owner.organisationId)).toContain('member_role_changed');
  });

  it('when two owners demote each other at once, then one of them stays owner', async () => {
    const owner = await signedInOwner(app);
    const ownerId = (await owner.get('/session')).json.data.user.id;
    const co = await joined(owner, 'owner');
    const results = await Promise.all([owner.send('PATCH', `/team/members/${co.userId}`, { role: 'admin' }), co.send('PATCH', `/team/members/${ownerId}`, { role: 'admin' })]);
    // The loser is refused either as the last owner (409) or, having just been demoted, as no longer an owner (403).
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.map((r) => r.json.error).filter(Boolean)[0]).toMatch(/^(last_owner|owner_required)$/);
    const owners = await app.platform.db.selectFrom('dashboardMemberships').select('userId').where('organisationId', '=', owner.organisationId).where('role', '=', 'owner').execute();
    expect(owners).toHaveLength(1);
  });

  it('when a member is removed, then their session in that organisation ends at once and their session elsewhere goes on', async () => {
    const owner = await signedInOwner(app);
    const elsewhere = await signedInOwner(app);
    const { token } = await invite(owner, elsewhere.email, 'admin');
    const there = dashboardClient(app);
    const accepted = await there.post('/invitations/accept', { token, password: GOOD_PASSWORD });
    there.csrf = accepted.json.data.csrfToken;
    const userId = (await there.get('/session')).json.data.user.id;
    expect((await there.get('/team/members')).status).toBe(200);

    const removed = await owner.send('DELETE', `/team/members/${userId}`);
    expect(removed.status).toBe(200);
    expect(removed.json.data.sessionsEnded).toBe(1);
    expect((await there.get('/session')).status).toBe(401);
    expect((await there.get('/team/members')).json.error).toBe('session_required');
    expect((await elsewhere.get('/session')).json.data.organisation.id).toBe(elsewhere.organisationId);
    expect((await members(owner)).map((m) => m.userId)).not.toContain(userId);
    expect(await auditActions(owner.organisationId)).toContain('member_removed');
  });

  it('when a developer or an analyst uses the team routes, then every one answers 403 and nothing changes', async () => {
    const owner = await signedInOwner(app);
    const target = await joined(owner, 'analyst');
    const pending = await invite(owner, uniqueEmail('pending'), 'analyst');
    for (const role of ['developer', 'analyst'] as const) {
      const member = await joined(owner, role);
      for (const [method, path, body] of [
        ['GET', '/team/members', undefined],
        ['GET', '/team/invitations', undefined],
        ['POST', '/team/invitations', { email: uniqueEmail(), role: 'admin' }],
        ['DELETE', `/team/invitations/${pending.id}`, {}],
        ['PATCH', `/team/members/${target.userId}`, { role: 'admin' }],
        ['DELETE', `/team/members/${target.userId}`, {}],
      ] as const) {
        const res = await member.send(method, path, body);
        expect(res.status, `${role} ${method} ${path}`).toBe(403);
        expect(res.json).toMatchObject({ error: 'dashboard_permission_denied', data: { role } });
      }
      // Their own organisations are theirs to read.
      expect((await member.get('/organisations')).status).toBe(200);
    }
    expect((await owner.get('/team/invitations')).json.data.map((i: any) => i.id)).toEqual([pending.id]);
    expect((await members(owner)).find((m) => m.userId === target.userId)?.role).toBe('analyst');
  });

  it('when a state-changing team route comes without X-CSRF-Token, then 403 csrf_token_invalid and nothing changes', async () => {
    const owner = await signedInOwner(app);
    const target = await joined(owner, 'developer');
    const pending = await invite(owner, uniqueEmail('pending'), 'analyst');
    for (const [method, path, body] of [
      ['POST', '/team/invitations', { email: uniqueEmail(), role: 'admin' }],
      ['DELETE', `/team/invitations/${pending.id}`, {}],
      ['PATCH', `/team/members/${target.userId}`, { role: 'admin' }],
      ['DELETE', `/team/members/${target.userId}`, {}],
    ] as const) {
      const res = await owner.send(method, path, body, { 'x-csrf-token': '' });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json.error).toBe('csrf_token_invalid');
    }
    expect((await owner.get('/team/invitations')).json.data.map((i: any) => i.id)).toEqual([pending.id]);
    expect((await members(owner)).find((m) => m.userId === target.userId)?.role).toBe('developer');
  });

  it('when an owner names another organisation’s member or invitation, then it does not exist (404) and is not listed', async () => {
    const owner = await signedInOwner(app);
    const target = await joined(owner, 'developer');
    const pending = await invite(owner, uniqueEmail('pending'), 'analyst');
    const intruder = await signedInOwner(app);
    for (const [method, path, body] of [
      ['PATCH', `/team/members/${target.userId}`, { role: 'admin' }],
      ['DELETE', `/team/members/${target.userId}`, {}],
      ['DELETE', `/team/invitations/${pending.id}`, {}],
    ] as const) {
      const res = await intruder.send(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await members(intruder)).map((m) => m.email)).toEqual([intruder.email.toLowerCase()]);
    expect((await intruder.get('/team/invitations')).json.data).toEqual([]);
    expect((await members(owner)).find((m) => m.userId === target.userId)?.role).toBe('developer');
  });
});
