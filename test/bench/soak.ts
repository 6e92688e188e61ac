import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { buildBenchServer, percentile, startBenchServer, withPostgresSchema, type BenchServer } from './support';

/**
 * `npm run bench -- soak`: steady mixed load on one server process for `BENCH_SOAK_MINUTES` (30) per
 * database, SQLite then PostgreSQL: CLIENTS clients in a loop of whole lifecycles (push → issue-offer → accept-terms →
 * disburse), an external repayment on a disbursed loan, and reads (`GET /v1/products`, `GET /v1/loans`), each client
 * pacing itself to `BENCH_SOAK_RATE` operations a second in all. Every `SAMPLE_SECONDS` it records the server's
 * resident memory (VmRSS from /proc) and the window's p99. BENCH_SOAK_TOGETHER=1 runs the two databases at once. After the warm-up (the first fifth of the run) it compares
 * its first and last third (medians): the target is no growth beyond 10 % in RSS or p99, and no failed request.
 */
const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 30);
const CLIENTS = Number(process.env.BENCH_SOAK_CLIENTS ?? 4);
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 40);
const SAMPLE_SECONDS = Number(process.env.BENCH_SOAK_SAMPLE_SECONDS ?? 30);
const GROWTH_LIMIT = 0.1;

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

interface Sample {
  atSeconds: number;
  rssMb: number;
  p99Ms: number;
  /** The bare route's p99 in the same window (the machine's noise). */
  bareP99Ms: number;
  operations: number;
  failures: number;
}

