import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimIdempotencyKey } from '../../server/platform/http/idempotency';
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
  return claimIdempotencyKey(app.platform.db, {
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
