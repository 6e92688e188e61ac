import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../server/platform/domain/api-keys/api-key';
import { fundPool } from '../../server/platform/domain/pools/pool';
import { client, pushBody, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant } from '../support/lifecycle';
import { signedInOwner } from '../support/dashboard';
import { enableLive, memberOf, setRole } from '../support/dashboard-members';

/** The home page's overview: live status, the getting-started checklist from real data, the mode's figures. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.stop());

const done = (overview: { checklist: Array<{ id: string; done: boolean }> }) => Object.fromEntries(overview.checklist.map((c) => [c.id, c.done]));

describe('GET /dashboard/api/overview', () => {
  it('when a new organisation signs up, then it is test only and only the e-mail is done; each step turns done as its data appears, per mode', async () => {
    const owner = await signedInOwner(app);
    const first = await owner.get('/overview');
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ organisation: { id: owner.organisationId, name: 'Ikeja Clinic', liveEnabled: false }, mode: 'test' });
    // This platform runs without live providers: the home names them all, whatever the organisation's live status.
    expect(first.json.data.organisation.liveProvidersMissing).toEqual(['rail', 'sms', 'identity', 'bankLookup']);
    expect(done(first.json.data)).toEqual({
      email_verified: true,
      api_key_created: false,
      product_defined: false,
      default_product_set: false,
      pool_funded: false,
      webhook_endpoint_added: false,
      checkout_origins_set: false,
    });
    expect(first.json.data.checklist.map((c: { path: string }) => c.path)).toEqual(['/account', '/keys', '/products', '/settings', '/pool', '/webhooks', '/checkout']);
    expect(first.json.data.figures).toMatchObject({ poolBalanceKobo: 0, loansThisMonth: 0, pools: [] });

    const now = app.platform.clock.now();
    await createApiKey(app.platform.db, app.platform.secrets, { organisationId: owner.organisationId, mode: 'test', now });
    await fundPool(app.platform.db, { organisationId: owner.organisationId, mode: 'test', code: 'main', amountKobo: 5_000_000, now });
    expect((await owner.send('PATCH', '/checkout/settings', { allowedOrigins: ['https://clinic.example'] })).status).toBe(200);
    const later = (await owner.get('/overview')).json.data;
    expect(done(later)).toMatchObject({ api_key_created: true, pool_funded: true, checkout_origins_set: true, product_defined: false });
    expect(later.figures).toMatchObject({ poolBalanceKobo: 5_000_000, pools: [{ code: 'main', balanceKobo: 5_000_000 }] });

    // Live: its own keys, pool and settings.
    owner.mode = 'live';
    expect((await owner.get('/overview')).json.error).toBe('LIVE_MODE_NOT_ENABLED');
    await enableLive(app, owner.organisationId);
    const live = (await owner.get('/overview')).json.data;
    expect(live).toMatchObject({ mode: 'live', organisation: { liveEnabled: true }, figures: { poolBalanceKobo: 0 } });
    expect(done(live)).toMatchObject({ api_key_created: false, pool_funded: false, checkout_origins_set: false });
  });

  it('every role reads it; another organisation sees only its own', async () => {
    const owner = await signedInOwner(app);
    const user = await app.platform.db.selectFrom('dashboardUsers').select('id').where('email', '=', owner.email.toLowerCase()).executeTakeFirstOrThrow();
    for (const role of ['analyst', 'developer', 'admin'] as const) {
      await setRole(app, user.id, role);
      const res = await owner.get('/overview');
      expect(res.status).toBe(200);
      expect(res.json.data.organisation.id).toBe(owner.organisationId);
    }
    const stranger = await signedInOwner(app);
    await fundPool(app.platform.db, { organisationId: owner.organisationId, mode: 'test', code: 'main', amountKobo: 100, now: app.platform.clock.now() });
    expect((await stranger.get('/overview')).json.data.figures.poolBalanceKobo).toBe(0);
  });

  it('counts the loans created this month in the mode, and sees the product', async () => {
    const lender = await lendingTenant(app);
    const owner = await memberOf(app, lender.organisationId);
    const pushed = await client(app, lender.test).post('/v1/preapprovals', pushBody({ amount: 150000 }));
    expect(pushed.status).toBe(202);
    expect((await client(app, lender.test).post(`/v1/preapprovals/${pushed.body.data.preapprovalId}/issue-offer`, {})).status).toBe(200);
    const overview = (await owner.get('/overview')).json.data;
    expect(overview.figures.loansThisMonth).toBe(1);
    expect(done(overview)).toMatchObject({ product_defined: true, pool_funded: true, api_key_created: true });
    owner.mode = 'live';
    expect((await owner.get('/overview')).json.data.figures.loansThisMonth).toBe(0);
  });

  it('when signed out, then 401 session_required', async () => {
    const owner = await signedInOwner(app);
    owner.cookie = undefined;
    expect((await owner.get('/overview')).status).toBe(401);
  });
});
