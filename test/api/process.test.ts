import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseEnv, TEST_MASTER_KEY } from '../support/harness';

/** `npm start` as a real process: migrations, bootstrap, health, and a clean SIGTERM. */
let database: Awaited<ReturnType<typeof freshDatabaseEnv>>;
beforeAll(async () => {
  database = await freshDatabaseEnv();
});
afterAll(() => database.drop());

interface Started {
  url: string;
  output: () => string;
  exit: Promise<number | null>;
  kill(signal: NodeJS.Signals): void;
}

function start(): Promise<Started> {
  const child = spawn(path.resolve('node_modules/.bin/tsx'), ['server/main.ts'], {
    env: { ...process.env, ...database.env, MASTER_KEY: TEST_MASTER_KEY, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
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
    expect(await first.exit).toBe(0);
    expect(first.output()).toContain('stopped cleanly');

    const second = await start();
    expect(second.output()).toContain('Sandbox ready.');
    expect(second.output()).toContain(publicKey);
    second.kill('SIGTERM');
    expect(await second.exit).toBe(0);
  }, 60_000);
});
