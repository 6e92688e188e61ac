import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildBenchServer, percentile, startBenchServer, withPostgresSchema, type BenchServer } from './support';

/**
 * `npm run bench -- webhooks`: API traffic (pre-approval pushes, one event each) delivered by the
 * server's dispatcher to a loopback receiver with ENDPOINTS endpoints. Reports deliveries per
 * second (first push to last receipt) and lag from the event's commit to its receipt. Baseline in
 * the same run: plain keep-alive POSTs from this process to the same receiver.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 2);
/** Which runs, e.g. `sqlite-drain,postgres-load` (default all six: `sqlite-load`, `sqlite-split`, `sqlite-drain` and the same for `postgres-`). */
const ONLY = process.env.BENCH_ONLY?.split(',');
const wanted = (run: string) => !ONLY || ONLY.includes(run);

interface Receipt {
  assessmentId: string;
  createdAt: number;
  at: number;
}

/**
 * The commit lies between the event's `createdAt` (set inside the transaction, before commit) and
 * the push's 202 reaching the client (after commit): lag from the first is an upper bound of the
 * commit → receipt lag, from the second a lower bound. Both are reported.
 */
const committedBy = new Map<string, number>();

async function startReceiver() {
  const receipts: Receipt[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { createdAt?: string; data?: { assessmentId?: string } };
        if (body.data?.assessmentId && body.createdAt) receipts.push({ assessmentId: body.data.assessmentId, createdAt: Date.parse(body.createdAt), at: now });
      } catch {
        /* baseline posts are not JSON envelopes */
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { receipts, url: (p: string) => `http://127.0.0.1:${port}${p}`, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

async function baseline(url: string): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const total = 5000;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < total) {
        next += 1;
        await new Promise<void>((resolve, reject) => {
          const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
            res.resume();
            res.on('end', resolve);
          });
          req.on('error', reject);
          req.end('{"baseline":true}');
        });
      }
    }),
  );
  agent.destroy();
  return total / ((performance.now() - started) / 1000);
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function registerEndpoints(server: BenchServer, receiver: Receiver) {
  const headers = { 'content-type': 'application/json', 'X-API-Public-Key': server.keys.publicKey, 'X-API-Secret-Key': server.keys.secretKey };
  for (let i = 0; i < ENDPOINTS; i++) {
    const res = await fetch(`${server.apiUrl}/v1/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url(`/e${i}`), events: ['preapproval.received'] }) });
    if (res.status !== 201) throw new Error(`endpoint: ${res.status}`);
  }
}

/** Pushes EVENTS pre-approvals from CLIENTS clients, in turn to each of `servers`; returns how many failed. */
async function push(servers: BenchServer | BenchServer[]): Promise<number> {
  const targets = Array.isArray(servers) ? servers : [servers];
  const server = targets[0]!;
  const headers = { 'content-type': 'application/json', 'X-API-Public-Key': server.keys.publicKey, 'X-API-Secret-Key': server.keys.secretKey };
  let next = 0;
  let failures = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const target = targets[client % targets.length]!;
      while (next < EVENTS) {
        next += 1;
        const assessmentId = `w_${crypto.randomUUID()}`;
        const res = await fetch(`${target.apiUrl}/v1/preapprovals`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            borrower: { firstName: 'Bench', lastName: 'Hook', phone: '+2348012345678' },
            decision: { metadata: { assessment_id: assessmentId, bvn: String(10_000_000_000 + crypto.randomInt(0, 89_999_999_999)).slice(0, 11) }, decision: { recommendation: 'approve', approved_amount: 1000 } },
          }),
        });
        await res.arrayBuffer();
        committedBy.set(assessmentId, Date.now());
        if (res.status !== 202) failures += 1;
      }
    }),
  );
  return failures;
}

async function waitForReceipts(receiver: Receiver, expected: number) {
  const deadline = Date.now() + 180_000;
  while (receiver.receipts.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

/**
 * Dispatcher capacity: EVENTS pushed with no dispatcher running (a backlog), then a second server
 * process on the same database starts its dispatcher; deliveries per second while it drains.
 */
async function drain(label: string, serverJs: string, env: Record<string, string>, receiver: Receiver) {
  const api = await startBenchServer(serverJs, env);
  await registerEndpoints(api, receiver);
  const failures = await push(api);
  await api.stop();
  receiver.receipts.length = 0;
  const started = Date.now();
  const worker = await startBenchServer(serverJs, { ...env, BENCH_DISPATCHER: 'true' });
  const expected = (EVENTS - failures) * ENDPOINTS;
  await waitForReceipts(receiver, expected);
  const times = receiver.receipts.map((r) => r.at);
  const first = Math.min(...times);
  const last = Math.max(...times);
  await worker.stop();
  console.log(`\n${label} drain: a backlog of ${expected} deliveries, one dispatcher process: ${receiver.receipts.length} delivered`);
  console.log(`  sustained (first → last receipt): ${(receiver.receipts.length / ((last - first) / 1000)).toFixed(0)} deliveries/s  (target ≥ 500)`);
  console.log(`  with process start-up and migrations: ${(receiver.receipts.length / ((last - started) / 1000)).toFixed(0)} deliveries/s (first delivery ${first - started} ms after spawn)`);
}

/** Lag under API traffic: `servers` take the pushes (in turn), `server` registers the endpoints. */
async function load(label: string, server: BenchServer, receiver: Receiver, servers: BenchServer[] = [server]) {
  await registerEndpoints(server, receiver);
  receiver.receipts.length = 0;
  const started = Date.now();
  const failures = await push(servers);
  const pushedAt = Date.now();
  const expected = (EVENTS - failures) * ENDPOINTS;
  await waitForReceipts(receiver, expected);
  const lastAt = Math.max(...receiver.receipts.map((r) => r.at));
  const seconds = (lastAt - started) / 1000;
  const upper = receiver.receipts.map((r) => r.at - r.createdAt).sort((a, b) => a - b);
  // A delivery may beat the 202 to the client: that counts as no lag.
  const lower = receiver.receipts.map((r) => Math.max(0, r.at - committedBy.get(r.assessmentId)!)).sort((a, b) => a - b);
  console.log(`\n${label}: ${EVENTS} pushes from ${CLIENTS} clients (${failures} failed), ${ENDPOINTS} endpoints → ${receiver.receipts.length}/${expected} deliveries`);
  console.log(`  API traffic ${(EVENTS / ((pushedAt - started) / 1000)).toFixed(0)} pushes/s; all delivered ${((lastAt - pushedAt) / 1000).toFixed(2)} s after the last push`);
  console.log(`  deliveries/s sustained under API traffic (first push → last receipt): ${(receiver.receipts.length / seconds).toFixed(0)}`);
  const line = (lags: number[]) => `p50 ${percentile(lags, 50)} ms, p90 ${percentile(lags, 90)} ms, p99 ${percentile(lags, 99)} ms, max ${lags.at(-1)} ms`;
  console.log(`  lag commit → receipt (target p50 < 250 ms): at most ${line(upper)}`);
  console.log(`                                              at least ${line(lower)}`);
}

/**
 * The split deployment (docs/scale/roles.md): two API processes without a dispatcher take the pushes, one worker
 * process (the dispatcher) delivers. Its dispatcher hears of their commits over the room bus (PostgreSQL LISTEN/NOTIFY,
 * `server/workers/outbox-bell.ts`); on SQLite (one machine, no bus) it finds them by polling.
 */
async function split(label: string, serverJs: string, env: Record<string, string>, receiver: Receiver) {
  const apis: BenchServer[] = [];
  let worker: BenchServer | undefined;
  try {
    // One after the other: the first bootstraps the sandbox, the others find it.
    apis.push(await startBenchServer(serverJs, env));
    apis.push(await startBenchServer(serverJs, env));
    worker = await startBenchServer(serverJs, { ...env, BENCH_DISPATCHER: 'true' });
    await load(`${label}, two API processes + one worker`, apis[0]!, receiver, apis);
  } finally {
    for (const process of [...apis, ...(worker ? [worker] : [])]) await process.stop();
  }
}

export async function webhooks(): Promise<void> {
  const receiver = await startReceiver();
  console.log(`baseline: plain keep-alive POSTs to the receiver from one process: ${(await baseline(receiver.url('/baseline'))).toFixed(0)} req/s`);
  const serverJs = await buildBenchServer();
  const key = { MASTER_KEY: crypto.randomBytes(32).toString('base64url') };
  if (wanted('sqlite-load')) {
    const sqlite = await startBenchServer(serverJs, { ...key, BENCH_DISPATCHER: 'true' });
    try {
      await load('SQLite', sqlite, receiver);
    } finally {
      await sqlite.stop();
    }
  }
  if (wanted('sqlite-split')) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-hooks-'));
    try {
      await split('SQLite', serverJs, { ...key, BENCH_DATA_DIR: dataDir }, receiver);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (wanted('sqlite-drain')) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-hooks-'));
    try {
      await drain('SQLite', serverJs, { ...key, BENCH_DATA_DIR: dataDir }, receiver);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  if (wanted('postgres-load')) await withPostgresSchema(async (schemaUrl) => {
    const env = { ...key, DATABASE_URL: schemaUrl, DATABASE_POOL_SIZE: '20' };
    const postgres = await startBenchServer(serverJs, { ...env, BENCH_DISPATCHER: 'true' });
    try {
      await load('PostgreSQL', postgres, receiver);
    } finally {
      await postgres.stop();
    }
  });
  if (wanted('postgres-split')) await withPostgresSchema((schemaUrl) => split('PostgreSQL', serverJs, { ...key, DATABASE_URL: schemaUrl, DATABASE_POOL_SIZE: '20' }, receiver));
  if (wanted('postgres-drain')) await withPostgresSchema((schemaUrl) => drain('PostgreSQL', serverJs, { ...key, DATABASE_URL: schemaUrl, DATABASE_POOL_SIZE: '20' }, receiver));
  await receiver.close();
}
