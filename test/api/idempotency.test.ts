import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { claimIdempotencyKey, sealLegacyIdempotencyResponses } from '../../server/platform/http/idempotency';
import { newId } from '../../server/platform/domain/ids';
import { lendingTenant, offeredLoan } from '../support/lifecycle';
import { client, createTenant, pushBody, startTestApp, type Tenant, type TestApp } from '../support/harness';

let app: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await createTenant(app);
});
afterAll(() => app.stop());

const keyHeader = (key: string) => ({ 'Idempotency-Key': key });
const uniqueKey = () => `idem-${Math.random().toString(36).slice(2)}`;

async function apiKeyId(publicKey: string): Promise<string> {
  const row = await app.platform.db.selectFrom('apiKeys').select('id').where('publicKey', '=', publicKey).executeTakeFirstOrThrow();
  return row.id;
}

/** Claims a key the way the request runner does, as if a request with it were in flight. */
async function claim(key: string, body: unknown, options: { method?: string; path?: string; at?: Date } = {}) {
  return claimIdempotencyKey(app.platform.db, app.platform.secrets, {
    apiKeyId: await apiKeyId(tenant.test.publicKey),
    key,
    method: options.method ?? 'POST',
    path: options.path ?? '/v1/preapprovals',
    body,
    now: options.at ?? new Date(),
    ttlHours: 24,
    lockTimeoutSeconds: 60,
  });
}

async function eventCount(organisationId: string): Promise<number> {
  const rows = await app.platform.db.selectFrom('events').select('id').where('organisationId', '=', organisationId).execute();
  return rows.length;
}

