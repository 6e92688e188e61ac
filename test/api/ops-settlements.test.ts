import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { recordSettlementFailure, runSettlement } from '../../server/platform/domain/settlements/run-settlement';
import { startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, pendingMandateRepayment, type LendingTenant } from '../support/lifecycle';
import { staffMember, type OpsClient } from '../support/ops';

/**
 * The console's queue of failed settlements: a run that failed is recorded as a `failed` statement (what the daily
 * worker does), listed and counted; "retry" is that statement's own run (same id), idempotent; a later day's run
 * covers a failed day (its record stays, out of the queue).
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let finance: OpsClient;
let support: OpsClient;

beforeAll(async () => {
  app = await startTestApp({ clock });
  finance = await staffMember(app, 'finance');
  support = await staffMember(app, 'support');
});
afterAll(() => app.stop());

/** A tenant with one completed mandate repayment (fee and interest earned, not swept yet). */
async function earningTenant(): Promise<LendingTenant & { repaymentId: string }> {
  const tenant = await lendingTenant(app);
  const { repaymentId } = await pendingMandateRepayment(app, tenant);
  await runCollections(app.platform, clock.now());
  clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
  await runCollections(app.platform, clock.now());
  const row = await app.platform.db.selectFrom('loanRepayments').select('status').where('id', '=', repaymentId).executeTakeFirstOrThrow();
  expect(row.status).toBe('completed');
  clock.advance(1_000);
  return { ...tenant, repaymentId };
}

const failedRow = (organisationId: string) =>
  app.platform.db.selectFrom('settlementStatements').selectAll().where('organisationId', '=', organisationId).where('status', '=', 'failed').executeTakeFirst();
const listed = async () => ((await support.send('GET', '/settlements?limit=100')).json.data as Array<{ id: string; organisationId: string; failureReason: string }>);

describe('failed settlements', () => {
  it('a failed run is listed and counted; retry runs that statement (same id), sweeps and stamps; again changes nothing', async () => {
    const tenant = await earningTenant();
    const until = clock.now();
    await recordSettlementFailure(app.platform.db, { organisationId: tenant.organisationId, mode: 'test', until, now: until, reason: 'the ledger was unreachable' });
    // A second failure of the same day keeps one record with the newer reason.
    await recordSettlementFailure(app.platform.db, { organisationId: tenant.organisationId, mode: 'test', until, now: until, reason: 'the ledger was still unreachable' });
    const failed = (await failedRow(tenant.organisationId))!;
    expect(failed).toMatchObject({ failureReason: 'the ledger was still unreachable', totalSweptKobo: 0 });
    expect((await listed()).filter((row) => row.organisationId === tenant.organisationId)).toEqual([expect.objectContaining({ id: failed.id, failureReason: 'the ledger was still unreachable' })]);
    expect((await support.send('GET', '/overview')).json.data.counts.failedSettlements).toBeGreaterThanOrEqual(1);

    const denied = await support.send('POST', `/settlements/${failed.id}/retry`, {});
    expect([denied.status, denied.json.error]).toEqual([403, 'staff_permission_denied']);
    expect(await failedRow(tenant.organisationId)).toBeDefined();

    const retried = await finance.send('POST', `/settlements/${failed.id}/retry`, {});
    expect(retried.status).toBe(200);
    expect(retried.json.data).toMatchObject({ changed: true, statement: { id: failed.id, status: 'completed', periodEnd: until.toISOString(), failureReason: null } });
    expect(retried.json.data.statement.totalSweptKobo).toBeGreaterThan(0);
    const stamped = await app.platform.db.selectFrom('loanRepayments').select('settlementId').where('id', '=', tenant.repaymentId).executeTakeFirstOrThrow();
    expect(stamped.settlementId).toBe(failed.id);
    expect((await listed()).some((row) => row.id === failed.id)).toBe(false);

    const again = await finance.send('POST', `/settlements/${failed.id}/retry`, {});
    expect(again.json.data).toMatchObject({ changed: false, statement: { id: failed.id, status: 'completed' } });
    const statements = await app.platform.db.selectFrom('settlementStatements').select('id').where('organisationId', '=', tenant.organisationId).execute();
    expect(statements).toHaveLength(1);
    const audit = (await finance.send('GET', '/audit?limit=100')).json.data as Array<{ action: string; target: string }>;
    expect(audit.filter((row) => row.action === 'settlement_retried' && row.target.includes(failed.id))).toHaveLength(1);
  });

  it("a later day's run covers a failed day: the next statement sweeps its repayments, the record leaves the queue", async () => {
    const tenant = await earningTenant();
    const dayOne = clock.now();
    await recordSettlementFailure(app.platform.db, { organisationId: tenant.organisationId, mode: 'test', until: dayOne, now: dayOne, reason: 'a fault' });
    const failed = (await failedRow(tenant.organisationId))!;
    clock.advance(86_400_000);
    const { statement, created } = await runSettlement(app.platform.db, { organisationId: tenant.organisationId, mode: 'test', until: clock.now(), now: clock.now() });
    expect(created).toBe(true);
    expect(statement.periodStart).toBe('1970-01-01T00:00:00.000Z');
    expect(statement.totalSweptKobo).toBeGreaterThan(0);
    // The failed record stays as history, out of the queue; retrying it answers the covering statement.
    expect(await failedRow(tenant.organisationId)).toMatchObject({ id: failed.id, failureReason: 'a fault' });
    const late = await staffMember(app, 'finance');
    expect(((await late.send('GET', '/settlements?limit=100')).json.data as Array<{ id: string }>).some((row) => row.id === failed.id)).toBe(false);
    const covered = await late.send('POST', `/settlements/${failed.id}/retry`, {});
    expect(covered.json.data).toMatchObject({ changed: false, statement: { id: statement.id, status: 'completed' } });
    // A period already settled records no failure.
    await recordSettlementFailure(app.platform.db, { organisationId: tenant.organisationId, mode: 'test', until: clock.now(), now: clock.now(), reason: 'late' });
    expect((await app.platform.db.selectFrom('settlementStatements').select('status').where('organisationId', '=', tenant.organisationId).execute()).map((r) => r.status).sort()).toEqual(['completed', 'failed']);
  });

  it('bad input changes nothing', async () => {
    const finance = await staffMember(app, 'finance');
    expect((await finance.send('POST', '/settlements/nope/retry', {})).json.error).toBe('invalid_request');
    expect((await finance.send('POST', '/settlements/00000000-0000-4000-8000-000000000000/retry', { force: true })).json.error).toBe('invalid_request');
    expect((await finance.send('POST', '/settlements/00000000-0000-4000-8000-000000000000/retry', {})).status).toBe(404);
  });
});
