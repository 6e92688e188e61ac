import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { recordSettlementFailure } from '../../server/platform/domain/settlements/run-settlement';
import { client, startTestApp, type TestApp } from '../support/harness';
import { acceptedLoan, lendingTenant, pendingMandateRepayment, type LendingTenant } from '../support/lifecycle';
import { staffMember, type OpsClient } from '../support/ops';

const exec = promisify(execFile);

/**
 * The console's charge and failed-settlement actions from the operator's shell (`admin charge …`, `admin settlement
 * failed|retry`): one JSON object on stdout with `--json`, a named staff member whose role allows money, and the
 * console's four eyes on live money (applying a collected charge in live mode is a proposal the proposer cannot
 * approve). Writing off a loan goes through the same rule (`admin loan write-off`).
 */
let app: TestApp;
let tenant: LendingTenant;
let bundle: string;
let finance: OpsClient & { email: string };
let colleague: OpsClient & { email: string };
let support: OpsClient & { email: string };

beforeAll(async () => {
  app = await startTestApp();
  tenant = await lendingTenant(app);
  [finance, colleague, support] = [await staffMember(app, 'finance'), await staffMember(app, 'finance'), await staffMember(app, 'support')];
  bundle = path.resolve('dist', `test-cli-ops-${path.basename(app.dataDir)}`, 'admin.js');
  await build({ entryPoints: ['server/cli/admin.ts'], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile: bundle, logLevel: 'warning' });
}, 120_000);
afterAll(async () => {
  fs.rmSync(path.dirname(bundle), { recursive: true, force: true });
  await app.stop();
});

async function admin(...args: string[]): Promise<{ code: number; json: any; stderr: string }> {
  // The shell reaches the sandbox rail where the server serves it, as an operator's shell reaches the real provider.
  const env = { ...process.env, ...app.env, PUBLIC_BASE_URL: app.url, LOG_LEVEL: 'warn' };
  const result = await exec(process.execPath, [bundle, ...args, '--json'], { env, timeout: 60_000 }).catch((e) => e);
  const lines = String(result.stdout ?? '').trim().split('\n').filter(Boolean);
  expect(lines, `stdout must hold exactly one JSON object: ${result.stdout} ${result.stderr}`).toHaveLength(1);
  return { code: result.code ?? 0, json: JSON.parse(lines[0]!), stderr: String(result.stderr ?? '') };
}

const stored = (id: string) => app.platform.db.selectFrom('loanRepayments').select(['status', 'failureReason']).where('id', '=', id).executeTakeFirstOrThrow();
const setRow = (id: string, set: Record<string, unknown>) => app.platform.db.updateTable('loanRepayments').set(set).where('id', '=', id).execute();
const audit = (action: string, target: string) =>
  app.platform.db.selectFrom('staffAuditLog').select(['action', 'target', 'userAgent']).where('action', '=', action).where('target', 'like', `%${target}%`).execute();

// Each step runs the CLI as its own process (a platform built per command): slow on a busy machine.
describe('admin charge …', { timeout: 120_000 }, () => {
  it('lists the queue, refuses without a staff member or with one whose role moves no money, releases an unknown outcome the rail never took', async () => {
    const { repaymentId } = await pendingMandateRepayment(app, tenant);
    // Never sent: the rail has no charge by its reference.
    await setRow(repaymentId, { failureReason: 'charge_outcome_unknown' });

    const usage = await admin('nonsense-command');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('charge release --id CHARGE_ID --staff E --reason TEXT');
    expect(usage.stderr).toContain('settlement retry --id STATEMENT_ID --staff E');

    const list = await admin('charge', 'list');
    expect(list.code).toBe(0);
    expect(list.json.data.find((row: { id: string }) => row.id === repaymentId)).toMatchObject({ problem: 'outcome_unknown' });

    expect((await admin('charge', 'release', '--id', repaymentId, '--reason', 'no debit at the bank')).json.error).toBe('invalid_request');
    expect((await admin('charge', 'release', '--id', 'not-a-uuid', '--staff', finance.email, '--reason', 'no debit')).json.error).toBe('INVALID_ID');
    expect((await admin('charge', 'release', '--id', repaymentId, '--staff', finance.email, '--reason', 'x')).json.error).toBe('invalid_request');
    const denied = await admin('charge', 'release', '--id', repaymentId, '--staff', support.email, '--reason', 'no debit at the bank');
    expect([denied.code, denied.json.error]).toEqual([2, 'staff_permission_denied']);
    expect(await stored(repaymentId)).toMatchObject({ status: 'pending', failureReason: 'charge_outcome_unknown' });

    const looked = await admin('charge', 'look-up', '--id', repaymentId, '--staff', finance.email);
    expect(looked.json).toMatchObject({ problem: 'outcome_unknown', rail: { status: 'not_found' } });
    const applied = await admin('charge', 'apply', '--id', repaymentId, '--staff', finance.email);
    expect(applied.json).toMatchObject({ error: 'charge_not_collected' });

    const released = await admin('charge', 'release', '--id', repaymentId, '--staff', finance.email, '--reason', 'no debit at the bank');
    expect(released.json).toMatchObject({ id: repaymentId, status: 'failed', changed: true });
    expect(await stored(repaymentId)).toMatchObject({ status: 'failed', failureReason: 'released_by_staff: no debit at the bank' });
    const rows = await audit('charge_released', repaymentId);
    expect(rows).toEqual([expect.objectContaining({ userAgent: 'admin CLI' })]);
  });

  it('in live mode applying a collected charge is a proposal: the proposer cannot approve it, another staff member can refuse it', async () => {
    const { repaymentId } = await pendingMandateRepayment(app, tenant);
    expect((await runCollections(app.platform, app.platform.clock.now())).charged).toBeGreaterThanOrEqual(1);
    await setRow(repaymentId, { status: 'failed', failureReason: 'collected_but_not_applied: a fault that came back', mode: 'live' });

    const proposed = await admin('charge', 'apply', '--id', repaymentId, '--staff', finance.email);
    expect(proposed.json).toMatchObject({ proposed: true, proposal: { kind: 'mandate_charge_apply', subject: repaymentId, status: 'open' } });
    const again = await admin('charge', 'apply', '--id', repaymentId, '--staff', colleague.email);
    expect(again.json.error).toBe('proposal_pending');
    const own = await admin('proposal', 'approve', '--id', proposed.json.proposal.id, '--staff', finance.email);
    expect(own.json.error).toBe('four_eyes_required');
    expect(await stored(repaymentId)).toMatchObject({ status: 'failed' });
    const refused = await admin('proposal', 'refuse', '--id', proposed.json.proposal.id, '--staff', colleague.email, '--reason', 'check the loan first');
    expect(refused.code).toBe(0);
    expect(await stored(repaymentId)).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/^collected_but_not_applied/) });
  });
});

