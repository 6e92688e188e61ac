import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { sql } from 'kysely';
import { fromJson, type Db } from '../../server/platform/db/database';
import { client, pushBody, type Tenant, type TestApp } from './harness';
import { consentFor } from './lifecycle';

const exec = promisify(execFile);

/** The `npm run admin` bundle (same esbuild settings), built into a private folder inside the project. */
export async function buildAdminCli(tag: string): Promise<{ file: string; run(env: Record<string, string>, ...args: string[]): Promise<CliResult>; remove(): void }> {
  const file = path.resolve('dist', `test-cli-${tag}`, 'admin.js');
  await build({ entryPoints: ['server/cli/admin.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile: file, logLevel: 'warning' });
  return {
    file,
    async run(env, ...args) {
      const result = await exec(process.execPath, [file, ...args, '--json'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, timeout: 60_000 }).catch((e) => e);
      const stdout = String(result.stdout ?? '');
      const lines = stdout.trim().split('\n').filter(Boolean);
      if (lines.length !== 1) throw new Error(`admin ${args.join(' ')}: stdout must hold exactly one JSON object: ${stdout}\n${result.stderr ?? ''}`);
      return { code: result.code ?? 0, json: JSON.parse(lines[0]!), stderr: String(result.stderr ?? '') };
    },
    remove: () => fs.rmSync(path.dirname(file), { recursive: true, force: true }),
  };
}

export interface CliResult {
  code: number;
  json: any;
  stderr: string;
}

/** The migration names the code ships (one file each); a database is current when it has run exactly these. */
export function shippedMigrations(): string[] {
  return fs
    .readdirSync(path.resolve('server/platform/db/migrations'))
    .filter((f) => /^\d{4}-.+\.ts$/.test(f))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort();
}

export async function appliedMigrations(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((r) => r.name);
}

interface Timed {
  /** Push request sent / answered (epoch ms, Date.now(): comparable with another process's times). */
  sentAt: number;
  answeredAt: number;
}

export interface LoadReport {
  /** Pre-approvals pushed and answered 202, with when. */
  pushes: Array<Timed & { preapprovalId: string }>;
  /** Every write answered (any step), with when. */
  writes: Timed[];
  /** Loans taken through the whole scripted lifecycle. */
  loansDone: number;
  /** Any answer that was not the expected success status: must stay empty. */
  failures: string[];
}

/**
 * A bounded write load through the partner API: workers each loop push → issue offer → accept →
 * disburse → repay the first instalment → (every other loan) repay the rest, each step a committed
 * transaction with ledger postings and outbox events. Stops on `stop()`, after `maxLoans` loans or
 * at `deadlineMs`, whichever comes first.
 */
export function startWriteLoad(app: TestApp, tenant: Tenant, options: { workers?: number; maxLoans?: number; deadlineMs?: number } = {}) {
  const api = client(app, tenant.test);
  const report: LoadReport = { pushes: [], writes: [], loansDone: 0, failures: [] };
  const maxLoans = options.maxLoans ?? 400;
  const deadline = Date.now() + (options.deadlineMs ?? 60_000);
  let stopped = false;
  let started = 0;
  const more = () => !stopped && report.failures.length === 0 && started < maxLoans && Date.now() < deadline;

  async function step(label: string, expected: number, call: () => Promise<{ status: number; body: any }>) {
    const sentAt = Date.now();
    const res = await call();
    const answeredAt = Date.now();
    report.writes.push({ sentAt, answeredAt });
    if (res.status !== expected) {
      report.failures.push(`${label}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      return null;
    }
    return { body: res.body, sentAt, answeredAt };
  }

  async function worker() {
    while (more()) {
      const n = started++;
      const pushed = await step('push', 202, () => api.post('/v1/preapprovals', pushBody({ amount: '100000' })));
      if (!pushed) return;
      const preapprovalId = pushed.body.data.preapprovalId as string;
      report.pushes.push({ preapprovalId, sentAt: pushed.sentAt, answeredAt: pushed.answeredAt });
      const offered = await step('issue-offer', 200, () => api.post(`/v1/preapprovals/${preapprovalId}/issue-offer`, {}));
      if (!offered) return;
      const loan = offered.body.data;
      if (!(await step('accept', 200, () => api.post(`/v1/loans/${loan.id}/accept-terms`, { consent: consentFor(loan.documentReference) })))) return;
      const disbursed = await step('disburse', 200, () => api.post(`/v1/loans/${loan.id}/disburse`));
      if (!disbursed) return;
      const schedule = (await api.get(`/v1/loans/${loan.id}/schedule`)).body.data;
      if (!(await step('repay', 201, () => api.post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: schedule[0].totalKobo })))) return;
      if (n % 2 === 0) {
        const left = (await api.get(`/v1/loans/${loan.id}`)).body.data.outstandingKobo;
        if (!(await step('pay off', 201, () => api.post(`/v1/loans/${loan.id}/repayments`, { method: 'external', amountKobo: left })))) return;
      }
      report.loansDone += 1;
    }
  }

  const running = Promise.all(Array.from({ length: options.workers ?? 4 }, () => worker()));
  return {
    report,
    /** Resolves once `n` loans have gone through the lifecycle (or the load ended). */
    async waitForLoans(n: number) {
      while (report.loansDone < n && more()) await new Promise((r) => setTimeout(r, 20));
    },
    async stop(): Promise<LoadReport> {
      stopped = true;
      await running;
      return report;
    },
  };
}

/**
 * Cross-table facts a torn copy would break: every loan and its ledger postings, events and
 * repayments agree (a disbursed loan has its DSB transaction and its `loan.disbursed` event and an
 * undisbursed one has neither; a completed repayment has its ledger transaction and its event;
 * `amountPaidKobo` is the sum of the completed repayments; every event names a loan that exists).
 * Returns the loans and a list of every inconsistency found (empty when consistent).
 */
export async function snapshotConsistency(db: Db, organisationId: string) {
  const loans = await db.selectFrom('loans').selectAll().where('organisationId', '=', organisationId).execute();
  const repayments = await db.selectFrom('loanRepayments').selectAll().where('organisationId', '=', organisationId).execute();
  const refs = new Set((await db.selectFrom('ledgerTransactions').select('reference').where('organisationId', '=', organisationId).execute()).map((r) => r.reference));
  const events = (await db.selectFrom('events').select(['name', 'payload']).where('organisationId', '=', organisationId).execute()).map((e) => ({
    name: e.name,
    data: fromJson<Record<string, any>>(e.payload) ?? {},
  }));
  const preapprovals = await db.selectFrom('preapprovals').select(['id', 'loanId']).where('organisationId', '=', organisationId).execute();
  const problems: string[] = [];
  const loanIds = new Set(loans.map((l) => l.id));
  const eventsOf = (loanId: string, name?: string) => events.filter((e) => e.data.loanId === loanId && (name === undefined || e.name === name));
  for (const loan of loans) {
    if (eventsOf(loan.id).length === 0) problems.push(`loan ${loan.id} has no event`);
    const dsb = `DSB-${loan.id}`;
    if (loan.disbursedAt) {
      if (!refs.has(dsb)) problems.push(`loan ${loan.id} disbursed without its ledger transaction`);
      if (eventsOf(loan.id, 'loan.disbursed').length !== 1) problems.push(`loan ${loan.id} disbursed with ${eventsOf(loan.id, 'loan.disbursed').length} loan.disbursed events`);
    } else {
      if (refs.has(dsb)) problems.push(`loan ${loan.id} not disbursed but its ledger transaction exists`);
      if (eventsOf(loan.id, 'loan.disbursed').length > 0) problems.push(`loan ${loan.id} not disbursed but has a loan.disbursed event`);
    }
    const completed = repayments.filter((r) => r.loanId === loan.id && r.status === 'completed');
    const paid = completed.reduce((sum, r) => sum + Number(r.amountKobo), 0);
    if (Number(loan.amountPaidKobo) !== paid) problems.push(`loan ${loan.id} amountPaidKobo ${loan.amountPaidKobo} ≠ completed repayments ${paid}`);
    if (loan.status === 'completed' && (Number(loan.outstandingKobo) !== 0 || eventsOf(loan.id, 'loan.completed').length !== 1)) {
      problems.push(`loan ${loan.id} completed with outstanding ${loan.outstandingKobo} or without one loan.completed event`);
    }
  }
  for (const r of repayments) {
    if (!loanIds.has(r.loanId)) problems.push(`repayment ${r.id} of a missing loan`);
    if (r.status !== 'completed') continue;
    if (!r.ledgerTransactionRef || !refs.has(r.ledgerTransactionRef)) problems.push(`repayment ${r.id} completed without its ledger transaction`);
    if (events.filter((e) => e.name === 'loan.repayment.completed' && e.data.repaymentId === r.id).length !== 1) problems.push(`repayment ${r.id} completed without exactly one event`);
  }
  const repaymentIds = new Set(repayments.map((r) => r.id));
  for (const e of events) {
    if (e.data.loanId && !loanIds.has(e.data.loanId)) problems.push(`event ${e.name} of a missing loan ${e.data.loanId}`);
    if (e.name === 'loan.repayment.completed' && !repaymentIds.has(e.data.repaymentId)) problems.push(`event for a missing repayment ${e.data.repaymentId}`);
  }
  for (const p of preapprovals) if (p.loanId && !loanIds.has(p.loanId)) problems.push(`pre-approval ${p.id} names a missing loan`);
  return { loans, repayments, preapprovals, problems };
}
