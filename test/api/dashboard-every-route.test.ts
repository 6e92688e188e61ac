import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness';
import { dashboardClient, signedInOwner, type DashboardClient } from '../support/dashboard';
import { createDashboardRouter } from '../../server/platform/http/dashboard-router';

/**
 * Every route the dashboard router has — read from the router itself, so a route added later is covered without
 * anyone listing it — refuses a caller without a session (401 `session_required`) and, when it changes state, a
 * signed-in caller without the CSRF header (403 `csrf_token_invalid`) and a request from another site's page.
 * Only the routes a signed-out person needs are open, and they are named here.
 */
const SIGNED_OUT = new Set([
  'POST /sign-up',
  'POST /verify-email',
  'POST /sign-in',
  'POST /password-reset/request',
  'POST /password-reset',
  'POST /passkeys/sign-in/options',
  'POST /passkeys/sign-in/verify',
  'POST /passkeys/second-factor/verify',
  'POST /invitations/describe',
  'POST /invitations/accept',
  // The checkout preview's static texts and step files: a redirect to the hosted checkout's public files.
  'GET /checkout/preview/:mode/:draft/api/locales/:file',
  'GET /checkout/preview/:mode/:draft/api/steps/:file',
]);

/**
 * POSTs that change nothing, which need a session but not the CSRF header: the checkout preview's widget (in a frame,
 * it has no CSRF token) "refreshes" a session that does not exist, and every borrower action answers 403
 * `checkout_preview_only` (nothing is sent or stored).
 */
const CHANGE_NOTHING = new Set(['POST /checkout/preview/:mode/:draft/api/session/refresh', 'POST /checkout/preview/:mode/:draft/api/{*rest}']);

const ID = '0191e7a2-0000-7000-8000-000000000000';

interface RouteRow {
  method: string;
  path: string;
}

function routesOf(app: TestApp): RouteRow[] {
  const router = createDashboardRouter(app.platform) as unknown as { stack: Array<{ route?: { path: string | string[]; methods: Record<string, boolean> } }> };
  return router.stack.flatMap((layer) => {
    if (!layer.route) return [];
    const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
    const methods = Object.keys(layer.route.methods).flatMap((m) => (m === '_all' ? ['get', 'post'] : [m]));
    return paths.flatMap((path) => methods.map((method) => ({ method: method.toUpperCase(), path })));
  });
}

/** A concrete URL for a route pattern: parameters become an id (or `test` for a mode), `{*rest}` a word. */
const urlOf = (path: string) =>
  path
    .replace(/\{\*\w+\}/g, 'anything')
    .replace(/:mode\b/g, 'test')
    .replace(/:\w+/g, ID);

let app: TestApp;
let owner: DashboardClient;
let routes: RouteRow[];
beforeAll(async () => {
  app = await startTestApp();
  owner = await signedInOwner(app);
  routes = routesOf(app);
});
afterAll(() => app.stop());

describe('every dashboard route', () => {
  it('the router lists its routes (the walk works) and every signed-out route named here exists', () => {
    expect(routes.length).toBeGreaterThan(60);
    const present = new Set(routes.map((r) => `${r.method} ${r.path}`));
    expect([...SIGNED_OUT].filter((route) => !present.has(route))).toEqual([]);
  });

  it('without a session: 401 session_required, before anything is read or written', async () => {
    const anonymous = dashboardClient(app);
    const wrong: string[] = [];
    for (const route of routes.filter((r) => !SIGNED_OUT.has(`${r.method} ${r.path}`))) {
      const res = await anonymous.send(route.method, urlOf(route.path), {});
      if (res.status !== 401 || res.json?.error !== 'session_required') wrong.push(`${route.method} ${route.path} → ${res.status} ${res.json?.error ?? res.text.slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('signed in, a state-changing request without X-CSRF-Token: 403 csrf_token_invalid', async () => {
    const noCsrf = Object.assign(dashboardClient(app), { cookie: owner.cookie });
    const wrong: string[] = [];
    for (const route of routes.filter((r) => r.method !== 'GET' && !SIGNED_OUT.has(`${r.method} ${r.path}`) && !CHANGE_NOTHING.has(`${r.method} ${r.path}`))) {
      const res = await noCsrf.send(route.method, urlOf(route.path), {});
      if (res.status !== 403 || res.json?.error !== 'csrf_token_invalid') wrong.push(`${route.method} ${route.path} → ${res.status} ${res.json?.error}`);
    }
    expect(wrong).toEqual([]);
    // The exempt ones really change nothing: the preview's borrower actions are refused as such.
    const refused = await noCsrf.send('POST', urlOf('/checkout/preview/:mode/:draft/api/otp/send'), {});
    expect(refused.json?.error).toBe('checkout_preview_only');
  });

  it("a state-changing request from another site's page (its Origin) is refused, signed in or not", async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => r.method !== 'GET')) {
      const res = await owner.send(route.method, urlOf(route.path), {}, { origin: 'https://attacker.example' });
      if (res.status !== 403 || res.json?.error !== 'csrf_token_invalid') wrong.push(`${route.method} ${route.path} → ${res.status} ${res.json?.error}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a state-changing request that is not JSON (a cross-site form) is refused', async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => r.method !== 'GET')) {
      const res = await owner.send(route.method, urlOf(route.path), undefined, { 'content-type': 'application/x-www-form-urlencoded' });
      if (res.status !== 415) wrong.push(`${route.method} ${route.path} → ${res.status} ${res.json?.error}`);
    }
    expect(wrong).toEqual([]);
  });
});
