import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type KeyPair, type TestApp, startTestApp } from '../support/harness';
import { lendingTenant, offeredLoan, type LendingTenant } from '../support/lifecycle';
import { memberOf } from '../support/dashboard-members';
import type { DashboardClient } from '../support/dashboard';

/**
 * Restricted API keys: a key made on the dashboard carries scopes per area of the partner API, a route refuses a key
 * without its scope before anything is read or written, and a member only makes keys their role could act as.
 */
let app: TestApp;
let tenant: LendingTenant;
let owner: DashboardClient & { organisationId: string };
let developer: DashboardClient & { organisationId: string };

beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
  owner = await memberOf(app, tenant.organisationId, 'owner', 'owner');
  developer = await memberOf(app, tenant.organisationId, 'developer', 'developer');
});
afterAll(() => app?.stop());

async function keyCount(): Promise<number> {
  return (await app.platform.db.selectFrom('apiKeys').select('id').where('organisationId', '=', tenant.organisationId).execute()).length;
}

async function auditTargets(action: string): Promise<string[]> {
  const rows = await app.platform.db.selectFrom('dashboardAuditLog').select('target').where('organisationId', '=', tenant.organisationId).where('action', '=', action).execute();
  return rows.map((r) => r.target ?? '');
}

async function eventCount(): Promise<number> {
  return (await app.platform.db.selectFrom('events').select('id').where('organisationId', '=', tenant.organisationId).execute()).length;
}

async function makeKey(member: DashboardClient, scopes?: string[]): Promise<KeyPair & { id: string; scopes: string[] | null }> {
  const res = await member.post('/keys', scopes ? { scopes } : {});
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json.data;
}

