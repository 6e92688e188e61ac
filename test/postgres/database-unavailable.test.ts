import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { keyHeaders, pushBody, startSecondInstance, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';
import { startPostgresProxy } from '../support/postgres-proxy';

/**
 * PostgreSQL unreachable (restarting, a cut network): the API answers 503 `database_unavailable`
 * with Retry-After, never 500, and a write sent again with the same Idempotency-Key once the
 * database is back runs once. The instance under test reaches the database through a loopback
 * proxy the test cuts; the test app seeds and reads directly.
 */
let app: TestApp;
let tenant: LendingTenant;
let proxy: Awaited<ReturnType<typeof startPostgresProxy>>;
let instance: Awaited<ReturnType<typeof startSecondInstance>>;

beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
  const target = new URL(process.env.TEST_DATABASE_URL!);
  proxy = await startPostgresProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const viaProxy = new URL(app.env.DATABASE_URL!);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  instance = await startSecondInstance(app, { DATABASE_URL: viaProxy.toString() });
}, 60_000);
afterAll(async () => {
  await instance?.stop();
  await app?.stop();
  await proxy?.cut();
});

const call = (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
  fetch(`${instance.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...keyHeaders(tenant.test), 'content-type': 'application/json', ...(init.key ? { 'Idempotency-Key': init.key } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

describe('the database unavailable', () => {
  it('answers 503 database_unavailable with Retry-After, changes nothing, and the same key runs once when it is back', async () => {
    // The key is known to the instance (its credential cache), so the refusal comes from the request's own work.
    expect((await call('/v1/products')).status).toBe(200);
    const body = pushBody();
    await proxy.cut();

    const write = await call('/v1/preapprovals', { method: 'POST', body, key: 'outage-1' });
    expect(write.status).toBe(503);
    expect(write.headers.get('retry-after')).toBe('1');
    expect(await write.json()).toMatchObject({ success: false, error: 'SERVICE_UNAVAILABLE', data: { reason: 'database_unavailable' } });
    const read = await call('/v1/loans');
    expect(read.status).toBe(503);
    expect(await read.json()).toMatchObject({ error: 'SERVICE_UNAVAILABLE', data: { reason: 'database_unavailable' } });

    const assessment = body.decision.metadata.assessment_id;
    const count = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from preapprovals where assessment_id = ${assessment}`.execute(app.platform.db)).rows[0]!.n);
    expect(await count()).toBe(0);

    await proxy.restore();
    // The pool's broken connections are dropped and new ones made: the same request, the same key, runs once.
    const retried = await call('/v1/preapprovals', { method: 'POST', body, key: 'outage-1' });
    expect(retried.status).toBe(202);
    const first = await retried.text();
    const replay = await call('/v1/preapprovals', { method: 'POST', body, key: 'outage-1' });
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.text()).toBe(first);
    expect(await count()).toBe(1);
  }, 30_000);
});
