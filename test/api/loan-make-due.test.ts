import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, type LendingTenant } from '../support/lifecycle';
import { uniquePhone } from '../support/checkout';
import { lentLoan } from '../support/borrower-loans';
import { REHEARSAL_MARKER_FILE } from '../../server/rehearsal-marker';

const exec = promisify(execFile);
let app: TestApp;
let tenant: LendingTenant;
let bundle: string;
beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
  // The same esbuild bundle `npm run admin` runs, built into a private folder inside the project.
  bundle = path.resolve('dist', `test-make-due-${path.basename(app.dataDir)}`, 'admin.js');
  await build({ entryPoints: ['server/cli/admin.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile: bundle, logLevel: 'warning' });
});
afterAll(async () => {
  fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
  await app.stop();
});

async function admin(...args: string[]) {
  const env = { ...process.env, ...app.env, LOG_LEVEL: 'warn' };
  const result = await exec(process.execPath, [bundle, ...args, '--json'], { env, timeout: 60_000 }).catch((e) => e);
  return { code: (result.code ?? 0) as number, json: JSON.parse(String(result.stdout).trim()) };
}

describe('admin loan make-due', () => {
  it('moves the next unpaid instalment\'s due date to now and nothing else', async () => {
    const { loan } = await lentLoan(app, tenant, uniquePhone());
    const api = client(app, tenant.test);
    const before = (await api.get(`/v1/loans/${loan.id}/schedule`)).body.data;
    const started = Date.now();
    const res = await admin('loan', 'make-due', '--id', loan.id);
    expect(res.code).toBe(0);
    expect(res.json).toMatchObject({ loanId: loan.id, installmentNumber: 1, previousDueDate: before[0].dueDate });
    expect(Date.parse(res.json.dueDate)).toBeGreaterThanOrEqual(started - 1000);
    const after = (await api.get(`/v1/loans/${loan.id}/schedule`)).body.data;
    expect(after[0]).toEqual({ ...before[0], dueDate: res.json.dueDate, updatedAt: expect.any(String) });
    expect(after.slice(1)).toEqual(before.slice(1));
    expect((await api.get(`/v1/loans/${loan.id}`)).body.data).toMatchObject({ status: 'active', outstandingKobo: loan.outstandingKobo });
  });

  it('refuses a live loan with a clear error and changes nothing', async () => {
    const { loan } = await lentLoan(app, tenant, uniquePhone());
    // A live loan here is the same loan marked live (the sandbox cannot lend live).
    await app.platform.db.updateTable('loans').set({ mode: 'live' }).where('id', '=', loan.id).execute();
    const before = await app.platform.db.selectFrom('loanScheduleItems').select(['installmentNumber', 'dueDate']).where('loanId', '=', loan.id).orderBy('installmentNumber').execute();
    const res = await admin('loan', 'make-due', '--id', loan.id);
    expect(res.code).toBe(2);
    expect(res.json).toMatchObject({ error: 'SANDBOX_ONLY', message: expect.stringContaining('test-mode loans only') });
    expect(await app.platform.db.selectFrom('loanScheduleItems').select(['installmentNumber', 'dueDate']).where('loanId', '=', loan.id).orderBy('installmentNumber').execute()).toEqual(before);
    await app.platform.db.updateTable('loans').set({ mode: 'test' }).where('id', '=', loan.id).execute();
  });

  it('moves a live loan only while a rehearsal\'s server runs on this SQLite database (its marker, its process alive); never on PostgreSQL, never with a dead rehearsal\'s marker', async () => {
    const { loan } = await lentLoan(app, tenant, uniquePhone());
    await app.platform.db.updateTable('loans').set({ mode: 'live' }).where('id', '=', loan.id).execute();
    const schedule = () => app.platform.db.selectFrom('loanScheduleItems').select(['installmentNumber', 'dueDate']).where('loanId', '=', loan.id).orderBy('installmentNumber').execute();
    const marker = path.join(app.dataDir, REHEARSAL_MARKER_FILE);
    const mark = (pid: number) => fs.writeFileSync(marker, JSON.stringify({ pid, baseUrl: 'http://127.0.0.1:1', startedAt: new Date().toISOString() }), { mode: 0o600 });
    try {
      // A rehearsal that ended without removing its file: its process is gone.
      const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
      mark(Number(ended.stdout));
      const before = await schedule();
      const stale = await admin('loan', 'make-due', '--id', loan.id);
      expect(stale).toMatchObject({ code: 2, json: { error: 'SANDBOX_ONLY' } });
      expect(await schedule()).toEqual(before);

      // A running one (this test's own process stands in for the rehearsal's server).
      mark(process.pid);
      const res = await admin('loan', 'make-due', '--id', loan.id);
      if (app.env.DATABASE_URL) {
        // A rehearsal keeps its own SQLite database: a PostgreSQL deployment's live loans are never moved.
        expect(res).toMatchObject({ code: 2, json: { error: 'SANDBOX_ONLY' } });
        expect(await schedule()).toEqual(before);
      } else {
        expect(res.code).toBe(0);
        expect(res.json).toMatchObject({ loanId: loan.id, installmentNumber: 1, previousDueDate: before[0]!.dueDate });
        expect((await schedule())[0]!.dueDate).toBe(res.json.dueDate);
      }
    } finally {
      fs.rmSync(marker, { force: true });
      await app.platform.db.updateTable('loans').set({ mode: 'test' }).where('id', '=', loan.id).execute();
    }
  });

  it('answers an unknown loan with NOT_FOUND and a malformed id with invalid_request', async () => {
    expect((await admin('loan', 'make-due', '--id', '00000000-0000-4000-8000-000000000000')).json.error).toBe('NOT_FOUND');
    expect((await admin('loan', 'make-due', '--id', 'nope')).json.error).toBe('invalid_request');
  });

  it('is listed in the usage', async () => {
    const res = await exec(process.execPath, [bundle, 'help'], { env: { ...process.env, ...app.env } }).catch((e) => e);
    expect(`${res.stdout}${res.stderr}`).toContain('loan make-due --id LOAN_ID');
    expect(`${res.stdout}${res.stderr}`).toMatch(/live ones while a rehearsal runs: npm run rehearse/);
  });
});
