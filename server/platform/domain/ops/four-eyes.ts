import type { Tx } from '../../db/database';
import type { OpsProposalKind, OpsProposalsTable, StaffRole } from '../../db/schema';
import { AppError, notFound } from '../errors';
import { newId } from '../ids';
import type { Mode } from '../scope';
import type { Services } from '../services';
import { inUnitOfWork } from '../unit-of-work';
import type { RequestOrigin } from '../access/realm';
import { configureOrganisation, getOrganisation } from '../organisations/organisation';
import { settlePayout } from '../payouts/settle-payout';
import { confirmPoolFundingIn } from '../pools/confirm-pool-funding';
import { writeStaffAudit, type StaffAuditAction } from './staff-audit';
import { requireStaffPermission, type StaffAction } from './staff-permissions';
import { writeOffLoanByStaff } from './write-off-loan';
import { applyChargeInTx, chargeSubject } from './charges';
import { textLaterPaymentReceipt } from '../borrower-loans/payment-receipt';
import { activatePolicyInTx, policySubject } from './insurance-policies';

/**
 * Four eyes on live money. Settling a payout, confirming a pool-funding transfer, writing off a loan and applying a
 * collected mandate charge by hand (`charges.ts`) move money on
 * a person's word; recording an insurance policy bound by hand (`insurance-policies.ts`) puts cover in force on one; enabling live mode lets an organisation move real money. In live mode each is first a proposal by
 * one staff member and takes effect only when a different staff member approves it (the proposer approving: 403
 * `four_eyes_required`). In test mode the action happens at once. Live enablement has no test mode: it always
 * takes two. The console and the operator's shell (`admin … --staff E`) both come through here.
 *
 * Approving runs the action and closes the proposal in one transaction (a conditional UPDATE from `open`, so two
 * approvals at once run it once); a failed action leaves the proposal open. Every step is in the staff audit log.
 */
export type LiveMoneyRequest =
  | { kind: 'payout_settle'; payoutId: string; reference: string }
  | { kind: 'pool_funding_confirm'; reference: string }
  | { kind: 'loan_write_off'; loanId: string; reason: string }
  | { kind: 'live_enable'; organisationId: string; reason: string }
  | { kind: 'mandate_charge_apply'; chargeId: string }
  | { kind: 'insurance_policy_record'; policyId: string; policyNumber: string; documentKey: string; documentBytes: number; documentSha256: string };

/** A staff member acting: from the session (console) or `--staff E` (shell). */
export interface StaffActor {
  staffId: string;
  email: string;
  role: StaffRole;
  origin: RequestOrigin;
}

export type FourEyesServices = Pick<Services, 'db' | 'clock' | 'secrets' | 'aml' | 'identity' | 'insurer' | 'settings' | 'baseUrl' | 'rails' | 'sms' | 'logger'>;

export interface Proposal {
  id: string;
  kind: OpsProposalKind;
  subject: string;
  organisationId: string | null;
  payload: Record<string, unknown>;
  status: 'open' | 'approved' | 'refused';
  proposedBy: string;
  proposedAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
  note: string | null;
  result: unknown;
}

export type LiveMoneyOutcome = { outcome: 'done'; result: unknown } | { outcome: 'proposed'; proposal: Proposal };

const PERMISSION: Record<OpsProposalKind, StaffAction> = {
  payout_settle: 'money',
  pool_funding_confirm: 'money',
  loan_write_off: 'money',
  live_enable: 'live_enablement',
  mandate_charge_apply: 'money',
  insurance_policy_record: 'money',
};

const DONE_ACTION: Record<OpsProposalKind, StaffAuditAction> = {
  payout_settle: 'payout_settled',
  pool_funding_confirm: 'pool_funding_confirmed',
  loan_write_off: 'loan_written_off',
  live_enable: 'live_enabled',
  mandate_charge_apply: 'charge_applied',
  insurance_policy_record: 'insurance_policy_recorded',
};

const parseJson = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

export function toProposal(row: OpsProposalsTable): Proposal {
  return { ...row, payload: parseJson(row.payload) as Record<string, unknown>, result: row.result === null ? null : parseJson(row.result) };
}

