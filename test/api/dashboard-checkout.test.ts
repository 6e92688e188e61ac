import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { signedInOwner } from '../support/dashboard';
import { enableLive, memberOf, setRole } from '../support/dashboard-members';

/**
 * The dashboard's checkout settings: the partner API's settings for the session's organisation and mode,
 * the same validation (a bad value: 400 naming the field, nothing changed, no audit row), the audit row of a save, the
 * role matrix, CSRF, tenant and mode isolation, and the live preview's page and fixture state.
 */
let app: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await createTenant(app);
});
afterAll(() => app.stop());

const draft = (branding: Record<string, unknown>) => Buffer.from(JSON.stringify(branding)).toString('base64url');
const auditRows = (organisationId: string) =>
  app.platform.db.selectFrom('dashboardAuditLog').selectAll().where('organisationId', '=', organisationId).where('action', '=', 'checkout_settings_updated').execute();

describe('checkout settings', () => {
  it('when an owner saves origins, a return URL and branding, then the partner API reads the same settings and one audit row records it', async () => {
    const owner = await memberOf(app, tenant.organisationId);
    const before = await owner.get('/checkout/settings');
    expect(before.status).toBe(200);
    expect(before.json.data).toMatchObject({ allowedOrigins: [], returnUrl: null, brandColor: null, organisationName: expect.any(String) });

    const saved = await owner.send('PATCH', '/checkout/settings', {
      allowedOrigins: ['https://shop.example'],
      returnUrl: 'https://shop.example/done',
      brandColor: '#0B6E4F',
      displayName: 'Kudi Loans',
      supportPhone: '0700 123 4567',
    });
    expect(saved.status).toBe(200);
    expect(saved.json.data).toMatchObject({ allowedOrigins: ['https://shop.example'], brandColor: '#0b6e4f', supportPhone: '+234 700 123 4567' });

    const api = await client(app, tenant.test).get('/v1/checkout-settings');
    expect(api.body.data).toMatchObject({ allowedOrigins: ['https://shop.example'], returnUrl: 'https://shop.example/done', brandColor: '#0b6e4f', displayName: 'Kudi Loans' });
    const rows = await auditRows(tenant.organisationId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: owner.userId, target: 'checkout-settings:test' });

    // A later change keeps what it does not name; null removes.
    const again = await owner.send('PATCH', '/checkout/settings', { returnUrl: null });
    expect(again.json.data).toMatchObject({ returnUrl: null, brandColor: '#0b6e4f', allowedOrigins: ['https://shop.example'] });
  });

  it.each([
    [{ brandColor: 'green' }, 'brandColor'],
    [{ allowedOrigins: ['https://shop.example/path'] }, 'allowedOrigins'],
    [{ allowedOrigins: ['http://shop.example'] }, 'allowedOrigins'],
    [{ returnUrl: 'javascript:alert(1)' }, 'returnUrl'],
    [{ logoUrl: 'ftp://logo.example/x.png' }, 'logoUrl'],
    [{ supportEmail: 'not an e-mail' }, 'supportEmail'],
    [{ unknownField: 1 }, 'unknownField'],
    [{ brandColor: '#112233', supportPhone: '12' }, 'supportPhone'],
  ])('when the body is %j, then 400 invalid_request names %s and nothing changes (no audit row)', async (body, field) => {
    const other = await createTenant(app);
    const owner = await memberOf(app, other.organisationId);
    const res = await owner.send('PATCH', '/checkout/settings', body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: 'invalid_request' });
    expect(res.json.message).toContain(field);
    expect((await owner.get('/checkout/settings')).json.data).toMatchObject({ allowedOrigins: [], brandColor: null, supportPhone: null, updatedAt: null });
    expect(await auditRows(other.organisationId)).toHaveLength(0);
  });

  it('when the role is developer, then it saves; analyst reads but is refused the save with 403 dashboard_permission_denied', async () => {
    const other = await createTenant(app);
    const member = await memberOf(app, other.organisationId, 'developer');
    expect((await member.send('PATCH', '/checkout/settings', { brandColor: '#123456' })).status).toBe(200);
    await setRole(app, member.userId, 'analyst');
    expect((await member.get('/checkout/settings')).status).toBe(200);
    const refused = await member.send('PATCH', '/checkout/settings', { brandColor: '#654321' });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error: 'dashboard_permission_denied', data: { action: 'checkout.manage', role: 'analyst' } });
    expect((await member.get('/checkout/settings')).json.data.brandColor).toBe('#123456');
  });

  it('when the CSRF token is missing, then 403 csrf_token_invalid and nothing changes', async () => {
    const owner = await signedInOwner(app);
    const res = await owner.send('PATCH', '/checkout/settings', { brandColor: '#123456' }, { 'x-csrf-token': '' });
    expect(res.status).toBe(403);
    expect(res.json.error).toBe('csrf_token_invalid');
    expect((await owner.get('/checkout/settings')).json.data.brandColor).toBeNull();
  });

  it('when signed out, then 401 session_required', async () => {
    const owner = await signedInOwner(app);
    owner.cookie = undefined;
    expect((await owner.get('/checkout/settings')).json.error).toBe('session_required');
  });

  it('test and live settings are separate, live needs the organisation live-enabled, and another organisation never sees them', async () => {
    const owner = await signedInOwner(app);
    owner.mode = 'live';
    expect((await owner.get('/checkout/settings')).json.error).toBe('LIVE_MODE_NOT_ENABLED');
    await enableLive(app, owner.organisationId);
    expect((await owner.send('PATCH', '/checkout/settings', { brandColor: '#aa0000', allowedOrigins: ['http://localhost:3000'] })).json.error).toBe('invalid_request');
    expect((await owner.send('PATCH', '/checkout/settings', { brandColor: '#aa0000' })).status).toBe(200);
    owner.mode = 'test';
    expect((await owner.get('/checkout/settings')).json.data.brandColor).toBeNull();
    // http on localhost is a test-mode allowance.
    expect((await owner.send('PATCH', '/checkout/settings', { allowedOrigins: ['http://localhost:3000'] })).status).toBe(200);

    const stranger = await signedInOwner(app);
    expect((await stranger.get('/checkout/settings')).json.data).toMatchObject({ allowedOrigins: [], brandColor: null });
  });
});

