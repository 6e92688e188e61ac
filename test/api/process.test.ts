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
