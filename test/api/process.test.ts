import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseEnv, TEST_MASTER_KEY } from '../support/harness';

/** `npm start` as a real process (the same esbuild bundle): migrations, bootstrap, health, a clean SIGTERM. */
let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
let bundle: string;
beforeAll(async () => {
  database = await freshDatabaseEnv();
  const scripts = (await import('../../package.json', { with: { type: 'json' } })).default.scripts;
  expect(scripts.start).toContain('dist/server/main.js');
  // Inside the project, so the bundle resolves its external packages from node_modules.
  bundle = path.resolve('dist', `test-${path.basename(database.dataDir)}`, 'main.js');
  await build({ entryPoints: ['server/main.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile: bundle, logLevel: 'warning' });
});
afterAll(async () => {
  fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
  await database.drop();
});

interface Started {
  url: string;
  output: () => string;
  exit: Promise<number | string | null>;
  kill(signal: NodeJS.Signals): void;
}

function start(): Promise<Started> {
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, ...database.env, MASTER_KEY: TEST_MASTER_KEY, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exit = new Promise<number | string | null>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line in time:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, output: () => output, exit, kill: (s) => child.kill(s) });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', () => reject(new Error(`exited early:\n${output}`)));
  });
}

describe('the service process', () => {
  it('migrates, bootstraps the sandbox, turns healthy, serves with the printed keys and stops cleanly on SIGTERM', async () => {
    const first = await start();
    expect(first.output()).toContain('Sandbox created.');
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
