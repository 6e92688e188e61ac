import type { Executor } from '../../db/database';
import { loanIdSuffixMatches } from './loan-reference-match';
import { PREAPPROVAL_STATUSES, type PreapprovalStatus } from '../preapprovals/preapproval';
import type { Scope } from '../scope';
import { LOAN_STATUSES, type LoanStatus } from './loan';

/**
 * The dashboard's loans and pre-approvals lists: newest first, keyset-paged on `(createdAt, id)` — never
 * OFFSET, never COUNT — so a page costs the same at the 100,000th loan as at the first. Each filter combination is
 * answered by one of the indexes of migration 0033: `(organisation_id, mode[, status | loan_product_id], created_at, id)`.
 * Search is an exact match on a reference the partner knows: the loan's id, the partner's `clientReference`, the
 * pre-approval id or the assessment id (a reference is an identifier, not a phrase: exact matches stay indexed).
 * A loan is also found by the short reference its borrower's receipt shows (`loanReference`, e.g. `1Q4Z-Z9YW`): that is
 * the id's last forty bits, so it is matched as the id's last ten characters (`loanIdSuffixMatches`) within the
 * organisation and mode. No index holds that suffix yet, so this one filter reads the organisation's loans in that
 * mode (`loans_list_idx`); an expression index `(organisation_id, mode, substr(id, 27))` would make it a lookup
 * without a change here.
 */
export interface ListKey {
  at: string;
  id: string;
}

export interface LoanListFilters {
  status?: LoanStatus;
  productId?: string;
  /** Created on or after this day (UTC, `YYYY-MM-DD`). */
  from?: string;
  /** Created on or before this day (UTC, inclusive). */
  to?: string;
  /** An exact reference: loan id, `clientReference` or the short loan reference (any case, dash and spaces optional). */
  q?: string;
}

export interface LoanListRow {
  id: string;
  clientReference: string | null;
  status: LoanStatus;
  borrowerName: string;
  productId: string;
  productName: string;
  principalKobo: number;
  outstandingKobo: number;
  inArrears: boolean;
  createdAt: string;
  disbursedAt: string | null;
}

export { LOAN_STATUSES, PREAPPROVAL_STATUSES };

const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();

/** The list's statement (exported so a test can ask the database for its plan). */
export function loansPageQuery(db: Executor, scope: Scope, filters: LoanListFilters, page: { limit: number; after?: ListKey }) {
  let query = db
    .selectFrom('loans as l')
    .innerJoin('borrowers as b', 'b.id', 'l.borrowerId')
    .innerJoin('loanProducts as p', 'p.id', 'l.loanProductId')
    .select([
      'l.id',
      'l.clientReference',
      'l.status',
      'b.firstName',
      'b.lastName',
      'l.loanProductId',
      'p.name as productName',
      'l.principalKobo',
      'l.outstandingKobo',
      'l.inArrears',
      'l.createdAt',
      'l.disbursedAt',
    ])
    .where('l.organisationId', '=', scope.organisationId)
    .where('l.mode', '=', scope.mode);
  if (filters.status) query = query.where('l.status', '=', filters.status);
  if (filters.productId) query = query.where('l.loanProductId', '=', filters.productId);
  if (filters.from) query = query.where('l.createdAt', '>=', `${filters.from}T00:00:00.000Z`);
  if (filters.to) query = query.where('l.createdAt', '<', dayAfter(filters.to));
  const q = filters.q;
  if (q) {
    const byShortReference = loanIdSuffixMatches('l.id', q);
    query = query.where((eb) => eb.or([eb('l.id', '=', q), eb('l.clientReference', '=', q), ...(byShortReference ? [byShortReference] : [])]));
  }
  const after = page.after;
  if (after) query = query.where((eb) => eb.or([eb('l.createdAt', '<', after.at), eb.and([eb('l.createdAt', '=', after.at), eb('l.id', '<', after.id)])]));
  return query.orderBy('l.createdAt', 'desc').orderBy('l.id', 'desc').limit(page.limit + 1);
}

/** `limit` rows after `after` (exclusive), plus one more when there is a next page: the caller's `pageOf` trims it. */
export async function listLoansPage(db: Executor, scope: Scope, filters: LoanListFilters, page: { limit: number; after?: ListKey }): Promise<LoanListRow[]> {
  const rows = await loansPageQuery(db, scope, filters, page).execute();
  return rows.map((r) => ({
    id: r.id,
    clientReference: r.clientReference,
    status: r.status as LoanStatus,
    borrowerName: `${r.firstName} ${r.lastName}`.trim(),
    productId: r.loanProductId,
    productName: r.productName,
    principalKobo: Number(r.principalKobo),
    outstandingKobo: Number(r.outstandingKobo),
    inArrears: Boolean(r.inArrears),
    createdAt: r.createdAt,
    disbursedAt: r.disbursedAt,
  }));
}

export interface PreapprovalListFilters {
  status?: PreapprovalStatus;
  from?: string;
  to?: string;
  /** An exact reference: pre-approval id, assessment id or `clientReference`. */
  q?: string;
}

export interface PreapprovalListRow {
  id: string;
  assessmentId: string;
  clientReference: string | null;
  status: PreapprovalStatus;
  recommendation: string;
  borrowerName: string;
  approvedAmountKobo: number;
  riskBand: string | null;
  expiresAt: string | null;
  loanId: string | null;
  createdAt: string;
}

export async function listPreapprovalsPage(
  db: Executor,
  scope: Scope,
  filters: PreapprovalListFilters,
  page: { limit: number; after?: ListKey },
): Promise<PreapprovalListRow[]> {
  let query = db
    .selectFrom('preapprovals as p')
    .innerJoin('borrowers as b', 'b.id', 'p.borrowerId')
    .select([
      'p.id',
      'p.assessmentId',
      'p.clientReference',
      'p.status',
      'p.recommendation',
      'b.firstName',
      'b.lastName',
      'p.approvedAmountKobo',
      'p.riskBand',
      'p.expiresAt',
      'p.loanId',
      'p.createdAt',
    ])
    .where('p.organisationId', '=', scope.organisationId)
    .where('p.mode', '=', scope.mode);
  if (filters.status) query = query.where('p.status', '=', filters.status);
  if (filters.from) query = query.where('p.createdAt', '>=', `${filters.from}T00:00:00.000Z`);
  if (filters.to) query = query.where('p.createdAt', '<', dayAfter(filters.to));
  const q = filters.q;
  if (q) query = query.where((eb) => eb.or([eb('p.id', '=', q), eb('p.assessmentId', '=', q), eb('p.clientReference', '=', q)]));
  const after = page.after;
  if (after) query = query.where((eb) => eb.or([eb('p.createdAt', '<', after.at), eb.and([eb('p.createdAt', '=', after.at), eb('p.id', '<', after.id)])]));
  const rows = await query.orderBy('p.createdAt', 'desc').orderBy('p.id', 'desc').limit(page.limit + 1).execute();
  return rows.map((r) => ({
    id: r.id,
    assessmentId: r.assessmentId,
    clientReference: r.clientReference,
    status: r.status as PreapprovalStatus,
    recommendation: r.recommendation,
    borrowerName: `${r.firstName} ${r.lastName}`.trim(),
    approvedAmountKobo: Number(r.approvedAmountKobo),
    riskBand: r.riskBand,
    expiresAt: r.expiresAt,
    loanId: r.loanId,
    createdAt: r.createdAt,
  }));
}