describe('restricted API keys', { timeout: 60_000 }, () => {
  it("when a developer's key without loans:write cancels a loan, then 403 insufficient_scope names loans:write and the loan is unchanged", async () => {
    const key = await makeKey(developer, ['loans:read', 'webhooks:write']);
    const { loan } = await offeredLoan(app, tenant);
    const full = client(app, tenant.test);
    const before = (await full.get(`/v1/loans/${loan.id}`)).body.data;
    const events = await eventCount();

    const refused = await client(app, key).post(`/v1/loans/${loan.id}/cancel`, { reason: 'not wanted' }, { 'Idempotency-Key': `cancel-${loan.id}` });

    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, error: 'insufficient_scope', data: { requiredScope: 'loans:write' } });
    expect(refused.body.message).toContain('loans:write');
    expect(refused.body.docUrl).toBe(`${app.url}/docs/errors#insufficient_scope`);
    expect((await full.get(`/v1/loans/${loan.id}`)).body.data).toEqual(before);
    expect(before.status).not.toBe('cancelled');
    expect(await eventCount()).toBe(events);
    // The refusal is not an idempotent outcome either: no key was claimed.
    expect(await app.platform.db.selectFrom('idempotencyKeys').select('id').where('apiKeyId', '=', key.id).execute()).toEqual([]);
  });

  it('when the same key reads loans with loans:read, then it may; another area it does not hold answers 403 with that area\'s scope', async () => {
    const key = await makeKey(developer, ['loans:read', 'webhooks:write']);
    const { loan } = await offeredLoan(app, tenant);
    const api = client(app, key);

    expect((await api.get(`/v1/loans/${loan.id}`)).status).toBe(200);
    const list = await api.get('/v1/loans');
    expect(list.status).toBe(200);
    expect(list.body.data.map((l: { id: string }) => l.id)).toContain(loan.id);
    // webhooks:write includes webhooks:read.
    expect((await api.get('/v1/webhook-endpoints')).status).toBe(200);

    const products = await api.get('/v1/products');
    expect(products.status).toBe(403);
    expect(products.body).toMatchObject({ error: 'insufficient_scope', data: { requiredScope: 'products:read' } });
    const payout = await api.get('/v1/payouts');
    expect(payout.body).toMatchObject({ error: 'insufficient_scope', data: { requiredScope: 'payouts:read' } });
  });

  it('when a developer asks for a full-access key or one with loans:write, then 403 scope_not_permitted names the scopes and nothing is created', async () => {
    const keys = await keyCount();
    const created = (await auditTargets('key_created')).length;

    const fullAccess = await developer.post('/keys', {});
    expect(fullAccess.status).toBe(403);
    expect(fullAccess.json).toMatchObject({ error: 'scope_not_permitted', data: { role: 'developer' } });
    expect(fullAccess.json.data.scopes).toEqual(expect.arrayContaining(['loans:write', 'payouts:write', 'products:write']));
    expect(fullAccess.json.data.scopes).not.toContain('loans:read');

    const loansWrite = await developer.post('/keys', { scopes: ['loans:read', 'loans:write', 'webhooks:write'] });
    expect(loansWrite.status).toBe(403);
    expect(loansWrite.json).toMatchObject({ error: 'scope_not_permitted', data: { role: 'developer', scopes: ['loans:write'] } });
    expect(loansWrite.json.message).toContain('loans:write');

    expect(await keyCount()).toBe(keys);
    expect((await auditTargets('key_created')).length).toBe(created);
  });

  it("when a developer rolls an owner's full-access key, then 403 scope_not_permitted: the key stays active and no secret is handed out", async () => {
    const ownersKey = await makeKey(owner);
    const keys = await keyCount();

    const rolled = await developer.post(`/keys/${ownersKey.id}/roll`, { overlap: 'now' });

    expect(rolled.status).toBe(403);
    expect(rolled.json.error).toBe('scope_not_permitted');
    expect(JSON.stringify(rolled.json)).not.toMatch(/sk_test_/);
    expect(await keyCount()).toBe(keys);
    const row = (await owner.get('/keys')).json.data.find((k: { id: string }) => k.id === ownersKey.id);
    expect(row.status).toBe('active');
    expect((await client(app, ownersKey).get('/v1/products')).status).toBe(200);
  });

  it("when an owner generates a key without scopes, then it is full access, listed and audited as such, and works in every area", async () => {
    const key = await makeKey(owner);
    expect(key.scopes).toBeNull();
    const row = (await owner.get('/keys')).json.data.find((k: { id: string }) => k.id === key.id);
    expect(row.scopes).toBeNull();
    expect(await auditTargets('key_created')).toContain(`api_key:${key.publicKey} scopes:full_access`);

    const api = client(app, key);
    for (const path of ['/v1/products', '/v1/preapprovals', '/v1/loans', '/v1/payouts', '/v1/pools/balance', '/v1/settlements', '/v1/webhook-endpoints', '/v1/events', '/v1/usage', '/v1/checkout-settings', '/api/v1/sdk/webhook-endpoints', '/api/v1/sdk/events', '/api/v1/appointment/organisation']) {
      const res = await api.get(path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const { loan } = await offeredLoan(app, tenant);
    const cancelled = await api.post(`/v1/loans/${loan.id}/cancel`, { reason: 'not wanted' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.data.status).toBe('cancelled');
  });

  it('when an owner makes a restricted key with loans:write, then it reads and cancels loans (write includes read) and nothing else; a roll keeps its scopes', async () => {
    const key = await makeKey(owner, ['loans:write', 'loans:read']);
    expect(key.scopes).toEqual(['loans:write']);
    expect(await auditTargets('key_created')).toContain(`api_key:${key.publicKey} scopes:loans:write`);
    const { loan } = await offeredLoan(app, tenant);
    const api = client(app, key);
    expect((await api.get(`/v1/loans/${loan.id}`)).status).toBe(200);
    expect((await api.post(`/v1/loans/${loan.id}/cancel`, { reason: 'not wanted' })).status).toBe(200);
    expect((await api.get('/v1/events')).body).toMatchObject({ error: 'insufficient_scope', data: { requiredScope: 'events:read' } });

    const rolled = await owner.post(`/keys/${key.id}/roll`, { overlap: 'now' });
    expect(rolled.status).toBe(201);
    expect(rolled.json.data.issued.scopes).toEqual(['loans:write']);
    const fresh = client(app, rolled.json.data.issued);
    expect((await fresh.get('/v1/loans')).status).toBe(200);
    expect((await fresh.get('/v1/products')).body.data).toEqual({ requiredScope: 'products:read' });
  });

  it('when a developer makes a key with scopes their role may grant, then it is created with exactly those and the audit names them', async () => {
    const key = await makeKey(developer, ['webhooks:write', 'events:write', 'loans:read', 'settlements:read']);
    expect(key.scopes).toEqual(['events:write', 'loans:read', 'settlements:read', 'webhooks:write']);
    const row = (await developer.get('/keys')).json.data.find((k: { id: string }) => k.id === key.id);
    expect(row.scopes).toEqual(key.scopes);
    expect(await auditTargets('key_created')).toContain(`api_key:${key.publicKey} scopes:events:write,loans:read,settlements:read,webhooks:write`);
  });

  it('when scopes are empty or unknown, then 400 names the scopes field and nothing is created', async () => {
    const keys = await keyCount();
    for (const scopes of [[], ['loans:admin'], ['everything']]) {
      const res = await owner.post('/keys', { scopes });
      expect(res.status, JSON.stringify(scopes)).toBe(400);
      expect(res.json.message, JSON.stringify(scopes)).toMatch(/^body\.scopes/);
    }
    expect((await owner.post('/keys', { scopes: [] })).json.message).toContain('choose at least one scope');
    expect(await keyCount()).toBe(keys);
  });
});
