import { sql } from 'kysely';
import type { Executor, Tx } from '../../db/database';
import { AppError, notFound } from '../errors';
import { emitLoanEvent } from '../loans/loan-events';
import type { LoanWriteContext } from '../loans/loan-context';
import type { Mode } from '../scope';
import type { Keyset } from './queues';

/**
 * Insurance bound by hand. No insurer in Nigeria publishes an API the platform can call, so live cover is bound
 * outside it (`StaffRecordedInsurer`): an insured live loan disburses with its policy `pending` and the premium booked
 * payable to the insurer (`loans/insurance.ts`). A staff member then records the policy number and the policy
 * document (a PDF) the insurer issued (`record-insurance-policy.ts`); in live mode that is a four-eyes proposal
 * (`insurance_policy_record`) and the policy becomes `active` only when a different staff member approves it, with
 * `loan.insurance.activated` in the same transaction. No money moves when it is recorded: the payable was booked at
 * disbursement.
 */

/** The largest policy document accepted, in bytes (a scanned certificate of a few pages fits). */
export const POLICY_DOCUMENT_MAX_BYTES = 5 * 1024 * 1024;

export interface PolicyToRecord {
  /** The policy's id. */
  id: string;
  loanId: string;
  organisationId: string;
  organisationName: string;
  mode: Mode;
  /** The insurer (`INSURANCE_LIVE_INSURER` for live cover). */
  provider: string;
  premiumKobo: number;
  principalKobo: number;
  tenorDays: number;
  /** When the loan was disbursed and the policy asked for. */
  createdAt: string;
  /** The open four-eyes proposal that records it, if any. */
  proposalId: string | null;
}

/** The queue "Insurance policies to record": pending policies, newest first, keyset-paged on `(created_at, id)`. */
export async function policiesToRecord(db: Executor, options: { limit: number; after?: Keyset | undefined }): Promise<PolicyToRecord[]> {
  let select = db
    .selectFrom('loanInsurancePolicies as p')
    .innerJoin('organisations as o', 'o.id', 'p.organisationId')
    .innerJoin('loans as l', 'l.id', 'p.loanId')
    .leftJoin('opsProposals as x', (j) => j.onRef('x.subject', '=', 'p.id').on('x.kind', '=', 'insurance_policy_record').on('x.status', '=', 'open'))
    .select(['p.id', 'p.loanId', 'p.organisationId', 'o.name as organisationName', 'p.mode', 'p.provider', 'p.premiumKobo', 'l.principalKobo', 'l.tenorDays', 'p.createdAt', 'x.id as proposalId'])
    .where('p.status', '=', 'pending');
  const after = options.after;
  if (after) select = select.where((eb) => eb.or([eb('p.createdAt', '<', after.at), eb.and([eb('p.createdAt', '=', after.at), eb('p.id', '<', after.id)])]));
  const rows = await select.orderBy('p.createdAt', 'desc').orderBy('p.id', 'desc').limit(options.limit).execute();
  return rows.map((row) => ({ ...row, premiumKobo: Number(row.premiumKobo), principalKobo: Number(row.principalKobo), proposalId: row.proposalId ?? null }));
}

export async function countPoliciesToRecord(db: Executor): Promise<number> {
  const row = await db.selectFrom('loanInsurancePolicies').select(sql<number | string>`count(*)`.as('count')).where('status', '=', 'pending').executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** What recording a policy sets: the insurer's policy number and the stored document. */
export interface PolicyRecord {
  policyId: string;
  policyNumber: string;
  documentKey: string;
  documentBytes: number;
  documentSha256: string;
}

/** The policy's subject for four eyes: its id, organisation and mode, and whether it still waits to be recorded. */
export async function policySubject(db: Executor, policyId: string): Promise<{ subject: string; organisationId: string; mode: Mode; stillOpen: boolean }> {
  const row = await db.selectFrom('loanInsurancePolicies').select(['id', 'organisationId', 'mode', 'status']).where('id', '=', policyId).executeTakeFirst();
  if (!row) throw notFound('insurance policy');
  return { subject: row.id, organisationId: row.organisationId, mode: row.mode, stillOpen: row.status === 'pending' };
}

export const notPending = (status: string) =>
  new AppError('insurance_policy_not_pending', `This insurance policy is ${status}, not pending: there is nothing to record.`, undefined, { status });

/**
 * Records the policy in `tx`: `pending` → `active` with the policy number and document (a conditional UPDATE, so a
 * policy recorded meanwhile answers 409 `insurance_policy_not_pending`), and `loan.insurance.activated`.
 */
export async function activatePolicyInTx(
  ctx: Omit<LoanWriteContext, 'scope'>,
  record: PolicyRecord,
): Promise<{ policyId: string; loanId: string; status: 'active'; policyReference: string; activatedAt: string }> {
  const db: Tx = ctx.db;
  const policy = await db.selectFrom('loanInsurancePolicies').selectAll().where('id', '=', record.policyId).executeTakeFirst();
  if (!policy) throw notFound('insurance policy');
  if (policy.status !== 'pending') throw notPending(policy.status);
  const at = ctx.now.toISOString();
  const moved = await db
    .updateTable('loanInsurancePolicies')
    .set({
      status: 'active',
      policyReference: record.policyNumber,
      documentKey: record.documentKey,
      documentBytes: record.documentBytes,
      documentSha256: record.documentSha256,
      activatedAt: at,
      updatedAt: at,
    })
    .where('id', '=', policy.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw notPending('recorded meanwhile');
  const loan = await db.selectFrom('loans').selectAll().where('id', '=', policy.loanId).executeTakeFirstOrThrow();
  await emitLoanEvent({ ...ctx, scope: { organisationId: loan.organisationId, mode: loan.mode } }, 'loan.insurance.activated', loan, {
    insurancePolicyId: policy.id,
    provider: policy.provider,
    policyReference: record.policyNumber,
    premiumKobo: Number(policy.premiumKobo),
    activatedAt: at,
  });
  return { policyId: policy.id, loanId: policy.loanId, status: 'active', policyReference: record.policyNumber, activatedAt: at };
}

/**
 * The policy document to show a staff member: the recorded one, or, while the policy is pending, the one its open
 * proposal would record (so the approver reads what they approve).
 */
export async function policyDocumentKey(db: Executor, policyId: string): Promise<string> {
  const policy = await db.selectFrom('loanInsurancePolicies').select(['id', 'documentKey']).where('id', '=', policyId).executeTakeFirst();
  if (!policy) throw notFound('insurance policy');
  if (policy.documentKey) return policy.documentKey;
  const open = await db.selectFrom('opsProposals').select('payload').where('kind', '=', 'insurance_policy_record').where('subject', '=', policyId).where('status', '=', 'open').executeTakeFirst();
  const payload = open ? ((typeof open.payload === 'string' ? JSON.parse(open.payload) : open.payload) as Partial<PolicyRecord>) : undefined;
  if (!payload?.documentKey) throw notFound('policy document');
  return payload.documentKey;
}