/** What the request is about: the subject's key, its organisation and its mode (live enablement: always `live`). */
async function subjectOf(tx: Tx, request: LiveMoneyRequest): Promise<{ subject: string; organisationId: string; mode: Mode }> {
  switch (request.kind) {
    case 'payout_settle': {
      const row = await tx.selectFrom('payoutRequests').select(['id', 'organisationId', 'mode']).where('id', '=', request.payoutId).executeTakeFirst();
      if (!row) throw notFound('payout');
      return { subject: row.id, organisationId: row.organisationId, mode: row.mode };
    }
    case 'pool_funding_confirm': {
      const reference = request.reference.trim().toUpperCase();
      const row = await tx.selectFrom('poolFundingNotices').select(['reference', 'organisationId', 'mode']).where('reference', '=', reference).executeTakeFirst();
      if (!row) throw notFound('pool funding notice');
      return { subject: row.reference, organisationId: row.organisationId, mode: row.mode };
    }
    case 'loan_write_off': {
      const row = await tx.selectFrom('loans').select(['id', 'organisationId', 'mode']).where('id', '=', request.loanId).executeTakeFirst();
      if (!row) throw notFound('loan');
      return { subject: row.id, organisationId: row.organisationId, mode: row.mode };
    }
    case 'live_enable': {
      await getOrganisation(tx, request.organisationId);
      return { subject: request.organisationId, organisationId: request.organisationId, mode: 'live' };
    }
    case 'mandate_charge_apply':
      return chargeSubject(tx, request.chargeId);
    case 'insurance_policy_record':
      return policySubject(tx, request.policyId);
  }
}

/**
 * Whether the subject can still change: a payout still holding its reservation, a notice still pending, an active
 * loan, an organisation not yet live. Otherwise there is nothing to propose: the action runs at once and answers as
 * a repeat does (`changed: false`) or refuses the state, exactly as in test mode.
 */
async function stillOpen(tx: Tx, request: LiveMoneyRequest, subject: string): Promise<boolean> {
  switch (request.kind) {
    case 'payout_settle':
      return Boolean(await tx.selectFrom('payoutRequests').select('id').where('id', '=', subject).where('status', 'in', ['requested', 'settling']).executeTakeFirst());
    case 'pool_funding_confirm':
      return Boolean(await tx.selectFrom('poolFundingNotices').select('id').where('reference', '=', subject).where('status', '=', 'pending').executeTakeFirst());
    case 'loan_write_off':
      return Boolean(await tx.selectFrom('loans').select('id').where('id', '=', subject).where('status', '=', 'active').executeTakeFirst());
    case 'live_enable':
      return !(await getOrganisation(tx, subject)).liveEnabled;
    case 'mandate_charge_apply':
      return (await chargeSubject(tx, subject)).stillOpen;
    case 'insurance_policy_record':
      return (await policySubject(tx, subject)).stillOpen;
  }
}

/** Runs the action in `tx`. */
async function perform(services: FourEyesServices, tx: Tx, request: LiveMoneyRequest, actor: StaffActor, now: Date): Promise<unknown> {
  switch (request.kind) {
    case 'payout_settle': {
      const { payout, changed } = await settlePayout(tx, { id: request.payoutId, reference: request.reference, now });
      return { ...payout, changed };
    }
    case 'pool_funding_confirm': {
      const { notice, balance, changed } = await confirmPoolFundingIn(tx, { reference: request.reference, now, origin: { ip: actor.origin.ip, userAgent: `operations console (${actor.email})` } });
      return { ...notice, balance, changed };
    }
    case 'loan_write_off':
      return writeOffLoanByStaff({ db: tx, platform: services, now, actor: `staff:${actor.email}` }, { loanId: request.loanId, reason: request.reason });
    case 'live_enable': {
      // The credential epoch moves with the change, so every process sees it at once.
      const organisation = await configureOrganisation(tx, request.organisationId, { liveEnabled: true }, now);
      return { id: organisation.id, name: organisation.name, liveEnabled: organisation.liveEnabled };
    }
    case 'mandate_charge_apply':
      return applyChargeInTx(services, tx, actor, request.chargeId, now);
    case 'insurance_policy_record': {
      const { kind: _kind, ...record } = request;
      return activatePolicyInTx({ db: tx, platform: services, now, actor: `staff:${actor.email}` }, record);
    }
  }
}