describe('Idempotency-Key', () => {
  it('when a request is replayed with the same key, then the stored response comes back with Idempotent-Replayed: true', async () => {
    const api = client(app, tenant.test);
    const key = uniqueKey();
    const body = pushBody();
    const first = await api.post('/v1/preapprovals', body, keyHeader(key));
    const events = await eventCount(tenant.organisationId);
    const replay = await api.post('/v1/preapprovals', body, keyHeader(key));
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await eventCount(tenant.organisationId)).toBe(events);
  });

  it.each([
    ['another path', 'POST', '/v1/preapprovals/00000000-0000-4000-8000-000000000000/issue-offer'],
    ['another method', 'PATCH', '/v1/preapprovals'],
  ])('when the key is reused on %s, then 409 IDEMPOTENCY_KEY_CONFLICT', async (_name, method, path) => {
    const key = uniqueKey();
    const body = pushBody();
    await client(app, tenant.test).post('/v1/preapprovals', body, keyHeader(key));
    await expect(claim(key, body, { method, path })).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_CONFLICT', status: 409 });
  });

  it('when the key is reused with a different body, then 409 IDEMPOTENCY_KEY_CONFLICT and nothing is written', async () => {
    const api = client(app, tenant.test);
    const key = uniqueKey();
    await api.post('/v1/preapprovals', pushBody(), keyHeader(key));
    const before = await eventCount(tenant.organisationId);
    const second = await api.post('/v1/preapprovals', pushBody(), keyHeader(key));
    expect(second.status).toBe(409);
    expect(second.body.error).toBe('IDEMPOTENCY_KEY_CONFLICT');
    expect(await eventCount(tenant.organisationId)).toBe(before);
  });

  it('scopes keys to the credential: the same key from another key pair executes separately', async () => {
    const other = await createTenant(app);
    const key = uniqueKey();
    const a = await client(app, tenant.test).post('/v1/preapprovals', pushBody(), keyHeader(key));
    const b = await client(app, other.test).post('/v1/preapprovals', pushBody(), keyHeader(key));
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
  });

  it('stores a 4xx outcome: the same bad request with the same key gets the same answer, replayed', async () => {
    const api = client(app, tenant.test);
    const key = uniqueKey();
    const body = pushBody({ amount: '12.345' });
    const first = await api.post('/v1/preapprovals', body, keyHeader(key));
    const replay = await api.post('/v1/preapprovals', body, keyHeader(key));
    expect(first.status).toBe(422);
    expect(replay.status).toBe(422);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('when the first request is still in flight, then a replay answers 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const key = uniqueKey();
    const body = pushBody();
    await claim(key, body);
    const res = await client(app, tenant.test).post('/v1/preapprovals', body, keyHeader(key));
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('IDEMPOTENCY_KEY_IN_USE');
  });

  it('when an in-flight claim is older than the lock timeout (a crashed request), then the next request executes', async () => {
    const key = uniqueKey();
    const body = pushBody();
    await claim(key, body, { at: new Date(Date.now() - 10 * 60_000) });
    const res = await client(app, tenant.test).post('/v1/preapprovals', body, keyHeader(key));
    expect(res.status).toBe(202);
  });

  it('rejects a key longer than 255 characters with 400', async () => {
    const res = await client(app, tenant.test).post('/v1/preapprovals', pushBody(), keyHeader('k'.repeat(256)));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('when many requests race with one key, then exactly one executes and the rest are replays or 409 in flight', async () => {
    const api = client(app, tenant.test);
    const key = uniqueKey();
    const body = pushBody();
    const responses = await Promise.all(Array.from({ length: 12 }, () => api.post('/v1/preapprovals', body, keyHeader(key))));
    const executed = responses.filter((r) => r.status === 202 && r.headers.get('idempotent-replayed') === null);
    const replayed = responses.filter((r) => r.headers.get('idempotent-replayed') === 'true');
    const inFlight = responses.filter((r) => r.status === 409 && r.body.error === 'IDEMPOTENCY_KEY_IN_USE');
    expect(executed).toHaveLength(1);
    expect(replayed.length + inFlight.length).toBe(11);
    for (const r of replayed) expect(r.body).toEqual(executed[0]!.body);
    const stored = await app.platform.db
      .selectFrom('idempotencyKeys')
      .select(['state', 'responseStatus'])
      .where('idempotencyKey', '=', key)
      .execute();
    expect(stored).toEqual([{ state: 'completed', responseStatus: 202 }]);
  });

  it('keeps keys for at least 24 hours', async () => {
    const key = uniqueKey();
    await client(app, tenant.test).post('/v1/preapprovals', pushBody(), keyHeader(key));
    const row = await app.platform.db
      .selectFrom('idempotencyKeys')
      .select(['createdAt', 'expiresAt'])
      .where('idempotencyKey', '=', key)
      .executeTakeFirstOrThrow();
    expect(new Date(row.expiresAt).getTime() - new Date(row.createdAt).getTime()).toBeGreaterThanOrEqual(24 * 3600_000);
  });
});

describe('at rest (security finding: stored replays held signing secrets and checkout tokens in clear)', () => {
  const rawRow = async (key: string) =>
    app.platform.db.selectFrom('idempotencyKeys').selectAll().where('idempotencyKey', '=', key).executeTakeFirstOrThrow();

  /** The response exactly as the server sent it, and whether it was a replay. */
  async function rawPost(path: string, body: unknown, key: string, pair = tenant.test) {
    const res = await fetch(`${app.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-public-key': pair.publicKey, 'x-api-secret-key': pair.secretKey, 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    return { status: res.status, text: await res.text(), replayed: res.headers.get('idempotent-replayed') };
  }

  it('when a webhook endpoint is registered with a key, then the stored row holds no signing secret and the replay returns the identical body', async () => {
    const key = uniqueKey();
    const first = await rawPost('/v1/webhook-endpoints', { url: 'https://hooks.example.com/idem' }, key);
    expect(first.status).toBe(201);
    const secret = JSON.parse(first.text).data.signingSecret as string;
    expect(secret).toMatch(/^whsec_/);
    const row = await rawRow(key);
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(JSON.stringify(row)).not.toContain('whsec_');
    expect(row.responseBody).toMatch(/^sealed:/);
    const replay = await rawPost('/v1/webhook-endpoints', { url: 'https://hooks.example.com/idem' }, key);
    expect(replay).toEqual({ status: 201, text: first.text, replayed: 'true' });
  });

  it('when a checkout session is minted with a key, then the stored row holds no cs_ token and the replay returns the identical body', async () => {
    const lender = await lendingTenant(app);
    const { loan } = await offeredLoan(app, lender);
    const key = uniqueKey();
    const first = await rawPost(`/v1/loans/${loan.id}/checkout-sessions`, {}, key, lender.test);
    expect(first.status).toBe(201);
    const token = JSON.parse(first.text).data.token as string;
    expect(token).toMatch(/^cs_test_/);
    const row = await rawRow(key);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toMatch(/cs_test_/);
    const replay = await rawPost(`/v1/loans/${loan.id}/checkout-sessions`, {}, key, lender.test);
    expect(replay).toEqual({ status: 201, text: first.text, replayed: 'true' });
  });

  it('keys the request fingerprint: a stored hash of a KYC-like body is not the plain SHA-256 anyone could recompute', async () => {
    const key = uniqueKey();
    const body = pushBody();
    await rawPost('/v1/preapprovals', body, key);
    const row = await rawRow(key);
    expect(row.requestHash).not.toBe(crypto.createHash('sha256').update(JSON.stringify(body)).digest('hex'));
    expect(row.requestHash).toMatch(/^hmac:[0-9a-f]{64}$/);
  });

  it('a row stored in clear before sealing still replays, and the start-up step seals it without changing the replay', async () => {
    const apiKey = await apiKeyId(tenant.test.publicKey);
    const key = uniqueKey();
    const body = pushBody();
    const stored = JSON.stringify({ status: 202, success: true, message: 'legacy', data: { secret: 'whsec_legacylegacylegacy' } });
    const now = new Date();
    await app.platform.db
      .insertInto('idempotencyKeys')
      .values({
        id: newId(),
        apiKeyId: apiKey,
        idempotencyKey: key,
        method: 'POST',
        path: '/v1/preapprovals',
        requestHash: crypto.createHash('sha256').update(JSON.stringify(body)).digest('hex'),
        state: 'completed',
        responseStatus: 202,
        responseBody: stored,
        lockedAt: now.toISOString(),
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + 3600_000).toISOString(),
      })
      .execute();
    const before = await rawPost('/v1/preapprovals', body, key);
    expect(before).toEqual({ status: 202, text: stored, replayed: 'true' });

    expect(await sealLegacyIdempotencyResponses(app.platform.db, app.platform.secrets)).toBeGreaterThanOrEqual(1);
    const row = await rawRow(key);
    expect(row.responseBody).toMatch(/^sealed:/);
    expect(row.responseBody).not.toContain('whsec_');
    expect(await sealLegacyIdempotencyResponses(app.platform.db, app.platform.secrets)).toBe(0);
    expect(await rawPost('/v1/preapprovals', body, key)).toEqual({ status: 202, text: stored, replayed: 'true' });
  });
});

describe('retention', () => {
  it('purges keys only once they are past their retention', async () => {
    const { purgeExpiredIdempotencyKeys } = await import('../../server/platform/http/idempotency');
    const key = uniqueKey();
    await client(app, tenant.test).post('/v1/preapprovals', pushBody(), keyHeader(key));
    const count = async () =>
      (await app.platform.db.selectFrom('idempotencyKeys').select('id').where('idempotencyKey', '=', key).execute()).length;
    await purgeExpiredIdempotencyKeys(app.platform.db, new Date(Date.now() + 23 * 3600_000));
    expect(await count()).toBe(1);
    await purgeExpiredIdempotencyKeys(app.platform.db, new Date(Date.now() + 25 * 3600_000));
    expect(await count()).toBe(0);
  });
});
