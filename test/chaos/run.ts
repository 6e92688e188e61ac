/**
 * `npm run chaos`: the fault-injection suite. On its own PostgreSQL cluster and Redis
 * server, two API processes and two worker processes of the `npm start` bundle run behind a
 * loopback round-robin proxy, with a loopback webhook receiver and the sandbox rail. Seeded clients
 * run a random lending workload and retry with the same Idempotency-Key on any network error, while
 * a random process is SIGKILLed (and started again) every few seconds, PostgreSQL is crashed and
 * restarted once and Redis is stopped once. Then the faults stop, the work drains, and the books
 * are checked (see invariants.ts). Prints the faults injected, the operations done and each check;
 * exits 1 when a check failed.
 *
 * Options (flags or environment): --profile short|full (CHAOS_PROFILE; short = 75 s of faults, for
 * CI; full = 10 minutes), --seconds N (CHAOS_SECONDS), --seed N (CHAOS_SEED; default: the time),
 * --clients N (CHAOS_CLIENTS), --report FILE (a JSON summary, for CI's count of checks).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { loadConfig } from '../../server/config';
import { createPlatform } from '../../server/platform/platform';
import { createLogger } from '../../server/platform/log/create-logger';
import { createOrganisation, configureOrganisation } from '../../server/platform/domain/organisations/organisation';
import { createApiKey } from '../../server/platform/domain/api-keys/api-key';
import { createProduct } from '../../server/platform/domain/products/product';
import { fundPool } from '../../server/platform/domain/pools/pool';
import { inUnitOfWork } from '../../server/platform/domain/unit-of-work';
import { CHARGE_SENDING } from '../../server/platform/domain/repayments/collect-mandates';
import { startPostgres, startRedis } from './services';
import { startCluster } from './cluster';
import { startReceiver } from './receiver';
import { PartnerClient } from './http-client';
import { newTally, pick, rngFor, runClient } from './workload';
import { checkInvariants, guardBreaches, type Check } from './invariants';

const { values: flags } = parseArgs({
  options: { profile: { type: 'string' }, seconds: { type: 'string' }, seed: { type: 'string' }, clients: { type: 'string' }, report: { type: 'string' } },
  strict: true,
});
const profile = flags.profile ?? process.env.CHAOS_PROFILE ?? 'full';
if (profile !== 'short' && profile !== 'full') throw new Error('--profile: short or full');
const SECONDS = Number(flags.seconds ?? process.env.CHAOS_SECONDS ?? (profile === 'short' ? 75 : 600));
const SEED = Number(flags.seed ?? process.env.CHAOS_SEED ?? Date.now() % 2 ** 31);
const CLIENTS = Number(flags.clients ?? process.env.CHAOS_CLIENTS ?? 6);
const MASTER_KEY = 'chaos-master-key-0123456789abcdef0123456789';

const started = Date.now();
const log = (line: string) => process.stdout.write(`[chaos ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const faults = new Map<string, number>();
const fault = (name: string) => faults.set(name, (faults.get(name) ?? 0) + 1);

/** Runs a harness database step again while PostgreSQL is down (the harness is a client like any other). */
async function persistently<T>(what: string, work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 120) throw new Error(`${what}: ${(error as Error).message}`);
      await sleep(500);
    }
  }
}

