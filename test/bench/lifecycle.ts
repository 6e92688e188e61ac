import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { build } from 'esbuild';
import { renderOfferLetter } from '../../server/platform/domain/offer-letter/render-offer-letter';
import { priceLoan } from '../../server/platform/domain/pricing/price-loan';
import { dueDates } from '../../server/platform/domain/pricing/schedule-dates';

const LOANS = Number(process.env.BENCH_LOANS ?? 600);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const STEPS = ['push', 'issue-offer', 'accept-terms', 'disburse'] as const;

interface Server {
  apiUrl: string;
  keys: { publicKey: string; secretKey: string };
  child: ChildProcess;
}

async function startServer(serverJs: string, env: Record<string, string>): Promise<Server> {
  const flags = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = spawn(process.execPath, [...flags, serverJs], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'info', ...env } });
  const info = await new Promise<{ apiUrl: string; keys: Server['keys'] }>((resolve) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
  });
  return { ...info, child };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function runLifecycles(server: Server) {
  const headers = { 'content-type': 'application/json', 'X-API-Public-Key': server.keys.publicKey, 'X-API-Secret-Key': server.keys.secretKey };
  const timings: Record<string, number[]> = Object.fromEntries(STEPS.map((s) => [s, []]));
  let failures = 0;
  const call = async (step: (typeof STEPS)[number], path: string, body?: unknown) => {
    const started = performance.now();
    const res = await fetch(`${server.apiUrl}${path}`, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as { data: any; status: number };
    timings[step]!.push(performance.now() - started);
    if (res.status >= 300) throw new Error(`${step}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const one = async () => {
    const bvn = String(10_000_000_000 + crypto.randomInt(0, 89_999_999_999)).slice(0, 11);
    const ack = await call('push', '/v1/preapprovals', {
      borrower: { firstName: 'Bench', lastName: 'Borrower', phone: '+2348012345678' },
      decision: {
        metadata: { assessment_id: `bench_${crypto.randomUUID()}`, bvn },
        decision: { recommendation: 'approve', approved_amount: 10000, conditions: { interest_rate: 3.5, tenor_days: 90, repayment_frequency: 'monthly' } },
      },
    });
    const loan = await call('issue-offer', `/v1/preapprovals/${ack.preapprovalId}/issue-offer`, {});
    await call('accept-terms', `/v1/loans/${loan.id}/accept-terms`, {
      consent: { signatureFullName: 'Bench Borrower', ipAddress: '102.89.1.1', userAgent: 'bench', signedAt: new Date().toISOString(), documentReference: loan.documentReference },
    });
    await call('disburse', `/v1/loans/${loan.id}/disburse`);
  };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < LOANS) {
        next += 1;
        await one().catch((error) => {
          failures += 1;
          if (failures <= 3) console.error(String(error).slice(0, 300));
        });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: (LOANS - failures) / seconds, seconds, failures, timings };
}

function report(label: string, result: Awaited<ReturnType<typeof runLifecycles>>) {
  console.log(`\n${label}: ${LOANS} lifecycles, ${CLIENTS} concurrent clients, ${result.seconds.toFixed(1)} s, ${result.failures} failed`);
  console.log(`  full lifecycles per second: ${result.perSecond.toFixed(1)}`);
  for (const step of STEPS) {
    const sorted = [...result.timings[step]!].sort((a, b) => a - b);
    console.log(`  ${step.padEnd(14)} p50 ${percentile(sorted, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(sorted, 99).toFixed(1).padStart(7)} ms`);
  }
}

async function offerLetterMedian(): Promise<number> {
  const priced = priceLoan({
    principalKobo: 1_000_000, annualRateBps: 350, tenorDays: 90, repaymentFrequency: 'monthly', interestModel: 'flat',
    processingFeeBps: 100, processingFeeFlatKobo: 50_000, insuranceMode: 'automatic', insurancePremiumBps: 50, insurancePremiumBearer: 'borrower', lateFeeBps: 500,
  });
  const dates = dueDates(new Date(), priced.instalments);
  const data = {
    documentReference: 'OFR-bench-1',
    issuedAt: new Date().toISOString(),
    lender: { name: 'Bench Lender', complaintsEmail: 'complaints@lending.example' },
    borrower: { firstName: 'Bench', lastName: 'Borrower', phone: '+2348012345678' },
    loan: { id: 'bench', currency: 'NGN', principalKobo: 1_000_000, tenorDays: 90, repaymentFrequency: 'monthly', interestModel: 'flat' as const, annualRateBps: 350 },
    costs: {
      processingFeeKobo: priced.processingFeeKobo, insurancePremiumKobo: priced.borrowerInsurancePremiumKobo, lateFeeBps: 500, totalInterestKobo: priced.totalInterestKobo,
      totalFeesKobo: priced.totalFeesKobo, costOfCreditKobo: priced.costOfCreditKobo, totalRepayableKobo: priced.totalRepayableKobo, aprBps: priced.aprBps,
    },
    schedule: priced.instalments.map((r, i) => ({ ...r, dueDate: dates[i]! })),
    coolingOffDays: 3,
  };
  for (let i = 0; i < 10; i++) await renderOfferLetter(data);
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await renderOfferLetter(data);
    times.push(performance.now() - t);
  }
  return percentile(times.sort((a, b) => a - b), 50);
}

export async function lifecycle(): Promise<void> {
  const serverJs = 'dist/bench/api-server.js';
  await build({ entryPoints: ['test/bench/api-server.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile: serverJs, logLevel: 'warning' });

  const sqlite = await startServer(serverJs, {});
  report('SQLite', await runLifecycles(sqlite));
  sqlite.child.kill('SIGTERM');
  await new Promise((r) => sqlite.child.once('exit', r));
  if (process.env.BENCH_SQLITE_ONLY) return;

  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  try {
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const postgres = await startServer(serverJs, {
      DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      DATABASE_POOL_SIZE: '20',
    });
    report('PostgreSQL', await runLifecycles(postgres));
    postgres.child.kill('SIGTERM');
    await new Promise((r) => postgres.child.once('exit', r));
    await admin.query(`drop schema ${schema} cascade`);
  } catch (error) {
    console.log(`\nPostgreSQL: skipped (${(error as Error).message})`);
  } finally {
    await admin.end().catch(() => undefined);
  }

  console.log(`\noffer letter render (3 instalments), median of 50 warm renders: ${(await offerLetterMedian()).toFixed(1)} ms (target < 40 ms)`);
}
