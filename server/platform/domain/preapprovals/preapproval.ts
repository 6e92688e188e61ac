import type { Executor } from '../../db/database';
import { fromJson } from '../../db/database';
import type { BorrowerMatch } from '../borrowers/borrower-match';
import { precompiled } from '../../db/precompiled';
import type { Mode, PreapprovalsTable } from '../../db/schema';
import { findOwned } from '../find-owned';
import type { Scope } from '../scope';

import { PREAPPROVAL_STATUSES } from '../../../shared/loan-statuses';
import { PREAPPROVAL_COLUMNS } from '../../db/columns';
export { PREAPPROVAL_STATUSES };
export type PreapprovalStatus = (typeof PREAPPROVAL_STATUSES)[number];

/** The public Preapproval resource. Pushed payloads, the BVN hash and the NIN stay inside. */
export interface Preapproval {
  id: string;
  organisationId: string;
  borrowerId: string;
  assessmentId: string;
  clientReference: string | null;
  recommendation: string;
  approvedAmountKobo: number;
  interestRateBps: number | null;
  tenorDays: number | null;
  repaymentFrequency: string | null;
  confidence: string | null;
  riskBand: string | null;
  trustScore: number | null;
  status: PreapprovalStatus;
  expiresAt: string | null;
  loanId: string | null;
  providerOrgId: string | null;
  /** How the pushed borrower compared with the one on record for the BVN (null for pushes recorded before it was kept). */
  borrowerMatch: BorrowerMatch | null;
  createdAt: string;
  updatedAt: string;
}

export interface PreapprovalAck {
  preapprovalId: string;
  assessmentId: string;
  borrowerId: string;
  recommendation: string;
  approvedAmountKobo: number;
  status: PreapprovalStatus;
  expiresAt: string | null;
  borrowerMatch: BorrowerMatch | null;
}

export function toPreapproval(row: PreapprovalsTable): Preapproval {
  return {
    id: row.id,
    organisationId: row.organisationId,
    borrowerId: row.borrowerId,
    assessmentId: row.assessmentId,
    clientReference: row.clientReference,
    recommendation: row.recommendation,
    approvedAmountKobo: row.approvedAmountKobo,
    interestRateBps: row.interestRateBps,
    tenorDays: row.tenorDays,
    repaymentFrequency: row.repaymentFrequency,
    confidence: row.confidence,
    riskBand: row.riskBand,
    trustScore: row.trustScore,
    status: row.status as PreapprovalStatus,
    expiresAt: row.expiresAt,
    loanId: row.loanId,
    providerOrgId: row.providerOrgId,
    borrowerMatch: fromJson<BorrowerMatch>(row.borrowerMatch),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toAck(p: Preapproval): PreapprovalAck {
  return {
    preapprovalId: p.id,
    assessmentId: p.assessmentId,
    borrowerId: p.borrowerId,
    recommendation: p.recommendation,
    approvedAmountKobo: p.approvedAmountKobo,
    status: p.status,
    expiresAt: p.expiresAt,
    borrowerMatch: p.borrowerMatch,
  };
}


const selectByAssessment = precompiled((db, a: { organisationId: string; mode: Scope['mode']; assessmentId: string }) =>
  db.selectFrom('preapprovals').select(PREAPPROVAL_COLUMNS).where('organisationId', '=', a.organisationId).where('mode', '=', a.mode).where('assessmentId', '=', a.assessmentId),
);

export async function findPreapprovalByAssessment(db: Executor, scope: Scope, assessmentId: string) {
  const row = (await selectByAssessment(db, { organisationId: scope.organisationId, mode: scope.mode, assessmentId })).rows[0];
  return row && toPreapproval(row);
}

export async function getPreapproval(db: Executor, scope: Scope, id: string): Promise<Preapproval> {
  const row = await findOwned(db, 'preapprovals', scope, id, 'pre-approval');
  return toPreapproval(row);
}

export async function listPreapprovals(db: Executor, scope: Scope, options: { status?: PreapprovalStatus; limit: number }) {
  let query = db
    .selectFrom('preapprovals')
    .selectAll()
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode);
  if (options.status) query = query.where('status', '=', options.status);
  const rows = await query.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
  return rows.map(toPreapproval);
}
