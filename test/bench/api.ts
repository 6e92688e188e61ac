import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { build } from 'esbuild';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;

interface Figures {
  rps: number;
  /** The server process's CPU time per answered request (user + system, all threads): steadier than req/s on a shared machine. */
  cpuUs: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** A process's user + system CPU time in ms, from /proc (NaN where there is none). */
function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

async function load(pid: number, url: string, headers: Record<string, string> = {}): Promise<Figures> {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers, pipelining: 1 });
  return {
    rps: Math.round(result.requests.average),
    cpuUs: Math.round(((cpuMs(pid) - cpuBefore) * 1000) / Math.max(1, result.requests.total)),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

function rssMb(pid: number): number {
  return Math.round(Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) / 1024);
}

/** Bundles an entry point the way `npm start` runs the server (esbuild, packages external, plain node). */
async function bundle(entry: string, outfile: string): Promise<string> {
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile, logLevel: 'warning' });
  return outfile;
}

/** Time from spawning the server (what `npm start` runs after its build) on a fresh data dir to the first 200 from /healthz. */
async function timeToHealthy(dataDir: string, mainJs: string): Promise<number> {
  return timeCommandToHealthy(dataDir, process.execPath, [mainJs]);
}

/**
 * The same for the real `npm start` (its build check included: bundles whose inputs did not change are not
 * rebuilt). `detached` puts npm and the server it runs in their own process group, so the SIGTERM reaches both.
 */
async function timeNpmStartToHealthy(dataDir: string): Promise<number> {
  return timeCommandToHealthy(dataDir, 'npm', ['start'], true);
}

async function timeCommandToHealthy(dataDir: string, command: string, args: string[], group = false): Promise<number> {
  const started = performance.now();
  const child = spawn(command, args, {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: group,
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not listening after 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
  for (;;) {
    const ok = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const elapsed = performance.now() - started;
  const exited = new Promise((r) => child.once('exit', r));
  if (group) process.kill(-child.pid!, 'SIGTERM');
  else child.kill('SIGTERM');
  await exited;
  return Math.round(elapsed);
}

export async function api(): Promise<void> {
  const serverJs = await bundle('test/bench/api-server.ts', 'dist/bench/api-server.js');
  const mainJs = await bundle('server/main.ts', 'dist/bench/main.js');
  const server = spawn(process.execPath, [serverJs], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'info' } });
  const info = await new Promise<{ apiUrl: string; bareUrl: string; keys: { publicKey: string; secretKey: string }; pid: number }>((resolve) => {
    let buffer = '';
    server.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
  });
  await new Promise((r) => setTimeout(r, 500));
  const idleRss = rssMb(info.pid);
  const auth = { 'X-API-Public-Key': info.keys.publicKey, 'X-API-Secret-Key': info.keys.secretKey };

  // Warm both paths, then alternate baseline and API runs so drift in machine load hits both.
  await autocannon({ url: `${info.bareUrl}/hello`, connections: 8, duration: 2 });
  await autocannon({ url: `${info.apiUrl}/v1/products`, connections: 8, duration: 2, headers: auth });
  const bare1 = await load(info.pid, `${info.bareUrl}/hello`);
  const api1 = await load(info.pid, `${info.apiUrl}/v1/products`, auth);
  const bare2 = await load(info.pid, `${info.bareUrl}/hello`);
  const api2 = await load(info.pid, `${info.apiUrl}/v1/products`, auth);
  const loadedRss = rssMb(info.pid);
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
  const firstStart = await timeToHealthy(dataDir, mainJs);
  const secondStart = await timeToHealthy(dataDir, mainJs);
  fs.rmSync(dataDir, { recursive: true, force: true });

  // The real `npm start`: bring the bundles up to date first (untimed), then a first start on a fresh data dir and a
  // second one on the same data dir, each with nothing to rebuild.
  execFileSync(process.execPath, ['scripts/build-changed.mjs'], { stdio: 'inherit' });
  const npmDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-npm-start-'));
  const npmFirstStart = await timeNpmStartToHealthy(npmDataDir);
  const npmSecondStart = await timeNpmStartToHealthy(npmDataDir);
  fs.rmSync(npmDataDir, { recursive: true, force: true });

  const bareRps = Math.round((bare1.rps + bare2.rps) / 2);
  const apiRps = Math.round((api1.rps + api2.rps) / 2);
  const rows = [
    ['run', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'CPU µs/req'],
    ['bare express GET /hello #1', bare1.rps, bare1.p50, bare1.p99, bare1.errors, bare1.non2xx, bare1.cpuUs],
    ['GET /v1/products (auth) #1', api1.rps, api1.p50, api1.p99, api1.errors, api1.non2xx, api1.cpuUs],
    ['bare express GET /hello #2', bare2.rps, bare2.p50, bare2.p99, bare2.errors, bare2.non2xx, bare2.cpuUs],
    ['GET /v1/products (auth) #2', api2.rps, api2.p50, api2.p99, api2.errors, api2.non2xx, api2.cpuUs],
  ];
  console.log(`\napi benchmark: ${CONNECTIONS} connections, ${DURATION} s per run, ${os.cpus().length} cores\n`);
  for (const r of rows) console.log(`${String(r[0]).padEnd(30)}${r.slice(1).map((c) => String(c).padStart(10)).join('')}`);
  const ratio = apiRps / bareRps;
  const p99 = Math.max(api1.p99, api2.p99);
  // The scale target: the API's tail against the bare route's, at the same connection count and in the same run
  // (both runs of each, so one stray stall on either side weighs half).
  const bareP99 = (bare1.p99 + bare2.p99) / 2;
  const apiP99 = (api1.p99 + api2.p99) / 2;
  const p99Ratio = apiP99 / bareP99;
  console.log(`
API throughput / bare throughput: ${(ratio * 100).toFixed(1)}%   (target >= 50%)  ${ratio >= 0.5 ? 'PASS' : 'FAIL'}
API p99 / bare p99 (mean of both runs): ${apiP99} ms / ${bareP99} ms = ${p99Ratio.toFixed(2)}x   (target <= 1.5x)  ${p99Ratio <= 1.5 ? 'PASS' : 'FAIL'}
bare CPU / API CPU per request:   ${(((bare1.cpuUs + bare2.cpuUs) / (api1.cpuUs + api2.cpuUs)) * 100).toFixed(1)}%   (the throughput ratio the API could reach with the machine to itself)
API p99 at ${CONNECTIONS} connections:       ${p99} ms        (target < 10 ms)  ${p99 < 10 ? 'PASS' : 'FAIL'}
idle RSS:                            ${idleRss} MB        (target < 150 MB) ${idleRss < 150 ? 'PASS' : 'FAIL'}   (after load: ${loadedRss} MB)
node main.js to healthy, first start:  ${firstStart} ms      (target < 3000 ms) ${firstStart < 3000 ? 'PASS' : 'FAIL'}
node main.js to healthy, second start: ${secondStart} ms
npm start to healthy, first start:   ${npmFirstStart} ms      (bundles up to date; fresh data directory)
npm start to healthy, second start:  ${npmSecondStart} ms      (target < 1500 ms) ${npmSecondStart < 1500 ? 'PASS' : 'FAIL'}`);
}