describe('admin settlement failed|retry', { timeout: 120_000 }, () => {
  it('lists a failed statement and retries it (the same id); again changes nothing', async () => {
    const other = await lendingTenant(app);
    const until = app.platform.clock.now();
    await recordSettlementFailure(app.platform.db, { organisationId: other.organisationId, mode: 'test', until, now: until, reason: 'the ledger was unreachable' });
    const listed = await admin('settlement', 'failed');
    const failed = listed.json.data.find((row: { organisationId: string }) => row.organisationId === other.organisationId);
    expect(failed).toMatchObject({ failureReason: 'the ledger was unreachable' });

    expect((await admin('settlement', 'retry', '--id', failed.id, '--staff', support.email)).json.error).toBe('staff_permission_denied');
    const retried = await admin('settlement', 'retry', '--id', failed.id, '--staff', finance.email);
    expect(retried.json).toMatchObject({ changed: true, statement: { id: failed.id } });
    expect(retried.json.statement.status).not.toBe('failed');
    const again = await admin('settlement', 'retry', '--id', failed.id, '--staff', finance.email);
    expect(again.json).toMatchObject({ changed: false });
    expect((await admin('settlement', 'failed')).json.data.some((row: { id: string }) => row.id === failed.id)).toBe(false);
    expect(await audit('settlement_retried', failed.id)).not.toEqual([]);
  });
});

describe('writing off a live loan takes two people, in the console and the shell', { timeout: 120_000 }, () => {
  it('one proposes, the proposer cannot approve (console or shell), a second proposal waits, another person approves and the loan is written off', async () => {
    const { loan } = await acceptedLoan(app, tenant, { amount: '100000' });
    expect((await client(app, tenant.test).post(`/v1/loans/${loan.id}/disburse`)).status).toBe(200);
    // A live loan in arrears, as far as the write-off's rule reads it.
    await app.platform.db.updateTable('loans').set({ mode: 'live', inArrears: true, arrearsSince: app.platform.clock.now().toISOString() }).where('id', '=', loan.id).execute();
    const status = () => app.platform.db.selectFrom('loans').select('status').where('id', '=', loan.id).executeTakeFirstOrThrow();

    const proposed = await finance.send('POST', `/loans/${loan.id}/write-off`, { reason: 'borrower unreachable for 90 days' });
    expect(proposed.status).toBe(202);
    expect(proposed.json.data).toMatchObject({ outcome: 'proposed', proposal: { kind: 'loan_write_off', subject: loan.id, status: 'open' } });
    const proposalId = proposed.json.data.proposal.id as string;
    expect((await finance.send('POST', `/proposals/${proposalId}/approve`, {})).json.error).toBe('four_eyes_required');
    expect((await admin('proposal', 'approve', '--id', proposalId, '--staff', finance.email)).json.error).toBe('four_eyes_required');
    expect((await admin('loan', 'write-off', '--id', loan.id, '--staff', colleague.email, '--reason', 'borrower unreachable')).json.error).toBe('proposal_pending');
    expect((await admin('proposal', 'approve', '--id', proposalId, '--staff', support.email)).json.error).toBe('staff_permission_denied');
    expect((await status()).status).toBe('active');

    const approved = await admin('proposal', 'approve', '--id', proposalId, '--staff', colleague.email);
    expect(approved.code, approved.stderr).toBe(0);
    expect((await status()).status).toBe('defaulted');
    expect(await audit('loan_written_off', loan.id)).not.toEqual([]);
  });
});
