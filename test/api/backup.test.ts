import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { startWebServer } from '../../server/app';
import { createPlatform } from '../../server/platform/platform';
import { openDatabase } from '../../server/platform/db/database';
import { createLogger } from '../../server/platform/log/create-logger';
import { client, dialect, startTestApp, TEST_MASTER_KEY, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';
import { appliedMigrations, buildAdminCli, shippedMigrations, snapshotConsistency, startWriteLoad } from '../support/backup';

/**
 * `admin backup --to FILE` (SQLite's online backup API) taken while the server keeps writing, then
 * restored the documented way (stop, copy the file into an empty DATA_DIR, start) and checked:
 * migrations current, `admin ledger check` balanced, every loan consistent with its postings and
 * events, every write answered before the backup inside it. On PostgreSQL the command refuses and
 * points to pg_dump (test/postgres/backup-pg.test.ts restores a pg_dump).
 */
let app: TestApp;
let cli: Awaited<ReturnType<typeof buildAdminCli>>;
const scratch: string[] = [];
beforeAll(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_WRITES: '100000', RATE_LIMIT_READS: '100000' } });
  cli = await buildAdminCli(`backup-${path.basename(app.dataDir)}`);
});
afterAll(async () => {
  cli?.remove();
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
  await app?.stop();
});

function scratchDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lending-backup-'));
  scratch.push(dir);
  return dir;
}

const admin = (...args: string[]) => cli.run(app.env, ...args);

