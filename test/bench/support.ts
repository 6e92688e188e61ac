import fs from 'node:fs';
import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { build } from 'esbuild';

/** Shared pieces of the benchmarks: the bundled bench server, percentiles, a PostgreSQL schema. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export interface BenchServer {
  apiUrl: string;
  /** The bare Express "hello" app in the same process: the baseline. */
  bareUrl: string;
  keys: { publicKey: string; secretKey: string };
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function buildBenchServer(): Promise<string> {
  const serverJs = 'dist/bench/api-server.js';
  await build({ entryPoints: ['test/bench/api-server.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile: serverJs, logLevel: 'warning' });
  return serverJs;
}

export async function startBenchServer(serverJs: string, env: Record<string, string>): Promise<BenchServer> {
  const flags = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...flags, serverJs], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'info', ...env } });
  const info = await new Promise<{ apiUrl: string; bareUrl: string; keys: BenchServer['keys'] }>((resolve) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
  });
  return {
    ...info,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** Runs `work` against a fresh schema of the bench PostgreSQL database; says so and returns when none is reachable. */
/**
 * The local PostgreSQL through its Unix socket when it has one (how a PostgreSQL on the same host is
 * reached: no TCP stack on each statement's way, about a tenth less CPU per lifecycle on this machine),
 * else over loopback TCP. `BENCH_DATABASE_URL` chooses otherwise.
 */
function defaultBenchDatabaseUrl(): string {
  const socketDir = '/var/run/postgresql';
  return fs.existsSync(`${socketDir}/.s.PGSQL.5432`) ? `postgres://postgres@/test?host=${socketDir}` : 'postgres://postgres@127.0.0.1:5432/test';
}

export async function withPostgresSchema(work: (schemaUrl: string) => Promise<void>): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? defaultBenchDatabaseUrl();
  console.log(`\nPostgreSQL at ${url.replace(/\/\/[^@]*@/, '//…@')} (${/[?&]host=\//.test(url) ? 'Unix socket' : 'TCP'})`);
  const admin = new pg.Client({ connectionString: url });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`\nPostgreSQL: skipped (${(error as Error).message})`);
    return;
  }
  const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
  try {
    await admin.query(`create schema ${schema}`);
    await work(`${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`);
  } finally {
    await admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
    await admin.end().catch(() => undefined);
  }
}
