import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/platform/db/database';
import { startTestApp, TEST_MASTER_KEY, type TestApp } from '../support/harness';
import { lendingTenant } from '../support/lifecycle';
import { appliedMigrations, buildAdminCli, shippedMigrations, snapshotConsistency, startWriteLoad } from '../support/backup';

/**
 * The documented PostgreSQL procedure (docs/scale/backups.md): `pg_dump --format=custom` taken while
 * the API keeps writing, `pg_restore` into a fresh database, then the checks the document asks for:
 * migrations current, `admin ledger check` balanced, and the rows one consistent snapshot. The test
 * app lives in its own schema of the test database, so the dump names that schema (`--schema`);
 * a deployment dumps the whole database. The fresh database is created here and dropped at the end.
 */
const exec = promisify(execFile);
let app: TestApp;
let cli: Awaited<ReturnType<typeof buildAdminCli>>;
let work: string;
let restoreDb: string | undefined;
const baseUrl = process.env.TEST_DATABASE_URL!;

function urlFor(database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** The path of a program on PATH, or null. */
function which(program: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

beforeAll(async () => {
  app = await startTestApp({ env: { DATABASE_POOL_SIZE: '20', RATE_LIMIT_WRITES: '100000', RATE_LIMIT_READS: '100000' } });
  cli = await buildAdminCli(`backup-pg-${path.basename(app.dataDir)}`);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'lending-pgdump-'));
});
afterAll(async () => {
  cli?.remove();
  if (work) fs.rmSync(work, { recursive: true, force: true });
  if (restoreDb) await admin((c) => c.query(`drop database if exists "${restoreDb}" with (force)`));
  await app?.stop();
});

describe('pg_dump / pg_restore under write load', { timeout: 180_000 }, () => {
  it('a custom-format dump taken while the API writes restores into a fresh database: migrations current, ledger check balanced, one consistent snapshot', async () => {
    // Not a skip: a machine without the client tools cannot run the documented procedure, and says so.
    const pgDump = which('pg_dump');
    const pgRestore = which('pg_restore');
    expect(pgDump, 'pg_dump is not on PATH (Debian: apt-get install postgresql-client)').toBeTruthy();
    expect(pgRestore, 'pg_restore is not on PATH (Debian: apt-get install postgresql-client)').toBeTruthy();
    const schema = app.pgSchema!;

    const tenant = await lendingTenant(app, { poolKobo: 100_000_000_000 });
    const load = startWriteLoad(app, tenant, { workers: 4, maxLoans: 400, deadlineMs: 120_000 });
    await load.waitForLoans(15);
    const dumpFile = path.join(work, 'lending.dump');
    const dumpStarted = Date.now();
    const dumped = await exec(pgDump!, ['--format=custom', `--schema=${schema}`, `--file=${dumpFile}`, `--dbname=${baseUrl}`], { timeout: 120_000 }).catch((e) => e);
    const dumpEnded = Date.now();
    const loansAtDumpEnd = load.report.loansDone;
    await load.waitForLoans(loansAtDumpEnd + 15);
    const report = await load.stop();
    expect(report.failures).toEqual([]);
    expect(dumped.code ?? 0, String(dumped.stderr)).toBe(0);
    expect(fs.statSync(dumpFile).size).toBeGreaterThan(0);
    expect(report.writes.filter((w) => w.sentAt > dumpStarted && w.answeredAt < dumpEnded).length, 'writes answered while pg_dump ran').toBeGreaterThan(0);

    // A fresh database, then pg_restore as documented.
    restoreDb = `${new URL(baseUrl).pathname.slice(1)}_restore_${crypto.randomBytes(4).toString('hex')}`;
    await admin((c) => c.query(`create database "${restoreDb}"`));
    const restored = await exec(pgRestore!, ['--no-owner', '--exit-on-error', `--dbname=${urlFor(restoreDb)}`, dumpFile], { timeout: 120_000 }).catch((e) => e);
    expect(restored.code ?? 0, String(restored.stderr)).toBe(0);

    const handle = openDatabase({ databaseUrl: urlFor(restoreDb), pgSchema: schema });
    try {
      // Nothing has migrated the restored database: what it holds is what the dump held.
      expect(await appliedMigrations(handle.db)).toEqual(shippedMigrations());
      const snapshot = await snapshotConsistency(handle.db, tenant.organisationId);
      expect(snapshot.problems).toEqual([]);
      // pg_dump reads one snapshot taken as it starts: every push answered before it ran is in the
      // dump, none sent after it ended.
      const ids = new Set(snapshot.preapprovals.map((p) => p.id));
      const before = report.pushes.filter((p) => p.answeredAt < dumpStarted);
      const after = report.pushes.filter((p) => p.sentAt > dumpEnded);
      expect(before.length).toBeGreaterThanOrEqual(15);
      expect(after.length).toBeGreaterThan(0);
      expect(before.filter((p) => !ids.has(p.preapprovalId))).toEqual([]);
      expect(after.filter((p) => ids.has(p.preapprovalId))).toEqual([]);
      expect(snapshot.loans.filter((l) => l.disbursedAt).length).toBeGreaterThanOrEqual(15);
      expect(snapshot.repayments.length).toBeGreaterThan(0);
      const live = await app.platform.db.selectFrom('loans').select('id').where('organisationId', '=', tenant.organisationId).execute();
      expect(snapshot.loans.length).toBeLessThan(live.length);
    } finally {
      await handle.close();
    }

    const restoredUrl = `${urlFor(restoreDb)}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const ledger = await cli.run({ DATABASE_URL: restoredUrl, DATA_DIR: work, MASTER_KEY: TEST_MASTER_KEY }, 'ledger', 'check');
    expect(ledger.code, ledger.stderr).toBe(0);
    expect(ledger.json).toMatchObject({ ok: true, ledgerSumKobo: 0, unbalancedTransactions: [], balanceMismatches: [], negativeGuardedAccounts: [] });
    expect(ledger.json.transactions).toBeGreaterThan(30);
    const liveLedger = await cli.run(app.env, 'ledger', 'check');
    expect(liveLedger.json.ok).toBe(true);
    expect(liveLedger.json.transactions).toBeGreaterThan(ledger.json.transactions);
  });
});