async function soak(label: string, server: BenchServer): Promise<Sample[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS * 2 });
  const headers = { 'content-type': 'application/json', 'X-API-Public-Key': server.keys.publicKey, 'X-API-Secret-Key': server.keys.secretKey };
  const request = (method: string, path: string, body?: unknown) =>
    new Promise<{ status: number; json: { data: any } }>((resolve, reject) => {
      const payload = body === undefined ? '' : JSON.stringify(body);
      const req = http.request(`${server.apiUrl}${path}`, { method, agent, headers: { ...headers, 'content-length': Buffer.byteLength(payload) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode!, json: JSON.parse(Buffer.concat(chunks).toString()) });
          } catch (error) {
            reject(error);
          }
        });
      });
      req.on('error', reject);
      req.end(payload);
    });

  let window: number[] = [];
  // The baseline: the bare Express route in the same server process, probed 10 times a second all along. Its p99 moves
  // with whatever else the shared machine runs; the API's p99 divided by it does not, while a slowdown of ours shows.
  let bareWindow: number[] = [];
  let operations = 0;
  let failures = 0;
  const disbursed: string[] = [];
  const timed = async (method: string, path: string, body?: unknown) => {
    const started = performance.now();
    const res = await request(method, path, body);
    window.push(performance.now() - started);
    operations += 1;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json).slice(0, 200)}`);
    return res.json.data;
  };
  const lifecycle = async () => {
    const bvn = String(10_000_000_000 + crypto.randomInt(0, 89_999_999_999)).slice(0, 11);
    const ack = await timed('POST', '/v1/preapprovals', {
      borrower: { firstName: 'Soak', lastName: 'Borrower', phone: '+2348012345678' },
      decision: { metadata: { assessment_id: `soak_${crypto.randomUUID()}`, bvn }, decision: { recommendation: 'approve', approved_amount: 10000, conditions: { interest_rate: 3.5, tenor_days: 90, repayment_frequency: 'monthly' } } },
    });
    const loan = await timed('POST', `/v1/preapprovals/${ack.preapprovalId}/issue-offer`, {});
    await timed('POST', `/v1/loans/${loan.id}/accept-terms`, {
      consent: { signatureFullName: 'Soak Borrower', ipAddress: '102.89.1.1', userAgent: 'soak', signedAt: new Date().toISOString(), documentReference: loan.documentReference },
    });
    await timed('POST', `/v1/loans/${loan.id}/disburse`);
    disbursed.push(loan.id);
  };
  const mixed = [
    lifecycle,
    async () => {
      const id = disbursed[crypto.randomInt(0, Math.max(1, disbursed.length))];
      if (id) await timed('POST', `/v1/loans/${id}/repayments`, { method: 'external', amountKobo: 500, externalReference: `soak-${crypto.randomUUID()}` });
    },
    async () => void (await timed('GET', '/v1/products')),
    async () => void (await timed('GET', '/v1/loans?limit=20')),
  ];

  const endAt = Date.now() + MINUTES * 60_000;
  const started = Date.now();
  const samples: Sample[] = [];
  const sampler = setInterval(() => {
    const sorted = [...window].sort((a, b) => a - b);
    const bare = [...bareWindow].sort((a, b) => a - b);
    samples.push({ atSeconds: Math.round((Date.now() - started) / 1000), rssMb: rssMb(server.child.pid!), p99Ms: percentile(sorted, 99), bareP99Ms: percentile(bare, 99), operations, failures });
    window = [];
    bareWindow = [];
    const last = samples.at(-1)!;
    console.log(
      `  ${label} t=${String(last.atSeconds).padStart(5)} s  RSS ${last.rssMb.toFixed(1).padStart(7)} MB  p99 ${last.p99Ms.toFixed(1).padStart(7)} ms  bare p99 ${last.bareP99Ms.toFixed(1).padStart(6)} ms  ops ${last.operations}  failed ${last.failures}`,
    );
  }, SAMPLE_SECONDS * 1000);
  const baseline = (async () => {
    while (Date.now() < endAt) {
      const t = performance.now();
      await new Promise<void>((resolve) => {
        http.get(`${server.bareUrl}/hello`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve());
        }).on('error', () => resolve());
      });
      bareWindow.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  // Each client paces itself: RATE steps a second over all clients (a step is one request, or one whole lifecycle).
  const perClientGapMs = (1000 * CLIENTS) / RATE;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      let step = client;
      while (Date.now() < endAt) {
        const t = Date.now();
        await mixed[step % mixed.length]!().catch((error) => {
          failures += 1;
          if (failures <= 3) console.error(String(error).slice(0, 300));
        });
        step += 1;
        const wait = perClientGapMs - (Date.now() - t);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }),
  );
  await baseline;
  clearInterval(sampler);
  agent.destroy();
  return samples;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

/**
 * Start and end after the warm-up: the medians of the first and the last third of the samples (one window's p99 on a
 * shared machine jumps with whatever else runs; a third's median does not, while a leak still shows).
 */
function verdict(label: string, samples: Sample[]): void {
  const afterWarmUp = samples.filter((s) => s.atSeconds >= (MINUTES * 60) / 5);
  const third = Math.floor(afterWarmUp.length / 3);
  if (third < 1) {
    console.log(`${label}: too short to compare (needs at least 3 samples after the warm-up)`);
    return;
  }
  const start = afterWarmUp.slice(0, third);
  const end = afterWarmUp.slice(-third);
  const last = afterWarmUp.at(-1)!;
  const growth = (a: number, b: number) => (b - a) / a;
  const [rssStart, rssEnd] = [median(start.map((s) => s.rssMb)), median(end.map((s) => s.rssMb))];
  const [p99Start, p99End] = [median(start.map((s) => s.p99Ms)), median(end.map((s) => s.p99Ms))];
  const ratio = (list: Sample[]) => median(list.map((x) => x.p99Ms / Math.max(0.1, x.bareP99Ms)));
  const [ratioStart, ratioEnd] = [ratio(start), ratio(end)];
  const rss = growth(rssStart, rssEnd);
  const p99 = growth(p99Start, p99End);
  const relative = growth(ratioStart, ratioEnd);
  console.log(
    `${label}: after warm-up (median of the first and last third of ${afterWarmUp.length} samples) RSS ${rssStart.toFixed(1)} → ${rssEnd.toFixed(1)} MB (${(rss * 100).toFixed(1)} %), ` +
      `p99 ${p99Start.toFixed(1)} → ${p99End.toFixed(1)} ms (${(p99 * 100).toFixed(1)} %), p99 over the bare route's p99 in the same window ${ratioStart.toFixed(2)} → ${ratioEnd.toFixed(2)} (${(relative * 100).toFixed(1)} %), ` +
      `${last.operations} operations, ${last.failures} failed (target: at most ${GROWTH_LIMIT * 100} % growth of RSS and of p99 — raw, or against the baseline when the machine's load moved) ` +
      `${rss <= GROWTH_LIMIT && Math.min(p99, relative) <= GROWTH_LIMIT && last.failures === 0 ? 'PASS' : 'FAIL'}`,
  );
}

export async function soakBench(): Promise<void> {
  console.log(`soak: ${MINUTES} min per database, ${CLIENTS} clients, ${RATE} steps/s, a sample every ${SAMPLE_SECONDS} s`);
  const serverJs = await buildBenchServer();
  const run = async (label: string, env: Record<string, string>) => {
    const server = await startBenchServer(serverJs, env);
    try {
      verdict(label, await soak(label, server));
    } finally {
      await server.stop();
    }
  };
  const postgres = () => withPostgresSchema((url) => run('PostgreSQL', { DATABASE_URL: url, DATABASE_POOL_SIZE: '20' }));
  if (process.env.BENCH_SQLITE_ONLY) await run('SQLite', {});
  else if (process.env.BENCH_SOAK_TOGETHER) {
    // Both databases at once (one server process each): half the wall time; each still compares only with itself.
    await Promise.all([run('SQLite', {}), postgres()]);
  } else {
    await run('SQLite', {});
    await postgres();
  }
}
