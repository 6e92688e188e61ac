import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTenant, startTestApp, type Tenant, type TestApp } from '../support/harness';
import { signingSecrets } from '../../server/platform/domain/webhooks/endpoint';

let app: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await createTenant(app);
});
afterAll(() => app.stop());

const api = () => client(app, tenant.test);

describe('webhook endpoints', () => {
  it('registers an endpoint (201) and shows the whsec_ secret once, stored encrypted', async () => {
    const res = await api().post('/v1/webhook-endpoints', { url: 'https://partner.example/hooks', description: 'main', events: ['loan.approved', 'loan.approved'] });
    expect(res.status).toBe(201);
    expect(res.body.data.signingSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(res.body.data.endpoint).toMatchObject({ url: 'https://partner.example/hooks', events: ['loan.approved'], mode: 'test', status: 'active', consecutiveFails: 0 });
    const row = await app.platform.db.selectFrom('webhookEndpoints').selectAll().where('id', '=', res.body.data.endpoint.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(res.body.data.signingSecret);
    const listed = await api().get('/v1/webhook-endpoints');
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    expect((await api().get(`/v1/webhook-endpoints/${res.body.data.endpoint.id}`)).body.data).toEqual(res.body.data.endpoint);
  });

  it.each([
    ['plain http to a public host', { url: 'http://partner.example/hooks', mode: 'test' }],
    ['a live endpoint from a test key', { url: 'https://partner.example/hooks', mode: 'live' }],
    ['a URL over 512 characters', { url: `https://partner.example/${'x'.repeat(520)}` }],
    ['a description over 255 characters', { url: 'https://partner.example/h', description: 'd'.repeat(256) }],
    ['an unknown mode', { url: 'https://partner.example/h', mode: 'staging' }],
  ])('refuses %s with 400', async (_name, body) => {
    const res = await api().post('/v1/webhook-endpoints', body);
    expect(res.status).toBe(400);
  });

  it('allows plain http to loopback for a test-mode endpoint, never for a live one', async () => {
    const res = await api().post('/v1/webhook-endpoints', { url: 'http://127.0.0.1:4000/hooks', mode: 'test' });
    expect(res.status).toBe(201);
    const live = await client(app, tenant.live).post('/v1/webhook-endpoints', { url: 'http://127.0.0.1:4000/hooks' });
    expect(live.status).toBe(400);
    const liveHttps = await client(app, tenant.live).post('/v1/webhook-endpoints', { url: 'https://partner.example/live' });
    expect(liveHttps.body.data.endpoint.mode).toBe('live');
    expect((await api().get('/v1/webhook-endpoints')).body.data.every((e: { mode: string }) => e.mode === 'test')).toBe(true);
  });

  it('with WEBHOOK_ALLOW_LOOPBACK (development) accepts localhost as it does 127.0.0.1, and still refuses internal names', async () => {
    for (const url of ['http://localhost:4000/hooks', 'https://LOCALHOST./hooks', 'https://dev.localhost/hooks']) {
      const res = await api().post('/v1/webhook-endpoints', { url });
      expect(res.status, url).toBe(201);
    }
    for (const url of ['https://metadata.google.internal/x', 'https://printer.local/x', 'https://nas.home.arpa/x', 'https://hooks.test/x']) {
      const res = await api().post('/v1/webhook-endpoints', { url });
      expect(res.status, url).toBe(422);
      expect(res.body.error).toBe('webhook_url_not_allowed');
    }
  });

  it('updates, disables and re-enables (resetting the failure count), and deletes', async () => {
    const { endpoint } = (await api().post('/v1/webhook-endpoints', { url: 'https://partner.example/a' })).body.data;
    await app.platform.db.updateTable('webhookEndpoints').set({ consecutiveFails: 7, status: 'disabled' }).where('id', '=', endpoint.id).execute();
    const patched = await api().call('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { url: 'https://partner.example/b', events: [], status: 'active' } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ url: 'https://partner.example/b', events: null, status: 'active', consecutiveFails: 0 });
    const bad = await api().call('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { url: 'http://partner.example/b' } });
    expect(bad.status).toBe(400);
    const stranger = await createTenant(app);
    expect((await client(app, stranger.test).call('DELETE', `/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    expect((await client(app, stranger.test).call('PATCH', `/v1/webhook-endpoints/${endpoint.id}`, { body: { status: 'disabled' } })).status).toBe(404);
    const deleted = await api().call('DELETE', `/v1/webhook-endpoints/${endpoint.id}`);
    expect(deleted.status).toBe(200);
    expect((await api().get(`/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
  });

  it('rotates the secret: a new one shown once, the old one still signing for 24 hours', async () => {
    const created = (await api().post('/v1/webhook-endpoints', { url: 'https://partner.example/r' })).body.data;
    const rotated = await api().post(`/v1/webhook-endpoints/${created.endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.signingSecret).not.toBe(created.signingSecret);
    const row = await app.platform.db.selectFrom('webhookEndpoints').selectAll().where('id', '=', created.endpoint.id).executeTakeFirstOrThrow();
    const now = new Date();
    expect(signingSecrets(app.platform.secrets, row, now)).toEqual([rotated.body.data.signingSecret, created.signingSecret]);
    expect(signingSecrets(app.platform.secrets, row, new Date(now.getTime() + 25 * 3600_000))).toEqual([rotated.body.data.signingSecret]);
  });
});
