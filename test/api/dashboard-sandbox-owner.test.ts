import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapSandbox } from '../../server/platform/domain/bootstrap';
import { ensureSandboxOwner } from '../../server/platform/domain/dashboard/ensure-sandbox-owner';
import { createTenant, startTestApp, type TestApp } from '../support/harness';
import { dashboardClient, GOOD_PASSWORD } from '../support/dashboard';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.stop());

describe('the sandbox organisation gets a dashboard owner', () => {
  it('when the sandbox starts, then its owner sets a password from the one-time link and signs in to the sandbox organisation; later starts issue nothing', async () => {
    const now = app.platform.clock.now();
    const { result } = await bootstrapSandbox(app.platform.db, app.platform.secrets, now);
    const first = await ensureSandboxOwner(app.platform.db, { organisationId: result.organisationId, email: 'Owner@Sandbox.example', now });
    expect(first).toMatchObject({ email: 'owner@sandbox.example', created: true });
    // A restart before the password is set gives a fresh link for the same owner.
    const second = await ensureSandboxOwner(app.platform.db, { organisationId: result.organisationId, email: 'owner@sandbox.example', now });
    expect(second).toMatchObject({ email: 'owner@sandbox.example', created: false });

    const browser = dashboardClient(app);
    expect((await browser.post('/sign-in', { email: 'owner@sandbox.example', password: GOOD_PASSWORD })).json.error).toBe('invalid_credentials');
    const set = await browser.post('/password-reset', { token: second!.setPasswordToken, password: GOOD_PASSWORD });
    expect(set.status).toBe(200);
    // Its first password: "set", not "changed".
    expect([set.json.message, set.json.data]).toEqual(['Password set: sign in with it.', { firstPassword: true }]);
    const signIn = await browser.post('/sign-in', { email: 'owner@sandbox.example', password: GOOD_PASSWORD });
    expect(signIn.status).toBe(200);
    expect(signIn.json.data.organisationId).toBe(result.organisationId);
    expect((await browser.get('/session')).json.data).toMatchObject({ role: 'owner', organisation: { id: result.organisationId, liveEnabled: true } });

    expect(await ensureSandboxOwner(app.platform.db, { organisationId: result.organisationId, email: 'owner@sandbox.example', now })).toBeUndefined();
    const created = await app.platform.db.selectFrom('dashboardAuditLog').select('userAgent').where('organisationId', '=', result.organisationId).where('action', '=', 'owner_created').execute();
    expect(created).toEqual([{ userAgent: 'sandbox bootstrap' }]);
  });

  it('the audit row names who made the owner when it is not the sandbox bootstrap (the live rehearsal)', async () => {
    const now = app.platform.clock.now();
    const { organisationId } = await createTenant(app);
    await ensureSandboxOwner(app.platform.db, { organisationId, email: 'owner@rehearsal.example', now, by: 'live rehearsal' });
    const created = await app.platform.db.selectFrom('dashboardAuditLog').select('userAgent').where('organisationId', '=', organisationId).where('action', '=', 'owner_created').execute();
    expect(created).toEqual([{ userAgent: 'live rehearsal' }]);
  });
});
