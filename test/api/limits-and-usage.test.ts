import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTenant, pushBody, startTestApp, type TestApp } from '../support/harness';

describe('rate limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { RATE_LIMIT_READS: '5', RATE_LIMIT_WRITES: '2', RATE_LIMIT_BURST: '0', RATE_LIMIT_WINDOW_SECONDS: '60' },
    });
  });
  afterAll(() => app.stop());

  it('advertises the policy and the remaining budget on every response', async () => {
    const tenant = await createTenant(app);
    const res = await client(app, tenant.test).get('/v1/products');
    expect(res.headers.get('ratelimit-policy')).toBe('"reads";q=5;w=60');
    expect(res.headers.get('ratelimit')).toMatch(/^"reads";r=4;t=\d+$/);
  });

  it('when a key exceeds its read budget, then 429 RATE_LIMITED with Retry-After, and other keys are unaffected', async () => {
    const tenant = await createTenant(app);
    const api = client(app, tenant.test);
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await api.get('/v1/products')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await api.get('/v1/products');
    expect(limited.body).toMatchObject({ status: 429, success: false, error: 'RATE_LIMITED' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await client(app, tenant.live).get('/v1/products')).status).toBe(200);
  });

  it('gives writes a tighter budget than reads', async () => {
    const tenant = await createTenant(app);
    const api = client(app, tenant.test);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await api.post('/v1/preapprovals', pushBody())).status);
    expect(statuses).toEqual([202, 202, 429]);
    expect((await api.get('/v1/products')).status).toBe(200);
  });
});

describe('usage metering', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.stop());

  it('counts every authenticated call and its 4xx errors per day, per mode', async () => {
    const tenant = await createTenant(app);
    const api = client(app, tenant.test);
    await api.get('/v1/products');
    await api.get('/v1/products');
    await api.get('/v1/products/not-a-uuid');
    await api.get('/v1/nowhere');
    await client(app, tenant.live).get('/v1/products');
    const usage = await api.get('/v1/usage?days=3');
    expect(usage.status).toBe(200);
    expect(usage.body.data).toHaveLength(3);
    const today = usage.body.data.at(-1);
    expect(today.day).toBe(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
    // Four calls before this one (the usage call itself is counted when it finishes).
    expect(today).toMatchObject({ requestCount: 4, errorCount: 2 });
    expect(usage.body.data[0]).toMatchObject({ requestCount: 0, errorCount: 0 });
  });

  it('writes counts in batches and keeps them across a flush', async () => {
    const tenant = await createTenant(app);
    const api = client(app, tenant.test);
    for (let i = 0; i < 5; i++) await api.get('/v1/products');
    await app.platform.usage.flush();
    const rows = await app.platform.db
      .selectFrom('apiUsageDaily')
      .select(['requestCount', 'errorCount'])
      .where('organisationId', '=', tenant.organisationId)
      .execute();
    expect(rows).toEqual([{ requestCount: 5, errorCount: 0 }]);
    const usage = await api.get('/v1/usage?days=1');
    expect(usage.body.data).toEqual([expect.objectContaining({ requestCount: 5, errorCount: 0 })]);
  });

  it('does not count calls without a valid key', async () => {
    const tenant = await createTenant(app);
    await client(app, { publicKey: tenant.test.publicKey, secretKey: 'sk_test_wrongwrongwrongwrongwrongwrong' }).get('/v1/products');
    const usage = await client(app, tenant.test).get('/v1/usage?days=1');
    expect(usage.body.data[0].requestCount).toBe(0);
  });

  it('rejects days outside 1-366 with 400 naming the field', async () => {
    const tenant = await createTenant(app);
    const res = await client(app, tenant.test).get('/v1/usage?days=0');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^query\.days/);
  });
});
