import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { keyHeaders, startSecondInstance, startTestApp, type KeyPair, type TestApp } from '../support/harness';
import { GOOD_PASSWORD, signedInOwner, type DashboardClient } from '../support/dashboard';

/**
 * The API keys page's routes: list, generate (secret once), roll with an overlap, revoke — seen by every running
 * process. The app runs on a FakeClock (the overlap is moved by hand); the second instance shares the database and the
 * clock but has its own key cache, as another server process would.
 */
const clock = new FakeClock('2026-11-02T08:00:00.000Z');
let app: TestApp;
let second: { url: string; stop(): Promise<void> };

beforeAll(async () => {
  app = await startTestApp({ clock });
  second = await startSecondInstance(app, {}, { clock });
});
afterAll(async () => {
  await second?.stop();
  await app?.stop();
});

async function apiStatus(url: string, key: KeyPair): Promise<number> {
  return (await fetch(`${url}/v1/products`, { headers: keyHeaders(key) })).status;
}

/** Milliseconds until `url` answers `expected` for the key (polling every 25 ms, giving up after 5 s). */
async function msUntil(url: string, key: KeyPair, expected: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 5_000) {
    if ((await apiStatus(url, key)) === expected) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return Number.POSITIVE_INFINITY;
}

async function generate(client: DashboardClient): Promise<{ id: string; publicKey: string; secretKey: string }> {
  const res = await client.post('/keys', {});
  expect(res.status).toBe(201);
  return res.json.data;
}

async function keyRows(client: DashboardClient): Promise<any[]> {
  const res = await client.get('/keys');
  expect(res.status).toBe(200);
  return res.json.data;
}

async function withRole(role: 'admin' | 'developer' | 'analyst') {
  const member = await signedInOwner(app);
  await app.platform.db.updateTable('dashboardMemberships').set({ role }).where('organisationId', '=', member.organisationId).execute();
  return member;
}

async function auditActions(organisationId: string): Promise<string[]> {
  const rows = await app.platform.db.selectFrom('dashboardAuditLog').select('action').where('organisationId', '=', organisationId).orderBy('at').execute();
  return rows.map((r) => r.action);
}