describe('the live preview', () => {
  it('serves the hosted checkout page, framable by the dashboard only, whose widget reads a fixture state with the draft branding', async () => {
    const owner = await signedInOwner(app);
    await owner.send('PATCH', '/checkout/settings', { displayName: 'Saved Name' });
    const base = `/checkout/preview/test/${draft({ brandColor: '#0B6E4F', displayName: 'Draft Loans', termsUrl: 'javascript:alert(1)' })}`;
    const page = await owner.send('GET', base);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain(`<lc-checkout api="/dashboard/api${base}/api" state="ready">`);
    expect(page.text).toContain('src="/checkout/widget.js"');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("script-src 'self'");

    const state = await owner.get(`${base}/api/state`);
    expect(state.status).toBe(200);
    expect(state.json.data).toMatchObject({
      mode: 'test',
      status: 'in_progress',
      nextStep: 'otp',
      organisationName: 'Ikeja Clinic',
      branding: { brandColor: '#0b6e4f', displayName: 'Draft Loans', termsUrl: null, securedBy: expect.any(String) },
      borrower: null,
      offer: null,
      loan: null,
    });
    // The draft is not saved.
    expect((await owner.get('/checkout/settings')).json.data.displayName).toBe('Saved Name');
    expect(await owner.get(`${base}/api/settings`)).toMatchObject({ status: 200, json: { data: { allowedOrigins: [], returnUrl: null } } });
  });

  it('answers what a borrower would do with 403 checkout_preview_only, sends its texts from the hosted checkout, and slides no real session', async () => {
    const owner = await signedInOwner(app);
    const base = `/checkout/preview/test/${draft({})}`;
    const sent = await owner.send('POST', `${base}/api/otp/send`, {}, { 'x-csrf-token': '' });
    expect(sent.status).toBe(403);
    expect(sent.json.error).toBe('checkout_preview_only');
    expect((await owner.send('POST', `${base}/api/session/refresh`, {}, { 'x-csrf-token': '' })).status).toBe(200);
    const locale = await fetch(`${app.url}/dashboard/api${base}/api/locales/yo.json`, { headers: { cookie: owner.cookie! }, redirect: 'manual' });
    expect(locale.status).toBe(302);
    expect(locale.headers.get('location')).toBe('/checkout/api/locales/yo.json');
  });

  it('needs a session that may read the settings, a live-enabled organisation for live, and a well-formed draft', async () => {
    const owner = await signedInOwner(app);
    const base = `/checkout/preview/test/${draft({})}`;
    expect((await fetch(`${app.url}/dashboard/api${base}/api/state`)).status).toBe(401);
    expect((await owner.get(`/checkout/preview/live/${draft({})}/api/state`)).json.error).toBe('LIVE_MODE_NOT_ENABLED');
    expect((await owner.get(`/checkout/preview/other/${draft({})}/api/state`)).status).toBe(400);
    expect((await owner.get('/checkout/preview/test/%%%/api/state')).status).toBe(400);
    expect((await owner.get(`/checkout/preview/test/${draft({ secret: 'x' })}/api/state`)).json.error).toBe('invalid_request');
    await enableLive(app, owner.organisationId);
    const live = await owner.get(`/checkout/preview/live/${draft({})}/api/state`);
    expect(live.json.data.mode).toBe('live');
  });
});