/**
 * What follows a committed action outside its transaction: a borrower's own payment (pay now, pay off) that staff
 * applied from the charge queue is receipted by text, as when the collector applies it.
 */
async function afterCommit(services: FourEyesServices, request: LiveMoneyRequest, result: unknown): Promise<void> {
  if (request.kind !== 'mandate_charge_apply' || !(result as { changed?: boolean }).changed) return;
  try {
    const charge = await services.db.selectFrom('loanRepayments').selectAll().where('id', '=', request.chargeId).executeTakeFirst();
    if (charge?.status === 'completed' && charge.initiatedBy === 'borrower') await textLaterPaymentReceipt(services, charge);
  } catch (error) {
    // The action has committed: its answer stands; only the text is lost.
    services.logger.warn({ err: error, repaymentId: request.chargeId }, 'payment receipt not texted');
  }
}

const describe = (request: LiveMoneyRequest, subject: string) =>
  `${request.kind}:${subject}${'reference' in request && request.kind === 'payout_settle' ? ` ref ${request.reference}` : ''}${'reason' in request ? ` (${request.reason.slice(0, 120)})` : ''}${request.kind === 'insurance_policy_record' ? ` policy ${request.policyNumber}` : ''}`;

/**
 * Asks for a live-money action: in test mode it happens now (audited as done); in live mode a proposal is opened
 * (409 `proposal_pending` when one is open for the same action and subject).
 */
export async function requestLiveMoneyAction(services: FourEyesServices, actor: StaffActor, request: LiveMoneyRequest): Promise<LiveMoneyOutcome> {
  requireStaffPermission(actor, PERMISSION[request.kind]);
  const now = services.clock.now();
  const outcome = await inUnitOfWork(services.db, async (tx): Promise<LiveMoneyOutcome> => {
    const { subject, organisationId, mode } = await subjectOf(tx, request);
    if (mode === 'test' || !(await stillOpen(tx, request, subject))) {
      if (request.kind === 'live_enable' && mode === 'live') {
        const organisation = await getOrganisation(tx, subject);
        return { outcome: 'done', result: { id: organisation.id, name: organisation.name, liveEnabled: organisation.liveEnabled, changed: false } };
      }
      const result = await perform(services, tx, request, actor, now);
      await writeStaffAudit(tx, { staffId: actor.staffId, action: DONE_ACTION[request.kind], target: `${mode} ${describe(request, subject)}`, origin: actor.origin, now });
      return { outcome: 'done', result };
    }
    const open = await tx.selectFrom('opsProposals').select('id').where('kind', '=', request.kind).where('subject', '=', subject).where('status', '=', 'open').executeTakeFirst();
    if (open) throw new AppError('proposal_pending', `An open proposal (${open.id}) exists already for this ${request.kind.replace(/_/g, ' ')}: approve or refuse it.`, undefined, { proposalId: open.id });
    const { kind, ...payload } = request;
    const row: OpsProposalsTable = {
      id: newId(),
      kind,
      subject,
      organisationId,
      payload: JSON.stringify(payload),
      status: 'open',
      proposedBy: actor.staffId,
      proposedAt: now.toISOString(),
      decidedBy: null,
      decidedAt: null,
      note: null,
      result: null,
    };
    await tx.insertInto('opsProposals').values(row).execute();
    await writeStaffAudit(tx, { staffId: actor.staffId, action: 'proposal_created', target: `proposal:${row.id} ${describe(request, subject)}`, origin: actor.origin, now });
    return { outcome: 'proposed', proposal: toProposal(row) };
  });
  if (outcome.outcome === 'done') await afterCommit(services, request, outcome.result);
  return outcome;
}

async function openProposal(tx: Tx, id: string): Promise<OpsProposalsTable> {
  const row = await tx.selectFrom('opsProposals').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('proposal');
  if (row.status !== 'open') throw new AppError('proposal_closed', `This proposal was ${row.status} already.`);
  return row;
}