describe('dashboard API keys', { timeout: 60_000 }, () => {
  it('when an owner generates a key, then the secret is answered once (no-store), the list shows it without a secret, and the API accepts it', async () => {
    const owner = await signedInOwner(app);
    const res = await owner.post('/keys', {});
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const key = res.json.data;
    expect(key.publicKey).toMatch(/^pk_test_/);
    expect(key.secretKey).toMatch(/^sk_test_/);

    const rows = await keyRows(owner);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: key.id, publicKey: key.publicKey, mode: 'test', status: 'active', lastUsedAt: null, secretLast4: key.secretKey.slice(-4) });
    expect(JSON.stringify(rows)).not.toContain(key.secretKey);

    expect(await apiStatus(app.url, key)).toBe(200);
    expect(await auditActions(owner.organisationId)).toContain('key_created');
  });

  it('when a key is used, then its last use is recorded (after the answer) and written again only after a minute', async () => {
    const owner = await signedInOwner(app);
    const key = await generate(owner);
    const firstUse = clock.now().toISOString();
    expect(await apiStatus(app.url, key)).toBe(200);
    await expect.poll(async () => (await keyRows(owner))[0].lastUsedAt, { timeout: 2_000 }).toBe(firstUse);

    clock.advance(10_000);
    expect(await apiStatus(app.url, key)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await keyRows(owner))[0].lastUsedAt).toBe(firstUse);

    clock.advance(60_000);
    expect(await apiStatus(app.url, key)).toBe(200);
    await expect.poll(async () => (await keyRows(owner))[0].lastUsedAt, { timeout: 2_000 }).toBe(clock.now().toISOString());
  });

  it('when a key is rolled with a 1 h overlap, then both keys work on every process until the hour ends, then only the new one', async () => {
    const owner = await signedInOwner(app);
    const old = await generate(owner);
    for (const url of [app.url, second.url]) expect(await apiStatus(url, old)).toBe(200);

    const rolled = await owner.post(`/keys/${old.id}/roll`, { overlap: '1h' });
    expect(rolled.status).toBe(201);
    expect(rolled.headers.get('cache-control')).toBe('no-store');
    const fresh = rolled.json.data.issued;
    expect(fresh.secretKey).toMatch(/^sk_test_/);
    const expiresAt = new Date(clock.now().getTime() + 3600_000).toISOString();
    expect(rolled.json.data.previous).toMatchObject({ id: old.id, status: 'expiring', expiresAt, rolledTo: fresh.publicKey });

    const rows = await keyRows(owner);
    expect(rows.map((r: any) => [r.publicKey, r.status])).toEqual([
      [fresh.publicKey, 'active'],
      [old.publicKey, 'expiring'],
    ]);
    // Rolling it again is refused: roll its replacement.
    const again = await owner.post(`/keys/${old.id}/roll`, { overlap: 'now' });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ error: 'key_not_active', data: { status: 'expiring' } });

    for (const url of [app.url, second.url]) {
      expect(await apiStatus(url, old)).toBe(200);
      expect(await apiStatus(url, fresh)).toBe(200);
    }
    clock.advance(3600_000 - 1_000);
    for (const url of [app.url, second.url]) expect(await apiStatus(url, old)).toBe(200);
    clock.advance(1_000);
    for (const url of [app.url, second.url]) {
      expect(await apiStatus(url, old)).toBe(401);
      expect(await apiStatus(url, fresh)).toBe(200);
    }
    expect(await auditActions(owner.organisationId)).toEqual(expect.arrayContaining(['key_created', 'key_rolled']));
    // The session idled out meanwhile; a new one sees the old key expired.
    const signIn = await owner.post('/sign-in', { email: owner.email, password: GOOD_PASSWORD });
    owner.csrf = signIn.json.data.csrfToken;
    expect((await keyRows(owner)).find((r: any) => r.id === old.id).status).toBe('expired');
  });

  it('when a key is rolled with overlap now, then the old key is refused at once on both processes', async () => {
    const owner = await signedInOwner(app);
    const old = await generate(owner);
    for (const url of [app.url, second.url]) expect(await apiStatus(url, old)).toBe(200);
    const rolled = await owner.post(`/keys/${old.id}/roll`, { overlap: 'now' });
    expect(rolled.status).toBe(201);
    expect(await apiStatus(app.url, old)).toBe(401);
    expect(await msUntil(second.url, old, 401)).toBeLessThan(1_000);
    expect(await apiStatus(second.url, rolled.json.data.issued)).toBe(200);
  });

  it('when a key is revoked, then both processes refuse it within 1 s, its status is revoked, and revoking again changes nothing', async () => {
    const owner = await signedInOwner(app);
    const key = await generate(owner);
    const other = await generate(owner);
    for (const url of [app.url, second.url]) expect(await apiStatus(url, key)).toBe(200);

    const revoked = await owner.post(`/keys/${key.id}/revoke`, {});
    expect(revoked.status).toBe(200);
    expect(revoked.json.data).toMatchObject({ id: key.id, status: 'revoked' });
    const [first, other2] = await Promise.all([msUntil(app.url, key, 401), msUntil(second.url, key, 401)]);
    expect(first).toBeLessThan(1_000);
    expect(other2).toBeLessThan(1_000);
    expect(await apiStatus(second.url, other)).toBe(200);

    expect((await owner.post(`/keys/${key.id}/revoke`, {})).status).toBe(200);
    expect((await auditActions(owner.organisationId)).filter((a) => a === 'key_revoked')).toHaveLength(1);
    const roll = await owner.post(`/keys/${key.id}/roll`, { overlap: '1h' });
    expect(roll.json).toMatchObject({ error: 'key_not_active', data: { status: 'revoked' } });
  });

  it('when a developer manages keys (restricted to scopes the role may grant), then it is allowed; when an analyst tries to list, generate, roll or revoke, then 403 and nothing changes', async () => {
    const developer = await withRole('developer');
    const made = await developer.post('/keys', { scopes: ['products:read', 'webhooks:write'] });
    expect(made.status).toBe(201);
    const key = made.json.data;
    expect(await keyRows(developer)).toHaveLength(1);
    expect((await developer.post(`/keys/${key.id}/roll`, { overlap: '1h' })).status).toBe(201);

    const admin = await withRole('admin');
    expect((await admin.post('/keys', {})).status).toBe(201);

    const analyst = await withRole('analyst');
    // An analyst's organisation has a key made before the role change (by the operator here).
    const [existing] = await app.platform.db.selectFrom('apiKeys').select('id').where('organisationId', '=', developer.organisationId).execute();
    for (const [method, path] of [
      ['GET', '/keys'],
      ['POST', '/keys'],
      ['POST', `/keys/${existing!.id}/roll`],
      ['POST', `/keys/${existing!.id}/revoke`],
    ] as const) {
      const res = await analyst.send(method, path, path.endsWith('roll') ? { overlap: 'now' } : {});
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.json).toMatchObject({ error: 'dashboard_permission_denied', data: { role: 'analyst' } });
    }
    expect(await app.platform.db.selectFrom('apiKeys').select('id').where('organisationId', '=', analyst.organisationId).execute()).toHaveLength(0);
    expect(await apiStatus(app.url, key)).toBe(200);
  });

  it('when a state-changing key route comes without X-CSRF-Token, then 403 csrf_token_invalid and nothing changes', async () => {
    const owner = await signedInOwner(app);
    const key = await generate(owner);
    for (const [path, body] of [
      ['/keys', {}],
      [`/keys/${key.id}/roll`, { overlap: 'now' }],
      [`/keys/${key.id}/revoke`, {}],
    ] as const) {
      const res = await owner.post(path, body, { 'x-csrf-token': '' });
      expect(res.status, path).toBe(403);
      expect(res.json.error).toBe('csrf_token_invalid');
    }
    const rows = await keyRows(owner);
    expect(rows.map((r: any) => [r.id, r.status])).toEqual([[key.id, 'active']]);
  });

  it('when another organisation names a key, then it does not exist (404) and is not listed', async () => {
    const owner = await signedInOwner(app);
    const intruder = await signedInOwner(app);
    const key = await generate(owner);
    expect(await keyRows(intruder)).toEqual([]);
    for (const [path, body] of [
      [`/keys/${key.id}/roll`, { overlap: 'now' }],
      [`/keys/${key.id}/revoke`, {}],
    ] as const) {
      const res = await intruder.post(path, body);
      expect(res.status, path).toBe(404);
      expect(res.json.error).toBe('NOT_FOUND');
    }
    expect(await apiStatus(app.url, key)).toBe(200);
  });

  it('when the organisation is live-enabled, then live keys and test keys are separate lists and a key of the other mode does not exist', async () => {
    const owner = await signedInOwner(app);
    owner.mode = 'live';
    expect((await owner.post('/keys', {})).json.error).toBe('LIVE_MODE_NOT_ENABLED');
    await app.platform.db.updateTable('organisations').set({ liveEnabled: app.platform.dialect === 'postgres' ? (true as never) : (1 as never) }).where('id', '=', owner.organisationId).execute();
    app.platform.authenticator.invalidate();
    const live = await generate(owner);
    expect(live.publicKey).toMatch(/^pk_live_/);
    owner.mode = 'test';
    const test = await generate(owner);
    expect((await keyRows(owner)).map((r: any) => r.id)).toEqual([test.id]);
    expect((await owner.post(`/keys/${live.id}/revoke`, {})).status).toBe(404);
    owner.mode = 'live';
    expect((await keyRows(owner)).map((r: any) => [r.id, r.mode])).toEqual([[live.id, 'live']]);
  });

  it('when the input is bad, then 400 invalid_request and nothing changes', async () => {
    const owner = await signedInOwner(app);
    const key = await generate(owner);
    for (const [path, body] of [
      [`/keys/${key.id}/roll`, { overlap: '2h' }],
      [`/keys/${key.id}/roll`, {}],
      ['/keys', { mode: 'live' }],
      [`/keys/${key.id}/revoke`, { extra: true }],
    ] as const) {
      const res = await owner.post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json.error).toBe('invalid_request');
    }
    expect((await owner.get('/keys?limit=0')).status).toBe(400);
    expect((await keyRows(owner)).map((r: any) => [r.id, r.status])).toEqual([[key.id, 'active']]);
  });

  it('when there are more keys than a page, then the cursor walks them newest first without repeats', async () => {
    const owner = await signedInOwner(app);
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      made.push((await generate(owner)).id);
      clock.advance(1_000);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await owner.get(`/keys?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...res.json.data.map((r: any) => r.id));
      cursor = res.json.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
  });
});
