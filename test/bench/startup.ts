import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { percentile } from './support';

/**
 * `npm run bench -- startup`: how long `npm start` takes from spawn to healthy (`/readyz` answering 200) on a data
 * directory that already exists (the second and later starts: migrations applied, sandbox bootstrapped), with nothing
 * to rebuild. It runs the command of package.json's `start` script itself (`node … scripts/build-changed.mjs --then
 * dist/server/main.js`; npm's own launch, about as long as one more bare `node`, is not the server's and is left out),
 * RUNS times, interleaved with the baseline: a bare `node -e` HTTP server, from spawn to answering 200, polled the same
 * way. Both are timed from `spawn` to the first 200 on loopback, so process creation, Node's own start and the polling
 * cost the same on both sides.
 *
 * Target: p50 ≤ 1.5 s and p50 ≤ the same run's baseline p50 + 1.2 s (a quiet machine starts the bare server in about
 * 0.05 s; the shared one, in several times that, and the margin keeps the comparison fair when the machine is busy).
 * Environment: SQLite (DATABASE_URL and REDIS_URL are not passed on), the development profile, JSON logs, the sandbox
 * bootstrap on, as a developer's `npm start`. `BENCH_STARTUP_RUNS` (default 10).
 */
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 10);
const ROOT = process.cwd();
const TARGET_MS = 1_500;
const MARGIN_MS = 1_200;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function status(url: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(undefined));
    req.setTimeout(2_000, () => req.destroy());
  });
}

interface Started {
  ms: number;
  /** The process's CPU time (user + system) when it turned healthy: steadier than the wall time on a busy machine. */
  cpuMs: number;
  output: string;
}

/** A process's user + system CPU time in ms, from /proc (NaN where there is none). */
function cpuMs(pid: number | undefined): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Spawns `command`, polls `url` every 5 ms until it answers 200, stops the process (SIGTERM) and waits for its exit. */
async function timeToHealthy(command: string[], env: NodeJS.ProcessEnv, url: string): Promise<Started> {
  const started = performance.now();
  const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  try {
    for (;;) {
      if (exited) throw new Error(`exited before turning healthy:\n${output}`);
      if ((await status(url)) === 200) return { ms: performance.now() - started, cpuMs: cpuMs(child.pid), output };
      if (performance.now() - started > 60_000) throw new Error(`not healthy within 60 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    child.kill('SIGTERM');
    await exit;
  }
}

const summary = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90) };
};
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function startup(): Promise<void> {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const start = pkg.scripts.start!.split(/\s+/);
  if (start[0] !== 'node') throw new Error(`the start script no longer starts with node: ${pkg.scripts.start}`);
  const command = [process.execPath, ...start.slice(1)];
  console.log(`npm start runs: ${pkg.scripts.start}`);

  // The build step first, so that every measured start finds nothing to rebuild.
  const build = spawnSync(process.execPath, ['scripts/build-changed.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build step failed');

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
  const port = await freePort();
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = { ...inherited, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_FORMAT: 'json', LOG_LEVEL: 'info', APP_ENV: 'development' };
  const readyz = `http://127.0.0.1:${port}/readyz`;
  const bare = [process.execPath, '-e', `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`];
  const server: number[] = [];
  const baseline: number[] = [];
  const serverCpu: number[] = [];
  const baselineCpu: number[] = [];
  let rebuilt = 0;
  try {
    // The first start creates the database, migrates and bootstraps the sandbox: not measured.
    const first = await timeToHealthy(command, env, readyz);
    console.log(`first start on a new data directory (not measured): ${s(first.ms)}`);
    // Someone changing a bundle's inputs meanwhile (a shared checkout) makes a start rebuild: it does not count, and
    // is run again (at most RUNS more times).
    while (server.length < RUNS && rebuilt < RUNS) {
      const bareRun = await timeToHealthy(bare, env, `http://127.0.0.1:${port}/`);
      const run = await timeToHealthy(command, env, readyz);
      if (/^Building /m.test(run.output)) {
        rebuilt += 1;
        continue;
      }
      baseline.push(bareRun.ms);
      baselineCpu.push(bareRun.cpuMs);
      server.push(run.ms);
      serverCpu.push(run.cpuMs);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (server.length === 0) throw new Error('every start rebuilt a bundle: the sources are changing under the benchmark');
  const ours = summary(server);
  const base = summary(baseline);
  console.log(`\nnpm start → /readyz 200, existing data directory, ${server.length} runs${rebuilt ? ` (${rebuilt} more rebuilt a bundle and are left out)` : ''}:`);
  console.log(`  server    p50 ${s(ours.p50)}  p90 ${s(ours.p90)}`);
  console.log(`  baseline  p50 ${s(base.p50)}  p90 ${s(base.p90)}   (bare node -e HTTP server, spawn → 200, interleaved)`);
  console.log(`  server − baseline (p50): ${s(ours.p50 - base.p50)}`);
  console.log(`  CPU time to healthy (user + system, p50): server ${s(summary(serverCpu).p50)}, baseline ${s(summary(baselineCpu).p50)}   (steadier than wall time when the machine is busy)`);
  const pass = ours.p50 <= TARGET_MS && ours.p50 <= base.p50 + MARGIN_MS;
  console.log(`${pass ? 'PASS' : 'FAIL'}: p50 ${s(ours.p50)} (target ≤ ${s(TARGET_MS)} and ≤ baseline ${s(base.p50)} + ${s(MARGIN_MS)})`);
}
