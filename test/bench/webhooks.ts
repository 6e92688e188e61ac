import crypto from 'node:crypto';
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

interface Receipt {
  lagMs: number;
  at: number;
}

async function startReceiver() {
  const receipts: Receipt[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { createdAt?: string };
        if (body.createdAt) receipts.push({ lagMs: now - Date.parse(body.createdAt), at: now });
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

async function load(label: string, server: BenchServer, receiver: Awaited<ReturnType<typeof startReceiver>>) {
  const headers = { 'content-type': 'application/json', 'X-API-Public-Key': server.keys.publicKey, 'X-API-Secret-Key': server.keys.secretKey };
  for (let i = 0; i < ENDPOINTS; i++) {
    const res = await fetch(`${server.apiUrl}/v1/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url(`/e${i}`), events: ['preapproval.received'] }) });
    if (res.status !== 201) throw new Error(`endpoint: ${res.status}`);
  }
  receiver.receipts.length = 0;
  let next = 0;
  let failures = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < EVENTS) {
        next += 1;
        const res = await fetch(`${server.apiUrl}/v1/preapprovals`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            borrower: { firstName: 'Bench', lastName: 'Hook', phone: '+2348012345678' },
            decision: { metadata: { assessment_id: `w_${crypto.randomUUID()}`, bvn: String(10_000_000_000 + crypto.randomInt(0, 89_999_999_999)).slice(0, 11) }, decision: { recommendation: 'approve', approved_amount: 1000 } },
          }),
        });
        await res.arrayBuffer();
        if (res.status !== 202) failures += 1;
      }
    }),
  );
  const pushedAt = Date.now();
  const expected = (EVENTS - failures) * ENDPOINTS;
  const deadline = Date.now() + 120_000;
  while (receiver.receipts.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const lastAt = Math.max(...receiver.receipts.map((r) => r.at));
  const seconds = (lastAt - started) / 1000;
  const lags = receiver.receipts.map((r) => r.lagMs).sort((a, b) => a - b);
  console.log(`\n${label}: ${EVENTS} pushes from ${CLIENTS} clients (${failures} failed), ${ENDPOINTS} endpoints → ${receiver.receipts.length}/${expected} deliveries`);
  console.log(`  API traffic ${(EVENTS / ((pushedAt - started) / 1000)).toFixed(0)} pushes/s; all delivered ${((lastAt - pushedAt) / 1000).toFixed(2)} s after the last push`);
  console.log(`  deliveries/s sustained (first push → last receipt): ${(receiver.receipts.length / seconds).toFixed(0)}  (target ≥ 500)`);
  console.log(`  lag commit → receipt: p50 ${percentile(lags, 50)} ms, p90 ${percentile(lags, 90)} ms, p99 ${percentile(lags, 99)} ms, max ${lags.at(-1)} ms  (target p50 < 250 ms)`);
}

export async function webhooks(): Promise<void> {
  const receiver = await startReceiver();
  console.log(`baseline: plain keep-alive POSTs to the receiver from one process: ${(await baseline(receiver.url('/baseline'))).toFixed(0)} req/s`);
  const serverJs = await buildBenchServer();
  const env = { BENCH_DISPATCHER: 'true' };
  const sqlite = await startBenchServer(serverJs, env);
  try {
    await load('SQLite', sqlite, receiver);
  } finally {
    await sqlite.stop();
  }
  await withPostgresSchema(async (schemaUrl) => {
    const postgres = await startBenchServer(serverJs, { ...env, DATABASE_URL: schemaUrl, DATABASE_POOL_SIZE: '20' });
    try {
      await load('PostgreSQL', postgres, receiver);
    } finally {
      await postgres.stop();
    }
  });
  await receiver.close();
}
