import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseEnv } from '../support/harness';
import { buildServiceBundle, startServiceProcess } from '../support/service-process';

/** `npm start` as a real process (the same esbuild bundle): migrations, bootstrap, health, a clean SIGTERM. */
let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
let bundle: string;
let removeBundle: () => void;
beforeAll(async () => {
  database = await freshDatabaseEnv();
  const scripts = (await import('../../package.json', { with: { type: 'json' } })).default.scripts;
  expect(scripts.start).toContain('dist/server/main.js');
  ({ file: bundle, remove: removeBundle } = await buildServiceBundle(path.basename(database.dataDir)));
});
afterAll(async () => {
  removeBundle();
  await database.drop();
});

const start = () => startServiceProcess(bundle, database.env);

describe('the service process', () => {
  it('migrates, bootstraps the sandbox, turns healthy, serves with the printed keys and stops cleanly on SIGTERM', async () => {
    const first = await start();
    expect(first.output()).toContain('Sandbox created.');
    // One start-up line says which live providers are configured (none by default: live rail calls are refused).
    expect(first.output()).toMatch(/live providers: rail none, aml none, identity none, [^"]*sms none/);
    const publicKey = /public key\s+(pk_test_\w+)/.exec(first.output())![1]!;
    const secretKey = /secret key\s+(sk_test_\w+)/.exec(first.output())![1]!;
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    // The first start's block: where the reference, the error codes and the keys are (after the listening line).
    await expect.poll(() => first.output(), { timeout: 5_000 }).toMatch(/Ready at http:\/\/localhost:\d+\n\s+API reference\s+http:\/\/localhost:\d+\/api-docs\n\s+Error codes\s+\S+\/docs\/errors/);
    expect(first.output()).toMatch(/\n\s+Keys\s+the sandbox test key pair above/);
    const products = await fetch(`${first.url}/v1/products`, { headers: { Authorization: `ApiKey ${publicKey}:${secretKey}` } });
    expect(((await products.json()) as { data: unknown[] }).data).toHaveLength(8);
    const pools = await fetch(`${first.url}/v1/pools/balance`, { headers: { Authorization: `ApiKey ${publicKey}:${secretKey}` } });
    expect(((await pools.json()) as { data: { totalBalanceKobo: number } }).data.totalBalanceKobo).toBe(5_000_000_000);
    first.kill('SIGTERM');
    expect(await first.exit, first.output()).toBe(0);
    expect(first.output()).toContain('stopped cleanly');

    const second = await start();
    expect(second.output()).toContain('Sandbox ready.');
    expect(second.output()).toContain(publicKey);
    second.kill('SIGTERM');
    expect(await second.exit, second.output()).toBe(0);
  }, 60_000);
});

describe('the production profile', () => {
  // A production deployment: the suite's development default (loopback webhooks, set by startServiceProcess) is off, as the profile demands.
  const production = { APP_ENV: 'production', PUBLIC_BASE_URL: 'https://lending.example', WEBHOOK_ALLOW_LOOPBACK: 'false' };

  it('with MASTER_KEY it starts, logs its security settings on one line, and serves no /sandbox or /demo route', async () => {
    const service = await startServiceProcess(bundle, { ...database.env, ...production });
    try {
      expect(service.output()).not.toContain('Sandbox created.');
      expect(service.output()).not.toContain('Ready at');
      const line = service.output().split('\n').find((l) => l.includes('"security settings"'));
      expect(JSON.parse(line!).security).toEqual({
        profile: 'production',
        sandboxRoutes: false,
        demo: false,
        bootstrapSandbox: false,
        masterKeySource: 'environment',
        publicUrlScheme: 'https',
        trustProxy: false,
      });
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      for (const [method, route] of [
        ['GET', '/sandbox/sms?phone=%2B2348012345678'],
        ['GET', '/sandbox/rails/rail_a/authorisations/mdt_anything'],
        ['POST', '/sandbox/rails/rail_a/authorise/mdt_anything'],
        ['GET', '/demo'],
        ['GET', '/demo/'],
        ['POST', '/demo/api/runs'],
      ] as const) {
        const res = await fetch(`${service.url}${route}`, { method });
        expect(res.status, `${method} ${route}`).toBe(404);
      }
    } finally {
      service.kill('SIGTERM');
      expect(await service.exit, service.output()).toBe(0);
    }
  }, 60_000);

  it('without MASTER_KEY it refuses to start and says why', async () => {
    const started = startServiceProcess(bundle, { ...database.env, ...production, MASTER_KEY: '' });
    await expect(started).rejects.toThrow(/MASTER_KEY: is required in production/);
    expect(fs.existsSync(path.join(database.dataDir, 'master.key'))).toBe(false);
  }, 60_000);
});
