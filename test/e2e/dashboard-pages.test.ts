import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness';
import { ensureDashboardBundle } from '../support/dashboard-browser';
import { signedInOwner } from '../support/dashboard';

/** What the server sends for the dashboard's pages and bundle, and the checks every data route shares (the kit). */
describe('the dashboard pages and the shared route checks', () => {
  let app: TestApp;
  beforeAll(async () => {
    ensureDashboardBundle();
    app = await startTestApp();
  });
  afterAll(() => app?.stop());

  it('every path under /dashboard is the same shell with a strict policy, never framed, never cached', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/loans/0191e7a2-0000-7000-8000-000000000000', '/dashboard/verify-email?token=x']) {
      const res = await fetch(`${app.url}${path}`);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(html).toContain('<dash-app>');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const script = /src="(\/dashboard\/assets\/dashboard\.[0-9a-f]{10}\.js)"/.exec(html)?.[1];
      expect(script, html).toBeTruthy();
    }
  });

  it('the bundle is served precompressed, hashed names immutable; unknown assets 404', async () => {
    const html = await (await fetch(`${app.url}/dashboard`)).text();
    const script = /src="(\/dashboard\/assets\/[^"]+)"/.exec(html)![1]!;
    const res = await fetch(`${app.url}${script}`, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect(res.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${app.url}/dashboard/assets/nope.js`)).status).toBe(404);
    expect((await fetch(`${app.url}/dashboard/assets/..%2Fpackage.json`)).status).toBe(404);
  });

  it('an unknown API route answers a JSON 404, not the page', async () => {
    const res = await fetch(`${app.url}/dashboard/api/nothing-here`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: string }).error).toBe('NOT_FOUND');
  });

  it('the mode: a bad value is 400, live before an operator enables it is 403 LIVE_MODE_NOT_ENABLED, then allowed', async () => {
    const owner = await signedInOwner(app);
    expect((await owner.get('/audit-log', { 'x-dashboard-mode': 'prod' })).json.error).toBe('invalid_request');
    const refused = await owner.get('/audit-log', { 'x-dashboard-mode': 'live' });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe('LIVE_MODE_NOT_ENABLED');
    expect((await owner.get('/audit-log?mode=live')).json.error).toBe('LIVE_MODE_NOT_ENABLED');
    await app.platform.db.updateTable('organisations').set({ liveEnabled: true }).where('id', '=', owner.organisationId).execute();
    expect((await owner.get('/audit-log', { 'x-dashboard-mode': 'live' })).status).toBe(200);
  });

  it('lists page with an opaque cursor; a cursor this server did not write is 400', async () => {
    const owner = await signedInOwner(app);
    const first = await owner.get('/audit-log?limit=1');
    expect(first.status).toBe(200);
    expect(first.json.data).toHaveLength(1);
    expect(typeof first.json.nextCursor).toBe('string');
    const second = await owner.get(`/audit-log?limit=1&cursor=${first.json.nextCursor}`);
    expect(second.json.data).toHaveLength(1);
    expect(second.json.data[0].id).not.toBe(first.json.data[0].id);
    expect((await owner.get('/audit-log?cursor=bm90LWEtY3Vyc29y')).json.error).toBe('invalid_request');
    expect((await owner.get('/audit-log?limit=1000')).json.error).toBe('invalid_request');
  });
});