/** A different staff member (with the action's permission) approves: the action runs now, in the same transaction. */
export async function approveProposal(services: FourEyesServices, actor: StaffActor, proposalId: string): Promise<{ proposal: Proposal; result: unknown }> {
  const now = services.clock.now();
  const decided = await inUnitOfWork(services.db, async (tx) => {
    const row = await openProposal(tx, proposalId);
    requireStaffPermission(actor, PERMISSION[row.kind]);
    if (row.proposedBy === actor.staffId) {
      throw new AppError('four_eyes_required', 'You proposed this: another staff member must approve it.', undefined, { proposalId: row.id });
    }
    const at = now.toISOString();
    const request = { kind: row.kind, ...(parseJson(row.payload) as object) } as LiveMoneyRequest;
    const result = await perform(services, tx, request, actor, now);
    const moved = await tx
      .updateTable('opsProposals')
      .set({ status: 'approved', decidedBy: actor.staffId, decidedAt: at, result: JSON.stringify(result) })
      .where('id', '=', row.id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new AppError('proposal_closed', 'This proposal was decided meanwhile.');
    await writeStaffAudit(tx, { staffId: actor.staffId, action: 'proposal_approved', target: `proposal:${row.id} ${describe(request, row.subject)}`, origin: actor.origin, now });
    await writeStaffAudit(tx, { staffId: actor.staffId, action: DONE_ACTION[row.kind], target: `live ${describe(request, row.subject)} proposal:${row.id}`, origin: actor.origin, now });
    const updated = await tx.selectFrom('opsProposals').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    return { proposal: toProposal(updated), result, request };
  });
  await afterCommit(services, decided.request, decided.result);
  return { proposal: decided.proposal, result: decided.result };
}

/**
 * Refuses (or, by its proposer, withdraws) an open proposal with a reason; nothing else changes, except that a refused
 * insurance record's policy document, stored for the approver to read, is removed once the refusal has committed.
 */
export async function refuseProposal(services: FourEyesServices & Partial<Pick<Services, 'files'>>, actor: StaffActor, proposalId: string, reason: string): Promise<Proposal> {
  const now = services.clock.now();
  const refused = await inUnitOfWork(services.db, async (tx) => {
    const row = await openProposal(tx, proposalId);
    requireStaffPermission(actor, PERMISSION[row.kind]);
    const at = now.toISOString();
    const moved = await tx
      .updateTable('opsProposals')
      .set({ status: 'refused', decidedBy: actor.staffId, decidedAt: at, note: reason })
      .where('id', '=', row.id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new AppError('proposal_closed', 'This proposal was decided meanwhile.');
    await writeStaffAudit(tx, { staffId: actor.staffId, action: 'proposal_refused', target: `proposal:${row.id} ${row.kind}:${row.subject} (${reason.slice(0, 120)})`, origin: actor.origin, now });
    return toProposal({ ...row, status: 'refused', decidedBy: actor.staffId, decidedAt: at, note: reason });
  });
  const documentKey = refused.kind === 'insurance_policy_record' ? refused.payload.documentKey : undefined;
  if (typeof documentKey === 'string' && services.files) await services.files.delete([documentKey]).catch(() => undefined);
  return refused;
}

export interface ProposalListItem extends Proposal {
  proposedByEmail: string;
  decidedByEmail: string | null;
}

/** Proposals by status, newest first, keyset-paged on `(proposed_at, id)`. */
export async function listProposals(
  services: Pick<FourEyesServices, 'db'>,
  options: { status: 'open' | 'approved' | 'refused'; limit: number; after?: { at: string; id: string } | undefined },
): Promise<ProposalListItem[]> {
  let select = services.db
    .selectFrom('opsProposals as p')
    .innerJoin('staffAccounts as a', 'a.id', 'p.proposedBy')
    .leftJoin('staffAccounts as d', 'd.id', 'p.decidedBy')
    .selectAll('p')
    .select(['a.email as proposedByEmail', 'd.email as decidedByEmail'])
    .where('p.status', '=', options.status);
  const after = options.after;
  if (after) select = select.where((eb) => eb.or([eb('p.proposedAt', '<', after.at), eb.and([eb('p.proposedAt', '=', after.at), eb('p.id', '<', after.id)])]));
  const rows = await select.orderBy('p.proposedAt', 'desc').orderBy('p.id', 'desc').limit(options.limit).execute();
  return rows.map((row) => ({ ...toProposal(row), proposedByEmail: row.proposedByEmail, decidedByEmail: row.decidedByEmail ?? null }));
}
