import crypto from 'node:crypto';
import type { KycAttestationsTable, LoansTable, Mode } from '../../db/schema';
import type { AmlScreenResult } from '../ports';
import { fromJson, toJson } from '../../db/database';
import { newId } from '../ids';
import { writeBehind } from '../../db/precompiled';
import type { LoanContext, LoanWriteContext } from './loan-context';
import { emitLoanEvent } from './loan-events';

/** One in twenty attestations is sampled for a reviewer's audit (decided from the id, so it is stable). */
const AUDIT_SAMPLE_ONE_IN = 20;

export interface KycAttestation {
  id: string;
  organisationId: string;
  borrowerId: string;
  loanId: string | null;
  attestedAt: string;
  attestedByKey: string;
  attestedChecks: Record<string, unknown>;
  schemaVersion: number;
  amlScreenStatus: 'pending' | 'clear' | 'hit';
  amlScreenDetail: string | null;
  amlScreenedAt: string | null;
  sampledForAudit: boolean;
  auditOutcome: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toAttestation(row: KycAttestationsTable): KycAttestation {
  return {
    id: row.id,
    organisationId: row.organisationId,
    borrowerId: row.borrowerId,
    loanId: row.loanId,
    attestedAt: row.attestedAt,
    attestedByKey: row.attestedByKey,
    attestedChecks: fromJson<Record<string, unknown>>(row.attestedChecks) ?? {},
    schemaVersion: row.schemaVersion,
    amlScreenStatus: row.amlScreenStatus as KycAttestation['amlScreenStatus'],
    amlScreenDetail: row.amlScreenDetail,
    amlScreenedAt: row.amlScreenedAt,
    sampledForAudit: Boolean(row.sampledForAudit),
    auditOutcome: row.auditOutcome,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * Records the tenant's Tier A evidence for a loan and screens the borrower (AML). The caller
 * decides what the verdict does to the loan, then calls `emitAttested`.
 */
export async function attestAndScreen(
  ctx: LoanContext,
  loan: LoansTable,
  evidence: { attestedChecks: Record<string, unknown>; schemaVersion: number },
  /** The screen's verdict when the caller screened the borrower already (see `screenBorrower`). */
  screened?: AmlScreenResult,
): Promise<KycAttestation> {
  let verdict = screened;
  if (!verdict) {
    const borrower = await ctx.db.selectFrom('borrowers').select(['firstName', 'lastName']).where('id', '=', loan.borrowerId).executeTakeFirstOrThrow();
    verdict = await screenBorrower(ctx, borrower, loan.mode);
  }
  const id = newId();
  const at = ctx.now.toISOString();
  const row: KycAttestationsTable = {
    id,
    organisationId: loan.organisationId,
    mode: loan.mode,
    borrowerId: loan.borrowerId,
    loanId: loan.id,
    attestedAt: at,
    attestedByKey: ctx.actor,
    attestedChecks: toJson(evidence.attestedChecks),
    schemaVersion: evidence.schemaVersion,
    amlScreenStatus: verdict.status,
    amlScreenDetail: verdict.detail,
    amlScreenedAt: at,
    sampledForAudit: crypto.createHash('sha256').update(id).digest()[0]! % AUDIT_SAMPLE_ONE_IN === 0,
    auditOutcome: null,
    createdAt: at,
    updatedAt: at,
  };
  await insertAttestation(ctx.db, row);
  return toAttestation(row);
}

const insertAttestation = writeBehind((db, row: KycAttestationsTable) => db.insertInto('kycAttestations').values(row));

/** The AML screen of a borrower, for callers that need the verdict before they write. */
export function screenBorrower(ctx: LoanContext, borrower: { firstName: string; lastName: string }, mode: Mode): Promise<AmlScreenResult> {
  return ctx.platform.aml.screen({ firstName: borrower.firstName, lastName: borrower.lastName, mode });
}

/** `loan.kyc.attested`, sent once the verdict has moved the loan (so it carries the new status). */
export async function emitAttested(ctx: LoanWriteContext, loan: LoansTable, attestation: KycAttestation): Promise<void> {
  await emitLoanEvent(ctx, 'loan.kyc.attested', loan, {
    attestationId: attestation.id,
    amlScreenStatus: attestation.amlScreenStatus,
    schemaVersion: attestation.schemaVersion,
  });
}