async function main(): Promise<number> {
  log(`profile ${profile}: ${SECONDS} s of faults, ${CLIENTS} clients, seed ${SEED}`);
  const rng = rngFor(SEED);
  const outDir = path.resolve('dist', `chaos-${process.pid}`);
  await build({ entryPoints: ['server/main.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outdir: outDir, logLevel: 'warning' });

  const postgres = await startPostgres();
  const redis = await startRedis();
  log(`PostgreSQL on port ${postgres.port}, Redis at ${redis.url}`);
  const baseEnv = { DATABASE_URL: postgres.url, MASTER_KEY, LOG_LEVEL: 'warn', BOOTSTRAP_SANDBOX: 'false', DATA_DIR: path.join(outDir, 'data') };
  const platform = await createPlatform(loadConfig({ ...baseEnv, PORT: '0' }), { logger: createLogger('silent') });
  const db = platform.db;
  const cleanups: Array<() => Promise<unknown>> = [async () => fs.rmSync(outDir, { recursive: true, force: true }), () => redis.close(), () => postgres.stop(), () => platform.close()];
  try {
    // The partner: an organisation, a test key, a partner-pushed product paying to bank accounts, a pool that runs dry.
    const now = new Date();
    const org = await createOrganisation(db, { name: 'Chaos Lender', now });
    const key = await createApiKey(db, platform.secrets, { organisationId: org.id, mode: 'test', now });
    const product = await createProduct(db, {
      organisationId: org.id,
      input: {
        code: 'CHAOS', name: 'Chaos loan', kycTier: 'delegated', approvalMode: 'partner_pushed', interestModel: 'flat', interestRateBps: 3600,
        minAmountKobo: 100_000, maxAmountKobo: 100_000_000, minTenorDays: 7, maxTenorDays: 365, settlementDestination: 'borrower_bank_account',
        capitalPoolCode: 'MAIN', insuranceMode: 'automatic', insurancePremiumBps: 50, processingFeeBps: 100,
      },
      now,
    });
    await configureOrganisation(db, org.id, { defaultPreapprovalProductId: product.id, maxInterestRateBps: 6000, autoIssueOffers: false }, now);
    const topUp = (naira: number) => inUnitOfWork(db, (trx) => fundPool(trx, { organisationId: org.id, mode: 'test', code: 'MAIN', amountKobo: naira * 100, now: new Date() }));
    await topUp(1_000_000);

    const cluster = await startCluster(path.join(outDir, 'main.js'), {
      ...baseEnv,
      REDIS_URL: redis.url,
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      RATE_LIMIT_READS: '10000000',
      RATE_LIMIT_WRITES: '10000000',
      IDEMPOTENCY_LOCK_TIMEOUT_SECONDS: '5',
      COLLECTION_INTERVAL_MS: '500',
      SETTLEMENT_INTERVAL_MS: '1000',
      EXPIRY_SWEEP_INTERVAL_MS: '1000',
      ARREARS_SWEEP_INTERVAL_MS: '1000',
      WEBHOOK_POLL_INTERVAL_MS: '100',
      WEBHOOK_LEASE_MS: '3000',
      WEBHOOK_TIMEOUT_MS: '2000',
      RAIL_CHARGE_LAG_MS: '300',
      SHUTDOWN_GRACE_MS: '2000',
      DATABASE_POOL_SIZE: '8',
    }, { api: 2, worker: 2 });
    cleanups.unshift(() => cluster.stop());
    await cluster.allUp(60_000);
    log(`${cluster.members.map((m) => m.name).join(', ')} up; proxy at ${cluster.proxyUrl}`);

    // The partner's webhook endpoint refuses about one first attempt in ten (429 or 500), so retries run under the faults too.
    const receiverRng = rngFor(SEED + 1);
    const receiver = await startReceiver((_delivery, attempt) => (attempt === 1 && pick(receiverRng, 1, 10) === 1 ? (pick(receiverRng, 0, 1) ? 429 : 500) : 0));
    cleanups.unshift(() => receiver.close());
    const headers = { 'X-API-Public-Key': key.publicKey, 'X-API-Secret-Key': key.secretKey };
    const admin = new PartnerClient(cluster.proxyUrl, headers);
    const endpoint = await admin.write('/v1/webhook-endpoints', { url: receiver.url, description: 'chaos receiver' });
    if (endpoint.status !== 201) throw new Error(`webhook endpoint: ${endpoint.status} ${endpoint.text}`);

    // Guards sampled all along.
    let sampling = true;
    let guardSamples = 0;
    const guardBreachesSeen: string[] = [];
    const sampler = (async () => {
      while (sampling) {
        try {
          guardBreachesSeen.push(...(await guardBreaches(db)));
          guardSamples += 1;
        } catch {
          /* PostgreSQL restarting */
        }
        await sleep(250);
      }
    })();

    const tally = newTally();
    const deadline = Date.now() + SECONDS * 1000;
    const faultsOn = () => Date.now() < deadline;
    const settledRepaymentIds: string[] = [];

    // The faults and the harness's own timed steps.
    const injector = (async () => {
      const t0 = Date.now();
      let postgresDone = false;
      let redisDone = false;
      let settleDone = false;
      let nextTopUp = t0 + 10_000;
      let nextKill = t0 + pick(rng, 2_000, 5_000);
      while (faultsOn()) {
        const elapsed = (Date.now() - t0) / (SECONDS * 1000);
        if (Date.now() >= nextKill) {
          const victim = cluster.members[pick(rng, 0, cluster.members.length - 1)]!;
          const restartAfter = pick(rng, 200, 1_500);
          if (victim.up) {
            await cluster.kill(victim, restartAfter);
            fault(`SIGKILL ${victim.role}`);
            log(`SIGKILL ${victim.name}, restart in ${restartAfter} ms`);
          }
          nextKill = Date.now() + pick(rng, 2_000, 5_000);
        }
        if (!settleDone && elapsed >= 0.3) {
          settleDone = true;
          // A day passes for what was repaid so far: the workers' settlement now has a whole UTC day to settle.
          const yesterday = new Date(Date.now() - 86_400_000).toISOString();
          const moved = await persistently('move repayments to yesterday', () =>
            db.updateTable('loanRepayments').set({ completedAt: yesterday }).where('organisationId', '=', org.id).where('status', '=', 'completed').where('settlementId', 'is', null).returning('id').execute(),
          );
          settledRepaymentIds.push(...moved.map((m) => m.id));
          log(`${moved.length} completed repayments moved to yesterday for the settlement workers`);
        }
        if (!postgresDone && elapsed >= 0.45) {
          postgresDone = true;
          log('PostgreSQL: crash (immediate stop) and restart');
          await postgres.crashRestart();
          fault('PostgreSQL crash-restart');
        }
        if (!redisDone && elapsed >= 0.65) {
          redisDone = true;
          log('Redis: stopped for 3 s');
          await redis.stop();
          fault('Redis stop');
          setTimeout(() => void redis.start().then(() => log('Redis: started again')), 3_000);
        }
        if (Date.now() >= nextTopUp) {
          nextTopUp = Date.now() + 10_000;
          await persistently('pool top-up', () => topUp(1_000_000)).then(() => tally.operations.set('pool top-up', (tally.operations.get('pool top-up') ?? 0) + 1));
        }
        await sleep(100);
      }
    })();

    const clients = Array.from({ length: CLIENTS }, () => new PartnerClient(cluster.proxyUrl, headers));
    const hooks = {
      makeDue: (loanId: string) =>
        persistently('make an instalment due', async () => {
          await db.updateTable('loanScheduleItems').set({ dueDate: new Date(Date.now() - 60_000).toISOString() }).where('loanId', '=', loanId).where('installmentNumber', '=', 1).execute();
        }),
    };
    const failures: string[] = [];
    await Promise.all(
      clients.map((client, i) =>
        runClient(client, rngFor(SEED + 100 + i), tally, hooks, () => !faultsOn()).catch((error) => {
          failures.push(String(error));
        }),
      ),
    );
    await injector;
    log(`workload stopped; waiting for every process, then the drain`);
    await cluster.allUp(60_000);
    receiver.acceptAll();

    // Drain: deliveries sent, mandate charges decided, made-due instalments collected, the day settled.
    const drainDeadline = Date.now() + 120_000;
    let drained = false;
    while (Date.now() < drainDeadline) {
      const pendingDeliveries = await db.selectFrom('webhookDeliveries').select('id').where('organisationId', '=', org.id).where('status', 'in', ['pending', 'delivering']).execute();
      const unfanned = await db.selectFrom('events').select('id').where('organisationId', '=', org.id).where('fannedOutAt', 'is', null).execute();
      const pendingCharges = await db.selectFrom('loanRepayments').select('id').where('organisationId', '=', org.id).where('status', '=', 'pending').execute();
      // A made-due instalment ends paid, or refused by the rail (a failed charge, retried only a day later).
      const uncollected = tally.collectLoans.length
        ? await db
            .selectFrom('loanScheduleItems as s')
            .select('s.id')
            .where('s.loanId', 'in', tally.collectLoans)
            .where('s.installmentNumber', '=', 1)
            .where('s.status', '!=', 'paid')
            .where(({ not, exists, selectFrom }) =>
              not(
                exists(
                  selectFrom('loanRepayments as r')
                    .select('r.id')
                    .whereRef('r.loanId', '=', 's.loanId')
                    .where('r.method', '=', 'mandate')
                    // Refused by the rail, or claimed by a worker that was killed mid-send (taken over after the 5-minute lease).
                    .where((eb) => eb.or([eb('r.status', '=', 'failed'), eb.and([eb('r.status', '=', 'pending'), eb('r.failureReason', '=', CHARGE_SENDING)])])),
                ),
              ),
            )
            .execute()
        : [];
      const unsettled = settledRepaymentIds.length
        ? await db.selectFrom('loanRepayments').select('id').where('id', 'in', settledRepaymentIds).where('settlementId', 'is', null).execute()
        : [];
      if (!pendingDeliveries.length && !unfanned.length && !pendingCharges.length && !uncollected.length && !unsettled.length) {
        drained = true;
        break;
      }
      await sleep(500);
    }
    log(drained ? 'drained' : 'drain timed out (the checks below say what is left)');
    sampling = false;
    await sampler;

    const ledger = await checkLedgerWithCli(outDir, baseEnv);
    const checks: Check[] = await checkInvariants({ db, organisationId: org.id, clients, tally, receiver, ledgerCheck: ledger, guardSamples, guardBreachesSeen, settledRepaymentIds });
    if (failures.length) checks.push({ name: 'every client finished', ok: false, detail: failures.slice(0, 3).join('; ') });

    // The figures.
    const table = (title: string, rows: Array<[string, number | string]>) => {
      process.stdout.write(`\n${title}\n`);
      for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(44)} ${v}\n`);
    };
    table('faults injected', [...faults].sort());
    table('processes', cluster.members.map((m) => [`${m.name} (starts / own exits / died while up)`, `${m.starts} / ${m.ownExits} / ${m.diedWhileUp}`]));
    const retryCauses = new Map<string, number>();
    for (const c of [admin, ...clients]) for (const [k, v] of c.retryCauses) retryCauses.set(k, (retryCauses.get(k) ?? 0) + v);
    table('client retries (same Idempotency-Key), by cause', [...retryCauses].sort());
    table('operations done', [...tally.operations].sort());
    table('expected refusals', [...tally.refusals].sort());
    const statements = await db.selectFrom('settlementStatements').select('id').where('organisationId', '=', org.id).execute();
    table('work of the workers', [
      ['webhook attempts received', receiver.attempts.length],
      ['events delivered', receiver.delivered.size],
      ['mandate charges at the rail', (await db.selectFrom('sandboxRailCharges').select('reference').execute()).length],
      ['settlement statements', statements.length],
    ]);
    const diedWhileUp = cluster.members.reduce((s, m) => s + m.diedWhileUp, 0);
    checks.push({ name: 'no process died by itself while serving', ok: diedWhileUp === 0, detail: cluster.members.filter((m) => m.diedWhileUp).map((m) => `${m.name}: ${m.log.join('').slice(-600)}`).join('\n') || 'none' });
    process.stdout.write('\ninvariants\n');
    for (const c of checks) process.stdout.write(`  ${c.ok ? 'PASS' : 'FAIL'}  ${c.name}\n        ${c.detail}\n`);
    const failed = checks.filter((c) => !c.ok).length;
    process.stdout.write(`\nchaos: ${checks.length - failed} passed, ${failed} failed (seed ${SEED}, ${SECONDS} s of faults, ${((Date.now() - started) / 1000).toFixed(0)} s in all)\n`);
    if (flags.report) fs.writeFileSync(flags.report, JSON.stringify({ seed: SEED, seconds: SECONDS, passed: checks.length - failed, failed, checks, faults: Object.fromEntries(faults), operations: Object.fromEntries(tally.operations) }, null, 2));
    admin.close();
    for (const c of clients) c.close();
    return failed === 0 ? 0 : 1;
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((error) => log(`cleanup: ${(error as Error).message}`));
  }
}

/** `admin ledger check --json`, the operator's command, run as a process against the cluster's database. */
async function checkLedgerWithCli(outDir: string, env: Record<string, string>): Promise<{ ok: boolean }> {
  await build({ entryPoints: ['server/cli/admin.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outdir: path.join(outDir, 'cli'), logLevel: 'warning' });
  const { execFileSync } = await import('node:child_process');
  const out = execFileSync(process.execPath, [path.join(outDir, 'cli', 'admin.js'), 'ledger', 'check', '--json'], { env: { ...process.env, ...env, LOG_LEVEL: 'silent' }, encoding: 'utf8' });
  return JSON.parse(out);
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`chaos: ${(error as Error).stack ?? error}\n`);
    process.exit(2);
  },
);
