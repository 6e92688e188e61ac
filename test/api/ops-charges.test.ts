import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../server/integrations/clock';
import { runCollections } from '../../server/platform/domain/repayments/collect-mandates';
import { client, startTestApp, type TestApp } from '../support/harness';
import { lendingTenant, pendingMandateRepayment, type LendingTenant } from '../support/lifecycle';
import { staffMember, type OpsClient } from '../support/ops';

/**
 * The console's queue of mandate charges that need a person: collected but not applied, or with an unknown outcome.
 * "Look up" reads the charge at the rail (never a new debit); "apply" goes through the collector's own code (idempotent;
 * four eyes in live mode); "release" marks a charge that took no money as failed with the reason.
 */
const clock = new FakeClock(new Date());
let app: TestApp;
let tenant: LendingTenant;
let finance: OpsClient;
let support: OpsClient;

beforeAll(async () => {
  app = await startTestApp({ clock });
  tenant = await lendingTenant(app);
  finance = await staffMember(app, 'finance');
  support = await staffMember(app, 'support');
});
afterAll(() => app.stop());

const stored = (id: string) =>
  app.platform.db.selectFrom('loanRepayments').select(['status', 'failureReason', 'chargeReference', 'mode']).where('id', '=', id).executeTakeFirstOrThrow();
const setRow = (id: string, set: Record<string, unknown>) => app.platform.db.updateTable('loanRepayments').set(set).where('id', '=', id).execute();
const queueIds = async (who: OpsClient = finance) => {
  const page = await who.send('GET', '/charges?limit=100');
  expect(page.status).toBe(200);
  return page.json.data as Array<{ id: string; problem: string; amountKobo: number; proposalId: string | null }>;
};
const auditActions = async () => ((await finance.send('GET', '/audit?limit=100')).json.data as Array<{ action: string; target: string }>);

/** A charge the sandbox rail took (succeeded), whose answer the collector never heard: pending, outcome unknown. */
async function lostAnswer() {
  const charge = await pendingMandateRepayment(app, tenant);
  expect(await runCollections(app.platform, clock.now())).toMatchObject({ charged: 1 });
  clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
  await setRow(charge.repaymentId, { chargeReference: null, failureReason: 'charge_outcome_unknown' });
  return charge;
}

