import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { TEST_MASTER_KEY } from './harness';

/** The `npm start` bundle (same esbuild settings), built inside the project so it resolves node_modules. */
export async function buildServiceBundle(tag: string): Promise<{ file: string; remove(): void }> {
  const file = path.resolve('dist', `test-${tag}`, 'main.js');
  await build({ entryPoints: ['server/main.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile: file, logLevel: 'warning' });
  return { file, remove: () => fs.rmSync(path.dirname(file), { recursive: true, force: true }) };
}

export interface ServiceProcess {
  url: string;
  output: () => string;
  exit: Promise<number | string | null>;
  kill(signal: NodeJS.Signals): void;
}

/** Starts the service as a real process on a free loopback port; resolves once it is listening. */
export function startServiceProcess(bundle: string, env: Record<string, string>, args: string[] = []): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [bundle, ...args], {
    env: { ...process.env, MASTER_KEY: TEST_MASTER_KEY, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', WEBHOOK_ALLOW_LOOPBACK: 'true', ...env },
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