/** Runs `admin backup` as a child process and tells when the process started and ended (epoch ms). */
function timedBackup(to: string): Promise<{ code: number | null; json: any; stderr: string; startedAt: number; endedAt: number }> {
  return new Promise((resolve, reject) => {
    const startedAt = Date.now();
    const child = spawn(process.execPath, [cli.file, 'backup', '--to', to, '--json'], {
      env: { ...process.env, ...app.env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      try {
        resolve({ code, json: JSON.parse(stdout.trim()), stderr, startedAt, endedAt: Date.now() });
      } catch {
        reject(new Error(`admin backup printed no JSON: ${stdout}\n${stderr}`));
      }
    });
  });
}

if (dialect === 'postgres') {
  describe('admin backup on PostgreSQL', () => {
    it('refuses with BACKUP_USE_PG_DUMP, names pg_dump and the documented procedure, writes no file', async () => {
      const target = path.join(scratchDir(), 'never.sqlite');
      const refused = await admin('backup', '--to', target);
      expect(refused.code).toBe(2);
      expect(refused.json.error).toBe('BACKUP_USE_PG_DUMP');
      expect(refused.json.message).toContain('pg_dump --format=custom');
      expect(refused.json.message).toContain('docs/scale/backups.md');
      expect(fs.existsSync(target)).toBe(false);
      expect(fs.existsSync(path.resolve('docs/scale/backups.md'))).toBe(true);
    });
  });
} else {
  describe('admin backup on SQLite', { timeout: 120_000 }, () => {
    let tenant: LendingTenant;
    beforeAll(async () => {
      tenant = await lendingTenant(app, { poolKobo: 100_000_000_000 });
    });

    it('answers {file, bytes, pages, durationMs} and what a restore also needs; refuses an existing file without --force, replaces it with --force; refuses the live file', async () => {
      const dir = scratchDir();
      const target = path.join(dir, 'first.sqlite');
      const first = await admin('backup', '--to', target);
      expect(first.code).toBe(0);
      expect(first.json).toMatchObject({ file: target, bytes: fs.statSync(target).size, pages: expect.any(Number), durationMs: expect.any(Number) });
      expect(first.json.bytes).toBe(first.json.pages * 4096);
      expect(first.json.restore.masterKey).toContain('MASTER_KEY');
      expect(first.json.restore.files).toContain(path.join(app.dataDir, 'files'));
      expect(first.json.restore.procedure).toBe('docs/scale/backups.md');
      // One self-contained file: nothing left beside it (no -wal, -shm, -journal or partial copy).
      expect(fs.readdirSync(dir)).toEqual(['first.sqlite']);

      fs.writeFileSync(target, 'keep me');
      const refused = await admin('backup', '--to', target);
      expect(refused.code).toBe(2);
      expect(refused.json.error).toBe('BACKUP_TARGET_EXISTS');
      expect(refused.json.message).toContain('--force');
      expect(fs.readFileSync(target, 'utf8')).toBe('keep me');
      expect(fs.readdirSync(dir)).toEqual(['first.sqlite']);

      const forced = await admin('backup', '--to', target, '--force');
      expect(forced.code).toBe(0);
      expect(fs.readFileSync(target).subarray(0, 15).toString()).toBe('SQLite format 3');

      const live = await admin('backup', '--to', path.join(app.dataDir, 'platform.sqlite'), '--force');
      expect(live.json.error).toBe('BACKUP_TARGET_INVALID');
      expect((await admin('backup')).json).toMatchObject({ error: 'invalid_request', message: '--to is required' });
      expect((await admin('backup', '--to', path.join(dir, 'missing', 'x.sqlite'))).json.error).toBe('BACKUP_TARGET_INVALID');
    });

    it('a backup taken under write load restores to a consistent snapshot: migrations current, ledger balanced, loans agree with postings and events', async () => {
      const load = startWriteLoad(app, tenant, { workers: 4, maxLoans: 400, deadlineMs: 90_000 });
      await load.waitForLoans(15);
      const target = path.join(scratchDir(), 'under-load.sqlite');
      const backup = await timedBackup(target);
      const loansAtBackupEnd = load.report.loansDone;
      await load.waitForLoans(loansAtBackupEnd + 15);
      const report = await load.stop();
      expect(report.failures).toEqual([]);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.json).toMatchObject({ file: target, pages: expect.any(Number), startedAt: expect.any(String), finishedAt: expect.any(String) });
      // The server kept answering writes while the backup command ran.
      expect(report.writes.filter((w) => w.sentAt > backup.startedAt && w.answeredAt < backup.endedAt).length).toBeGreaterThan(0);

      // Restore as documented: an empty DATA_DIR, the backup copied in as platform.sqlite, the same MASTER_KEY.
      const restoredDir = scratchDir();
      fs.copyFileSync(target, path.join(restoredDir, 'platform.sqlite'));
      const restored = openDatabase({ sqliteFile: path.join(restoredDir, 'platform.sqlite') });
      try {
        // Nothing has migrated this copy: what it holds is what the backup held.
        expect(await appliedMigrations(restored.db)).toEqual(shippedMigrations());
        const snapshot = await snapshotConsistency(restored.db, tenant.organisationId);
        expect(snapshot.problems).toEqual([]);
        // A snapshot from the middle of the load: some of it, not all of it.
        const ids = new Set(snapshot.preapprovals.map((p) => p.id));
        // The copy is the database at one instant inside the backup's own window: every push answered
        // before the window is in it, none sent after it.
        const from = Date.parse(backup.json.startedAt);
        const to = Date.parse(backup.json.finishedAt);
        expect(from).toBeGreaterThanOrEqual(backup.startedAt);
        expect(to).toBeLessThanOrEqual(backup.endedAt);
        const before = report.pushes.filter((p) => p.answeredAt < from);
        const after = report.pushes.filter((p) => p.sentAt > to);
        expect(before.length).toBeGreaterThanOrEqual(15);
        expect(after.length).toBeGreaterThan(0);
        expect(before.filter((p) => !ids.has(p.preapprovalId))).toEqual([]);
        expect(after.filter((p) => ids.has(p.preapprovalId))).toEqual([]);
        expect(snapshot.loans.filter((l) => l.disbursedAt).length).toBeGreaterThanOrEqual(15);
        expect(snapshot.repayments.length).toBeGreaterThan(0);
        const liveLoans = await app.platform.db.selectFrom('loans').select('id').where('organisationId', '=', tenant.organisationId).execute();
        expect(snapshot.loans.length).toBeLessThan(liveLoans.length);
      } finally {
        await restored.close();
      }

      const ledger = await cli.run({ DATA_DIR: restoredDir, MASTER_KEY: TEST_MASTER_KEY }, 'ledger', 'check');
      expect(ledger.code).toBe(0);
      expect(ledger.json).toMatchObject({ ok: true, ledgerSumKobo: 0, unbalancedTransactions: [], balanceMismatches: [], negativeGuardedAccounts: [] });
      expect(ledger.json.transactions).toBeGreaterThan(30);
      // The live database, for comparison, is balanced too and has moved on.
      const liveLedger = await admin('ledger', 'check');
      expect(liveLedger.json.ok).toBe(true);
      expect(liveLedger.json.transactions).toBeGreaterThan(ledger.json.transactions);

      // A server on the restored copy with the same MASTER_KEY: the partner's key still works and the books read back.
      const restoredApp = await serve(restoredDir, TEST_MASTER_KEY);
      try {
        const api = client({ url: restoredApp.url } as TestApp, tenant.test);
        const loans = await api.get('/v1/loans?limit=5');
        expect(loans.status).toBe(200);
        expect(loans.body.data.length).toBeGreaterThan(0);
      } finally {
        await restoredApp.stop();
      }
      // Without the MASTER_KEY the same file is of no use: the key's secret no longer matches its keyed hash.
      const wrongKey = await serve(restoredDir, 'another-master-key-0123456789abcdef012345');
      try {
        expect((await client({ url: wrongKey.url } as TestApp, tenant.test).get('/v1/loans')).status).toBe(401);
      } finally {
        await wrongKey.stop();
      }
    });
  });
}

/** The server on a restored DATA_DIR, in process, on a free loopback port. */
async function serve(dataDir: string, masterKey: string) {
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', BOOTSTRAP_SANDBOX: 'false', DATA_DIR: dataDir, MASTER_KEY: masterKey });
  const platform = await createPlatform(config, { logger: createLogger('silent') });
  const web = await startWebServer(platform, { port: 0, host: '127.0.0.1' });
  return {
    url: web.url,
    async stop() {
      await web.stop();
      await platform.close();
    },
  };
}
