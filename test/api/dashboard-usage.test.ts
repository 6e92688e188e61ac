import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type TestApp } from '../support/harness';
import { signedInOwner } from '../support/dashboard';
import { createApiKey } from '../../server/platform/domain/api-keys/api-key';
import { configureOrganisation } from '../../server/platform/domain/organisations/organisation';

/** Usage on the dashboard: the mode's daily requests and errors, 30 days, quiet days as 0. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

async function partnerApi(organisationId: string, mode: 'test' | 'live') {
  const key = await createApiKey(app.platform.db, app.platform.secrets, { organisationId, mode, now: app.platform.clock.now() });
  return client(app, { publicKey: key.publicKey, secretKey: key.secretKey });
}

describe('dashboard usage', () => {
  it('answers 30 days oldest first, today counting the calls and errors of the mode only; other days 0', async () => {
    const owner = await signedInOwner(app);
    await configureOrganisation(app.platform.db, owner.organisationId, { liveEnabled: true }, app.platform.clock.now());
    const test = await partnerApi(owner.organisationId, 'test');
    const live = await partnerApi(owner.organisationId, 'live');
    await test.get('/v1/products');
    await test.get('/v1/products');
    await test.get('/v1/products/00000000-0000-7000-8000-000000000000'); // 404: an error
    await live.get('/v1/products');

    const usage = await owner.get('/usage');
    expect(usage.status).toBe(200);
    const days = usage.json.data.days as { day: string; requestCount: number; errorCount: number }[];
    expect(days).toHaveLength(30);
    const today = app.platform.clock.now().toISOString().slice(0, 10);
    expect(days.at(-1)).toEqual({ day: `${today}T00:00:00.000Z`, requestCount: 3, errorCount: 1 });
    expect(days.slice(0, -1).every((d) => d.requestCount === 0 && d.errorCount === 0)).toBe(true);
    expect(days.map((d) => d.day)).toEqual([...days.map((d) => d.day)].sort());

    const liveUsage = await owner.get('/usage', { 'x-dashboard-mode': 'live' });
    expect(liveUsage.json.data.days.at(-1)).toMatchObject({ requestCount: 1, errorCount: 0 });
    expect((await owner.get('/usage?days=7')).json.data.days).toHaveLength(7);
    expect((await owner.get('/usage?days=400')).status).toBe(400);

    // Another organisation's usage is its own; an analyst may read usage.
    const other = await signedInOwner(app);
    await app.platform.db.updateTable('dashboardMemberships').set({ role: 'analyst' }).where('organisationId', '=', other.organisationId).execute();
    const theirs = await other.get('/usage');
    expect(theirs.status).toBe(200);
    expect(theirs.json.data.days.every((d: any) => d.requestCount === 0)).toBe(true);
    expect((await other.get('/usage', { 'x-dashboard-mode': 'live' })).json.error).toBe('LIVE_MODE_NOT_ENABLED');
  });

  it('signed out is 401 session_required', async () => {
    const res = await fetch(`${app.url}/dashboard/api/usage`);
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('session_required');
  });
});
