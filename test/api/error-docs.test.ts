import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';

/** A GET with a chosen Host header (fetch does not let a caller set it). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    request.on('error', reject);
  });
}

describe('error answers link the error reference', () => {
  let app: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    app = await startTestApp();
    tenant = await createTenant(app);
  });
  afterAll(() => app?.stop());

  it('when PUBLIC_BASE_URL is not set, then docUrl is on the origin the request was sent to, and the link opens its entry', async () => {
    const res = await client(app).get('/v1/products');
    expect(res.status).toBe(401);
    expect(res.body.docUrl).toBe(`${app.url}/docs/errors#UNAUTHENTICATED`);

    const page = await fetch(res.body.docUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(await page.text()).toContain('<tr id="UNAUTHENTICATED">');
  });

  it('when the request names another host, then docUrl follows it; a Host that is not a plain host name falls back to the server\'s own base', async () => {
    const port = new URL(app.url).port;
    const named = await getWithHost(`${app.url}/v1/products`, `localhost:${port}`);
    expect(named.body.docUrl).toBe(`http://localhost:${port}/docs/errors#UNAUTHENTICATED`);
    const odd = await getWithHost(`${app.url}/v1/products`, 'evil.example/path?x=');
    expect(odd.body.docUrl).toBe(`${app.platform.baseUrl}/docs/errors#UNAUTHENTICATED`);
  });

  it('a route\'s refusal, a validation error and an idempotent replay of it all carry the docUrl of their code', async () => {
    const api = client(app, tenant.test);
    const missing = await api.get('/v1/loans/00000000-0000-4000-8000-000000000000');
    expect(missing.body).toMatchObject({ error: 'NOT_FOUND', docUrl: `${app.url}/docs/errors#NOT_FOUND` });
    const badId = await api.get('/v1/loans/not-a-uuid');
    expect(badId.body).toMatchObject({ error: 'INVALID_ID', docUrl: `${app.url}/docs/errors#INVALID_ID` });
    const first = await api.post('/v1/preapprovals', { nonsense: true }, { 'Idempotency-Key': 'error-docs-replay' });
    expect(first.status).toBeGreaterThanOrEqual(400);
    expect(first.body.docUrl).toBe(`${app.url}/docs/errors#${first.body.error}`);
    const replay = await api.post('/v1/preapprovals', { nonsense: true }, { 'Idempotency-Key': 'error-docs-replay' });
    expect(replay.body).toEqual(first.body);
  });

  it('a dashboard API refusal carries it too', async () => {
    const res = await client(app).get('/dashboard/api/session');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: 'session_required', docUrl: `${app.url}/docs/errors#session_required` });
  });
});

describe('with PUBLIC_BASE_URL', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { PUBLIC_BASE_URL: 'https://lending.example/' } });
  });
  afterAll(() => app?.stop());

  it('docUrl is on PUBLIC_BASE_URL whatever the request\'s host', async () => {
    const res = await client(app).get('/v1/products');
    expect(res.body.docUrl).toBe('https://lending.example/docs/errors#UNAUTHENTICATED');
  });
});
