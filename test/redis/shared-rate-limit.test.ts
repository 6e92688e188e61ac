import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, keyHeaders, startSecondInstance, startTestApp, type TestApp } from '../support/harness';

const redisUrl = process.env.TEST_REDIS_URL!;
const limits = { REDIS_URL: redisUrl, RATE_LIMIT_READS: '4', RATE_LIMIT_BURST: '0', RATE_LIMIT_WINDOW_SECONDS: '60' };

let app: TestApp;
let second: { url: string; stop(): Promise<void> };
beforeAll(async () => {
  app = await startTestApp({ env: limits });
  second = await startSecondInstance(app, limits);
});
afterAll(async () => {
  await second.stop();
  await app.stop();
});

describe('rate limits through Redis', () => {
  it('when REDIS_URL is set, two processes share one budget per key', async () => {
    const tenant = await createTenant(app);
    const headers = keyHeaders(tenant.test);
    const statuses = [];
    for (const url of [app.url, second.url, app.url, second.url, app.url, second.url]) {
      statuses.push((await fetch(`${url}/v1/products`, { headers })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