describe('charges that need a person', () => {
  it('a charge with an unknown outcome that the rail took: listed and counted, looked up (a read), not releasable, applied once', async () => {
    const { loanId, repaymentId, amountKobo } = await lostAnswer();
    const listed = (await queueIds(support)).find((row) => row.id === repaymentId);
    expect(listed).toMatchObject({ problem: 'outcome_unknown', amountKobo, proposalId: null });
    expect((await support.send('GET', '/overview')).json.data.counts.charges).toBeGreaterThanOrEqual(1);

    // Support reads the queue but moves no money.
    const denied = await support.send('POST', `/charges/${repaymentId}/look-up`, {});
    expect([denied.status, denied.json.error]).toEqual([403, 'staff_permission_denied']);

    const looked = await finance.send('POST', `/charges/${repaymentId}/look-up`, {});
    expect(looked.status).toBe(200);
    expect(looked.json.data).toMatchObject({ problem: 'outcome_unknown', rail: { status: 'succeeded', chargeReference: expect.any(String) } });
    // A read: the charge is as it was.
    expect(await stored(repaymentId)).toMatchObject({ status: 'pending', failureReason: 'charge_outcome_unknown', chargeReference: null });

    const release = await finance.send('POST', `/charges/${repaymentId}/release`, { reason: 'no money taken' });
    expect([release.status, release.json.error]).toEqual([409, 'charge_collected']);
    expect(await stored(repaymentId)).toMatchObject({ status: 'pending', failureReason: 'charge_outcome_unknown' });

    const applied = await finance.send('POST', `/charges/${repaymentId}/apply`, {});
    expect(applied.status).toBe(200);
    expect(applied.json.data).toMatchObject({ outcome: 'done', result: { id: repaymentId, status: 'completed', changed: true } });
    expect(await stored(repaymentId)).toMatchObject({ status: 'completed', failureReason: null, chargeReference: looked.json.data.rail.chargeReference });
    const schedule = (await client(app, tenant.test).get(`/v1/loans/${loanId}/schedule`)).body.data;
    expect(schedule[0].amountPaidKobo).toBe(amountKobo);

    // Idempotent: again changes nothing; the collector finds nothing to do with it either.
    const again = await finance.send('POST', `/charges/${repaymentId}/apply`, {});
    expect(again.json.data.result).toMatchObject({ changed: false });
    expect((await client(app, tenant.test).get(`/v1/loans/${loanId}/schedule`)).body.data[0].amountPaidKobo).toBe(amountKobo);
    expect((await queueIds()).some((row) => row.id === repaymentId)).toBe(false);

    const actions = (await auditActions()).filter((row) => row.target?.includes(repaymentId)).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(['charge_looked_up', 'charge_applied']));
  });

  it('a charge collected but not applied is applied through the collector’s code', async () => {
    const { loanId, repaymentId, amountKobo } = await pendingMandateRepayment(app, tenant);
    expect((await runCollections(app.platform, clock.now())).charged).toBeGreaterThanOrEqual(1);
    clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
    await setRow(repaymentId, { status: 'failed', failureReason: 'collected_but_not_applied: a fault that came back' });
    expect((await queueIds()).find((row) => row.id === repaymentId)).toMatchObject({ problem: 'collected_not_applied' });

    const applied = await finance.send('POST', `/charges/${repaymentId}/apply`, {});
    expect(applied.status).toBe(200);
    expect(await stored(repaymentId)).toMatchObject({ status: 'completed', failureReason: null });
    expect((await client(app, tenant.test).get(`/v1/loans/${loanId}/schedule`)).body.data[0].amountPaidKobo).toBe(amountKobo);
    // Releasing what was collected is refused.
    const release = await finance.send('POST', `/charges/${repaymentId}/release`, { reason: 'try it anyway' });
    expect([release.status, release.json.error]).toEqual([409, 'charge_collected']);
  });

  it('a borrower\'s own payment applied from the queue is receipted by text, once; a scheduled debit applied so is not', async () => {
    const inbox = async (loanId: string) => {
      const { phone } = await app.platform.db.selectFrom('loans as l').innerJoin('borrowers as b', 'b.id', 'l.borrowerId').select('b.phone').where('l.id', '=', loanId).executeTakeFirstOrThrow();
      return ((await client(app).get(`/sandbox/sms?phone=${encodeURIComponent(phone)}`)).body.data.messages as Array<{ body: string }>).filter((m) => m.body.includes('received'));
    };
    const collectedNotApplied = async (initiatedBy: 'borrower' | 'schedule') => {
      const charge = await pendingMandateRepayment(app, tenant);
      await runCollections(app.platform, clock.now());
      clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
      await setRow(charge.repaymentId, { status: 'failed', failureReason: 'collected_but_not_applied: a fault that came back', initiatedBy });
      return charge;
    };
    const borrowers = await collectedNotApplied('borrower');
    const scheduled = await collectedNotApplied('schedule');
    for (const charge of [borrowers, scheduled]) expect((await finance.send('POST', `/charges/${charge.repaymentId}/apply`, {})).json.data.result).toMatchObject({ changed: true });
    // Applied again: nothing changes, nothing more is texted.
    expect((await finance.send('POST', `/charges/${borrowers.repaymentId}/apply`, {})).json.data.result).toMatchObject({ changed: false });
    const referenceOf = async (id: string) => (await app.platform.db.selectFrom('loanRepayments').select('reference').where('id', '=', id).executeTakeFirstOrThrow()).reference;
    const [mine, theirs] = [await referenceOf(borrowers.repaymentId), await referenceOf(scheduled.repaymentId)];
    await expect.poll(async () => (await inbox(borrowers.loanId)).filter((m) => m.body.includes(`ref ${mine}.`)).length).toBe(1);
    expect((await inbox(scheduled.loanId)).filter((m) => m.body.includes(`ref ${theirs}.`))).toEqual([]);
  });

  it('a charge the rail never took is released with the reason and never sent again; applying it is refused', async () => {
    const { repaymentId, loanId } = await pendingMandateRepayment(app, tenant);
    // Never sent: the rail has no charge by its reference.
    await setRow(repaymentId, { failureReason: 'charge_outcome_unknown' });

    const apply = await finance.send('POST', `/charges/${repaymentId}/apply`, {});
    expect([apply.status, apply.json.error, apply.json.data?.railStatus]).toEqual([409, 'charge_not_collected', 'not_found']);
    expect(await stored(repaymentId)).toMatchObject({ status: 'pending', failureReason: 'charge_outcome_unknown' });

    const looked = await finance.send('POST', `/charges/${repaymentId}/look-up`, {});
    expect(looked.json.data.rail).toMatchObject({ status: 'not_found', chargeReference: null });

    const short = await finance.send('POST', `/charges/${repaymentId}/release`, { reason: 'x' });
    expect([short.status, short.json.error]).toEqual([400, 'invalid_request']);
    const released = await finance.send('POST', `/charges/${repaymentId}/release`, { reason: 'bank confirms no debit' });
    expect(released.status).toBe(200);
    expect(await stored(repaymentId)).toMatchObject({ status: 'failed', failureReason: 'released_by_staff: bank confirms no debit' });
    expect((await finance.send('POST', `/charges/${repaymentId}/release`, { reason: 'bank confirms no debit' })).json.data).toMatchObject({ changed: false });

    // The collector does not send a released charge again.
    const before = await app.platform.db.selectFrom('loanRepayments').select('id').where('loanId', '=', loanId).where('status', '=', 'pending').execute();
    expect(before).toHaveLength(0);
    expect((await queueIds()).some((row) => row.id === repaymentId)).toBe(false);
    expect((await auditActions()).some((row) => row.action === 'charge_released' && row.target.includes(repaymentId))).toBe(true);
  });

  it('bad input changes nothing: a malformed id, an unknown charge, a body with extra fields', async () => {
    expect((await finance.send('POST', '/charges/not-a-uuid/look-up', {})).json.error).toBe('invalid_request');
    const unknown = await finance.send('POST', '/charges/00000000-0000-4000-8000-000000000000/apply', {});
    expect(unknown.status).toBe(404);
    const extra = await finance.send('POST', '/charges/00000000-0000-4000-8000-000000000000/apply', { amountKobo: 1 });
    expect([extra.status, extra.json.error]).toEqual([400, 'invalid_request']);
    expect((await finance.send('GET', '/charges?limit=0')).status).toBe(400);
  });

  it('in live mode applying is a proposal: one open at a time, the proposer may not approve, a refusal changes nothing', async () => {
    const { repaymentId } = await pendingMandateRepayment(app, tenant);
    expect((await runCollections(app.platform, clock.now())).charged).toBeGreaterThanOrEqual(1);
    clock.advance(app.platform.config.RAIL_CHARGE_LAG_MS + 1);
    await setRow(repaymentId, { status: 'failed', failureReason: 'collected_but_not_applied: a fault that came back', mode: 'live' });

    const proposed = await finance.send('POST', `/charges/${repaymentId}/apply`, {});
    expect(proposed.status).toBe(202);
    expect(proposed.json.data.proposal).toMatchObject({ kind: 'mandate_charge_apply', subject: repaymentId, status: 'open' });
    expect((await queueIds()).find((row) => row.id === repaymentId)?.proposalId).toBe(proposed.json.data.proposal.id);
    const twice = await finance.send('POST', `/charges/${repaymentId}/apply`, {});
    expect([twice.status, twice.json.error]).toEqual([409, 'proposal_pending']);
    const own = await finance.send('POST', `/proposals/${proposed.json.data.proposal.id}/approve`, {});
    expect([own.status, own.json.error]).toEqual([403, 'four_eyes_required']);
    expect(await stored(repaymentId)).toMatchObject({ status: 'failed' });

    const refused = await (await staffMember(app, 'admin')).send('POST', `/proposals/${proposed.json.data.proposal.id}/refuse`, { reason: 'check the loan first' });
    expect(refused.status).toBe(200);
    expect(await stored(repaymentId)).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/^collected_but_not_applied/) });
  });
});
