import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../server/platform/http/routes';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';

const run = promisify(execFile);
let app: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await createTenant(app);
});
afterAll(() => app.stop());

describe('envelope', () => {
  it('wraps a success in {status, success, message, data} with no error', async () => {
    const res = await client(app, tenant.test).get('/v1/products');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'status', 'success']);
    expect(res.body).toMatchObject({ status: 200, success: true, data: [] });
  });

  it('wraps an error in {status, success: false, message, error, docUrl} with no data', async () => {
    const res = await client(app, tenant.test).get('/v1/products/00000000-0000-4000-8000-000000000000');
    expect(res.body).toEqual({ status: 404, success: false, message: expect.any(String), error: 'NOT_FOUND', docUrl: `${app.url}/docs/errors#NOT_FOUND` });
  });

  it('answers an unknown route under /v1 with 404 NOT_FOUND in the envelope', async () => {
    const res = await client(app, tenant.test).get('/v1/unknown');
    expect(res.body).toMatchObject({ status: 404, success: false, error: 'NOT_FOUND' });
  });

  it('puts a request id on every response and keeps a sane one the caller sent', async () => {
    const res = await client(app, tenant.test).get('/v1/products', { 'X-Request-Id': 'req-abc.123' });
    expect(res.headers.get('x-request-id')).toBe('req-abc.123');
    const generated = await client(app, tenant.test).get('/v1/products', { 'X-Request-Id': 'bad id with spaces' });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers /healthz with 200 once ready, without a key', async () => {
    const res = await client(app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'ok' });
  });
});

describe('OpenAPI document', () => {
  let document: any;
  beforeAll(async () => {
    const res = await client(app).get('/api-docs/lending-v1.json');
    expect(res.status).toBe(200);
    document = res.body;
  });

  it('is OpenAPI 3.0.3, served without a key', () => {
    expect(document.openapi).toBe('3.0.3');
  });

  it('names as its server the origin it was fetched from (no PUBLIC_BASE_URL here), not a guessed port', () => {
    expect(document.servers).toEqual([{ url: app.url, description: 'This deployment' }]);
  });

  it('covers every route that exists, with the envelope and the security schemes', () => {
    const documented = Object.entries(document.paths).flatMap(([p, ops]) => Object.keys(ops as object).map((m) => `${m} ${p}`));
    expect(documented.sort()).toEqual(apiRoutes.map((r) => `${r.method} ${r.path}`).sort());
    for (const route of apiRoutes) {
      const op = document.paths[route.path][route.method];
      // Checkout routes (live or, for "text me a new link", expired sessions) take only the borrower-session token; every other route only the key pair.
      // The borrower's own routes take only a borrower-session token.
      const sessionRoute = route.access === 'checkoutSession' || route.access === 'expiredCheckoutSession';
      const borrowerRoute = route.access === 'borrowerSession';
      expect(op.security).toEqual(
        sessionRoute ? [{ CheckoutSession: [] }] : borrowerRoute ? [{ BorrowerSession: [] }] : [{ PublicKey: [], SecretKey: [] }, { ApiKeyAuthorization: [] }],
      );
      expect(op.responses['401']).toBeDefined();
      if (sessionRoute || borrowerRoute) expect(op.responses['403']).toBeDefined();
    }
  });

  it('passes redocly lint', async () => {
    const file = path.join(app.dataDir, 'lending-v1.json');
    fs.writeFileSync(file, JSON.stringify(document));
    const bin = path.resolve('node_modules/.bin/redocly');
    const result = await run(bin, ['lint', file, '--format=stylish'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 60_000,
    }).catch((error) => error);
    expect(result.stdout + result.stderr).toMatch(/valid/i);
    expect(result.code ?? 0).toBe(0);
  }, 90_000);

  it('serves human-readable docs with the renderer from the installed package', async () => {
    const page = await client(app).get('/api-docs');
    expect(page.status).toBe(200);
    expect(page.body).toContain('/api-docs/assets/standalone.js');
    const bundle = await fetch(`${app.url}/api-docs/assets/standalone.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
  });
});

describe('failures', () => {
  it('when the database is gone, then 500 INTERNAL_ERROR names the request id and leaks no detail', async () => {
    const broken = await startTestApp();
    const owner = await createTenant(broken);
    await broken.platform.db.destroy();
    const res = await client(broken, owner.test).get('/v1/products', { 'X-Request-Id': 'req-500-check' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ status: 500, success: false, error: 'INTERNAL_ERROR', message: expect.stringContaining('req-500-check'), docUrl: `${broken.url}/docs/errors#INTERNAL_ERROR` });
    expect(res.body.message).not.toMatch(/select|sqlite|postgres|driver|destroy/i);
    await broken.web.stop();
  });
});
