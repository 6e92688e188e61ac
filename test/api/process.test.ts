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
    expect(first.output()).toMatch(/\n\s+Sandbox inbox\s+http:\/\/localhost:\d+\/sandbox\/mail /);
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

describe('the terminal (human-readable logs, development profile)', () => {
  it('counts the requests that went right instead of a line each, writes one readable line for a refused one, and prints the start-up links again on SIGUSR2', async () => {
    const service = await startServiceProcess(bundle, { ...database.env, LOG_FORMAT: 'pretty', LOG_REQUEST_SUMMARY_SECONDS: '1' });
    try {
      for (let i = 0; i < 25; i++) expect((await fetch(`${service.url}/v1/products`, { headers: { Authorization: 'ApiKey nope:nope' } })).status).toBe(401);
      for (let i = 0; i < 30; i++) expect((await fetch(`${service.url}/api-docs/lending-v1.json`)).status).toBe(200);

      await expect.poll(() => service.output(), { timeout: 5_000 }).toMatch(/\d+ requests answered in the last 1 s/);
      expect(service.output()).not.toContain('request completed');
      expect(service.output()).not.toContain('GET /api-docs/lending-v1.json → 200');
      expect(service.output()).toContain('request refused: GET /v1/products → 401');
      expect(service.output()).not.toMatch(/^\{"level"/m);
      expect(service.output()).toMatch(/Send SIGUSR2 \(kill -USR2 \d+\) to print these links again/);

      const before = service.output().length;
      service.kill('SIGUSR2');
      await expect.poll(() => service.output().slice(before), { timeout: 5_000 }).toMatch(/Sandbox ready\.[\s\S]*secret key\s+sk_test_\w+[\s\S]*Ready at http:\/\/localhost:\d+[\s\S]*Sandbox inbox\s+\S+\/sandbox\/mail/);
    } finally {
      service.kill('SIGTERM');
      expect(await service.exit, service.output()).toBe(0);
    }
  }, 60_000);

  it('with JSON logs (not a terminal) every request is still one JSON line', async () => {
    const service = await startServiceProcess(bundle, { ...database.env });
    try {
      for (let i = 0; i < 3; i++) await fetch(`${service.url}/api-docs/lending-v1.json`);
      await expect.poll(() => service.output().split('\n').filter((l) => l.includes('"request completed"') && l.includes('"/api-docs/lending-v1.json"')).length, { timeout: 5_000 }).toBe(3);
      for (const line of service.output().split('\n').filter((l) => l.includes('"request completed"'))) {
        expect(Object.keys(JSON.parse(line))).toEqual(expect.arrayContaining(['reqId', 'method', 'path', 'status', 'ms']));
      }
    } finally {
      service.kill('SIGTERM');
      expect(await service.exit, service.output()).toBe(0);
    }
  }, 60_000);
});

describe('the production profile', () => {
  // A production deployment: the suite's development default (loopback webhooks, set by startServiceProcess) is off, as the profile demands.
  const production = { APP_ENV: 'production', PUBLIC_BASE_URL: 'https://lending.example', WEBHOOK_ALLOW_LOOPBACK: 'false' };

  it('with MASTER_KEY it starts, logs its security settings on one line, and serves no /sandbox or /demo route', async () => {
    const service = await startServiceProcess(bundle, { ...database.env, ...production, SMTP_URL: 'smtp://127.0.0.1:2525' });
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
        ['GET', '/sandbox/mail'],
        ['GET', '/sandbox/inbox'],
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

  it('without an e-mail transport it refuses to start and says why; with MAIL_TO_FILES=true it starts and writes mail as owner-only files', async () => {
    const refused = startServiceProcess(bundle, { ...database.env, ...production });
    await expect(refused).rejects.toThrow(/SMTP_URL: is required in production: .*set MAIL_TO_FILES=true/);

    const service = await startServiceProcess(bundle, { ...database.env, ...production, MAIL_TO_FILES: 'true' });
    try {
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      expect(service.output()).toMatch(/live providers: .*email files/);
    } finally {
      service.kill('SIGTERM');
      expect(await service.exit, service.output()).toBe(0);
    }
  }, 60_000);

  it('without MASTER_KEY it refuses to start and says why', async () => {
    const started = startServiceProcess(bundle, { ...database.env, ...production, MAIL_TO_FILES: 'true', MASTER_KEY: '' });
    await expect(started).rejects.toThrow(/MASTER_KEY: is required in production/);
    expect(fs.existsSync(path.join(database.dataDir, 'master.key'))).toBe(false);
  }, 60_000);
});
