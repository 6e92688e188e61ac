import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import pino from 'pino';
import { build } from 'esbuild';
import { loadConfig } from '../../server/config';
import { createPlatform } from '../../server/platform/platform';
import { createOrganisation } from '../../server/platform/domain/organisations/organisation';
import { createProduct } from '../../server/platform/domain/products/product';
import { runSettlement } from '../../server/platform/domain/settlements/run-settlement';
import { newId } from '../../server/platform/domain/ids';

const LOANS = Number(process.env.BENCH_LOANS ?? 200);
const REPAYMENTS = Number(process.env.BENCH_REPAYMENTS ?? 3000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 16);
const SETTLEMENT_LOANS = Number(process.env.BENCH_SETTLEMENT_LOANS ?? 10_000);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function startServer(serverJs: string, env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, [serverJs], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, LOG_LEVEL: 'info', ...env } });
  const info = await new Promise<{ apiUrl: string; keys: { publicKey: string; secretKey: string } }>((resolve) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
  });
  return { ...info, child };
}

async function repaymentLoad(label: string, server: Awaited<ReturnType<typeof startServer>>) {
  const headers = { 'content-type': 'application/json', 'X-API-Public-Key': server.keys.publicKey, 'X-API-Secret-Key': server.keys.secretKey };
  const post = async (p: string, body?: unknown) => {
    const res = await fetch(`${server.apiUrl}${p}`, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as { data: any };
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const loans: string[] = [];
  for (let i = 0; i < LOANS; i++) {
    const ack = await post('/v1/preapprovals', {
      borrower: { firstName: 'Bench', lastName: 'Borrower', phone: '+2348012345678' },
      decision: { metadata: { assessment_id: `r_${crypto.randomUUID()}`, bvn: String(10_000_000_000 + crypto.randomInt(0, 89_999_999_999)).slice(0, 11) }, decision: { recommendation: 'approve', approved_amount: 100000, conditions: { interest_rate: 3.5, tenor_days: 90 } } },
    });
    const loan = await post(`/v1/preapprovals/${ack.preapprovalId}/issue-offer`, {});
    await post(`/v1/loans/${loan.id}/accept-terms`, { consent: { signatureFullName: 'Bench B', ipAddress: '102.89.1.1', userAgent: 'bench', signedAt: new Date().toISOString(), documentReference: loan.documentReference } });
    await post(`/v1/loans/${loan.id}/disburse`);
    loans.push(loan.id);
  }
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < REPAYMENTS) {
        const i = next++;
        const t = performance.now();
        try {
          await post(`/v1/loans/${loans[i % loans.length]}/repayments`, { method: 'external', amountKobo: 1_000, externalReference: `bench-${i}` });
        } catch (error) {
          failures += 1;
          if (failures <= 3) console.error(String(error).slice(0, 200));
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  console.log(`\n${label}: ${REPAYMENTS} external repayments over ${LOANS} loans, ${CLIENTS} clients, ${seconds.toFixed(1)} s, ${failures} failed`);
  console.log(`  repayments per second: ${((REPAYMENTS - failures) / seconds).toFixed(1)}   p50 ${percentile(sorted, 50).toFixed(1)} ms   p99 ${percentile(sorted, 99).toFixed(1)} ms`);
}

/** Seeds SETTLEMENT_LOANS loans with one repayment each straight into the tables, then times one settlement run. */
async function settlementRun(label: string, env: Record<string, string>, pgSchema?: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-settle-'));
  const config = loadConfig({ ...env, DATA_DIR: dataDir, MASTER_KEY: 'bench-master-key-0123456789abcdef0123456789', BOOTSTRAP_SANDBOX: 'false' });
  const platform = await createPlatform(config, { logger: pino({ level: 'silent' }), pgSchema, sqliteFile: path.join(dataDir, 'platform.sqlite') });
  const db = platform.db;
  const now = new Date();
  const org = await createOrganisation(db, { name: 'Settlement bench', now });
  const product = await createProduct(db, {
    organisationId: org.id,
    input: { code: 'B', name: 'B', kycTier: 'delegated', approvalMode: 'partner_pushed', interestModel: 'flat', interestRateBps: 3600, minAmountKobo: 1, maxAmountKobo: 1e12, minTenorDays: 1, maxTenorDays: 365, settlementDestination: 'borrower_bank_account', capitalPoolCode: 'MAIN' },
    now,
  });
  const at = new Date(now.getTime() - 60_000).toISOString();
  const borrowerId = newId();
  await db.insertInto('borrowers').values({ id: borrowerId, organisationId: org.id, mode: 'test', clientReference: null, firstName: 'B', lastName: 'B', phone: '1', email: null, bvnHash: null, ninHash: null, legacyNin: null, identityStatus: 'unclaimed', linkedAt: null, userId: null, createdAt: at, updatedAt: at }).execute();
  for (let start = 0; start < SETTLEMENT_LOANS; start += 500) {
    const loans = [];
    const repayments = [];
    for (let i = start; i < Math.min(SETTLEMENT_LOANS, start + 500); i++) {
      const id = newId();
      loans.push({
        id, organisationId: org.id, mode: 'test' as const, borrowerId, loanProductId: product.id, preapprovalId: null, status: 'active', approvalMode: 'partner_pushed', kycTier: 'delegated',
        settlementDestination: 'borrower_bank_account', capitalPoolCode: 'MAIN', currency: 'NGN', tenorDays: 90, repaymentFrequency: 'monthly', interestRateBps: 3600,
        amountRequestedKobo: 1_000_000, principalKobo: 1_000_000, principalBalanceKobo: 1_000_000, amountPaidKobo: 0, outstandingKobo: 1_090_000, disbursedAmountKobo: 1_000_000,
        disbursedAt: at, disbursementReference: null, approvedAt: at, approvalNotes: null, rejectionReason: null, termsAcceptedAt: at, offerLetterIssuedAt: at, pricingSnapshotId: null,
        documentReference: null, offerVersion: 1, activeMandateId: null, hasActiveMandate: false, applicationUrl: null, clientReference: null, metadata: null, cancelledBy: null,
        cancellationReason: null, cancelledAt: null, declineReason: null, inArrears: false, arrearsSince: null, createdAt: at, updatedAt: at,
      });
      repayments.push({
        id: newId(), organisationId: org.id, mode: 'test' as const, loanId: id, borrowerId, reference: `RPY-${newId()}`, method: 'external', status: 'completed', amountKobo: 50_000, unallocatedKobo: 0,
        feePortionKobo: 10_000, interestPortionKobo: 20_000, principalPortionKobo: 20_000, externalReference: null, ledgerTransactionRef: null, completedAt: at, settlementId: null, initiatedBy: 'partner', createdAt: at, updatedAt: at,
      });
    }
    for (let i = 0; i < loans.length; i += 10) await db.insertInto('loans').values(loans.slice(i, i + 10)).execute();
    for (let i = 0; i < repayments.length; i += 20) await db.insertInto('loanRepayments').values(repayments.slice(i, i + 20)).execute();
  }
  const t = performance.now();
  const { statement } = await runSettlement(db, { organisationId: org.id, mode: 'test', until: now, now });
  const ms = performance.now() - t;
  console.log(`\n${label}: settlement run over ${statement.lines!.length} loans: ${ms.toFixed(0)} ms (target < 5000 ms), swept ${statement.totalSweptKobo} kobo`);
  await platform.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

export async function repayments(): Promise<void> {
  const serverJs = 'dist/bench/api-server.js';
  await build({ entryPoints: ['test/bench/api-server.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile: serverJs, logLevel: 'warning' });
  const sqlite = await startServer(serverJs, {});
  await repaymentLoad('SQLite', sqlite);
  sqlite.child.kill('SIGTERM');
  await new Promise((r) => sqlite.child.once('exit', r));
  await settlementRun('SQLite', {});

  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const admin = new pg.Client({ connectionString: url });
  try {
    await admin.connect();
    for (const step of ['load', 'settle'] as const) {
      const schema = `bench_${crypto.randomBytes(4).toString('hex')}`;
      await admin.query(`create schema ${schema}`);
      const schemaUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      if (step === 'load') {
        const postgres = await startServer(serverJs, { DATABASE_URL: schemaUrl, DATABASE_POOL_SIZE: '20' });
        await repaymentLoad('PostgreSQL', postgres);
        postgres.child.kill('SIGTERM');
        await new Promise((r) => postgres.child.once('exit', r));
      } else {
        await settlementRun('PostgreSQL', { DATABASE_URL: schemaUrl }, schema);
      }
      await admin.query(`drop schema ${schema} cascade`);
    }
  } catch (error) {
    console.log(`\nPostgreSQL: skipped (${(error as Error).message})`);
  } finally {
    await admin.end().catch(() => undefined);
  }
}
