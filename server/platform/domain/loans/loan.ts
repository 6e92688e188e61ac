import type { Executor } from '../../db/database';
import { guardedWriteBehind, precompiled, writeBehind } from '../../db/precompiled';
import { fromJson } from '../../db/database';
import type { LoansTable, Mode } from '../../db/schema';
import { AppError, notFound } from '../errors';
import type { Secrets } from '../secrets';
import { BoundedMap } from '../../../shared/bounded-map';
import type { Scope } from '../scope';
import { loanIdSuffixMatches } from './loan-reference-match';

/** Sealing purpose of the auto-minted checkout session's token kept on the loan. */
const APPLICATION_TOKEN_PURPOSE = 'checkout-application-token';

/**
 * Application tokens sealed or unsealed lately, per `Secrets` (bounded, oldest out). A loan's view
 * carries its `applicationUrl`, and a view is built for every answer and every event about the
 * loan: remembering the pair saves an AES-GCM unseal each time. The tokens are the ones those
 * answers carry anyway.
 */
const recentTokens = new WeakMap<object, BoundedMap<string, string>>();
const MAX_RECENT_TOKENS = 2_000;

function remember(secrets: object, sealed: string, token: string): void {
  let recent = recentTokens.get(secrets);
  if (!recent) recentTokens.set(secrets, (recent = new BoundedMap(MAX_RECENT_TOKENS)));
  recent.set(sealed, token);
}

/** Seals the token of the loan's auto-minted checkout session for `applicationTokenSealed`. */
export function sealApplicationToken(secrets: Pick<Secrets, 'encrypt'>, token: string): string {
  const sealed = secrets.encrypt(APPLICATION_TOKEN_PURPOSE, token);
  remember(secrets, sealed, token);
  return sealed;
}

/** The token of the session behind `applicationUrl` (unsealed), or null when the loan has none. */
export function applicationTokenOf(row: Pick<LoansTable, 'applicationTokenSealed'>, secrets: Pick<Secrets, 'decrypt'>): string | null {
  if (!row.applicationTokenSealed) return null;
  let token = recentTokens.get(secrets)?.get(row.applicationTokenSealed);
  if (token === undefined) {
    token = secrets.decrypt(APPLICATION_TOKEN_PURPOSE, row.applicationTokenSealed);
    remember(secrets, row.applicationTokenSealed, token);
  }
  return token;
}

/** The hosted checkout URL: the stored prefix joined with the unsealed token of the auto-minted session. */
export function applicationUrlOf(row: Pick<LoansTable, 'applicationUrl' | 'applicationTokenSealed'>, secrets: Pick<Secrets, 'decrypt'>): string | null {
  if (!row.applicationUrl || !row.applicationTokenSealed) return null;
  return `${row.applicationUrl}${applicationTokenOf(row, secrets)}`;
}

import { LOAN_STATUSES } from '../../../shared/loan-statuses';
import { LOAN_COLUMNS } from '../../db/columns';
import { ownedBy } from '../find-owned';
export { LOAN_STATUSES };
export type LoanStatus = (typeof LOAN_STATUSES)[number];

export type { Scope } from '../scope';

/** The public Loan resource, built field by field; internal columns stay inside. */
export interface Loan {
  id: string;
  organisationId: string;
  borrowerId: string;
  loanProductId: string;
  status: LoanStatus;
  approvalMode: string;
  kycTier: string;
  settlementDestination: string;
  currency: string;
  tenorDays: number;
  repaymentFrequency: string;
  interestRateBps: number;
  amountRequestedKobo: number;
  principalKobo: number;
  principalBalanceKobo: number;
  amountPaidKobo: number;
  outstandingKobo: number;
  disbursedAmountKobo: number | null;
  disbursedAt: string | null;
  disbursementReference: string | null;
  approvedAt: string | null;
  approvalNotes: string | null;
  rejectionReason: string | null;
  termsAcceptedAt: string | null;
  offerLetterIssuedAt: string | null;
  pricingSnapshotId: string | null;
  documentReference: string | null;
  activeMandateId: string | null;
  hasActiveMandate: boolean;
  applicationUrl: string | null;
  clientReference: string | null;
  metadata: Record<string, unknown> | null;
  cancelledBy: string | null;
  cancellationReason: string | null;
  preapprovalId: string | null;
  inArrears: boolean;
  arrearsSince: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toLoan(row: LoansTable, secrets: Pick<Secrets, 'decrypt'>): Loan {
  return {
    id: row.id,
    organisationId: row.organisationId,
    borrowerId: row.borrowerId,
    loanProductId: row.loanProductId,
    status: row.status as LoanStatus,
    approvalMode: row.approvalMode,
    kycTier: row.kycTier,
    settlementDestination: row.settlementDestination,
    currency: row.currency,
    tenorDays: row.tenorDays,
    repaymentFrequency: row.repaymentFrequency,
    interestRateBps: row.interestRateBps,
    amountRequestedKobo: row.amountRequestedKobo,
    principalKobo: row.principalKobo,
    principalBalanceKobo: row.principalBalanceKobo,
    amountPaidKobo: row.amountPaidKobo,
    outstandingKobo: row.outstandingKobo,
    disbursedAmountKobo: row.disbursedAmountKobo,
    disbursedAt: row.disbursedAt,
    disbursementReference: row.disbursementReference,
    approvedAt: row.approvedAt,
    approvalNotes: row.approvalNotes,
    rejectionReason: row.rejectionReason,
    termsAcceptedAt: row.termsAcceptedAt,
    offerLetterIssuedAt: row.offerLetterIssuedAt,
    pricingSnapshotId: row.pricingSnapshotId,
    documentReference: row.documentReference,
    activeMandateId: row.activeMandateId,
    hasActiveMandate: Boolean(row.hasActiveMandate),
    applicationUrl: applicationUrlOf(row, secrets),
    clientReference: row.clientReference,
    metadata: fromJson<Record<string, unknown>>(row.metadata),
    cancelledBy: row.cancelledBy,
    cancellationReason: row.cancellationReason,
    preapprovalId: row.preapprovalId,
    inArrears: Boolean(row.inArrears),
    arrearsSince: row.arrearsSince,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** By primary key alone, its owner checked after (`ownedBy` says why). */
const selectLoan = precompiled((db, a: { id: string }) => db.selectFrom('loans').select(LOAN_COLUMNS).where('id', '=', a.id));

export async function findLoanRow(db: Executor, scope: Scope, id: string): Promise<LoansTable | undefined> {
  const { rows } = await selectLoan(db, { id });
  return ownedBy(rows[0], scope);
}

export async function getLoanRow(db: Executor, scope: Scope, id: string): Promise<LoansTable> {
  const row = await findLoanRow(db, scope, id);
  if (!row) throw notFound('loan');
  return row;
}

export async function getLoan(db: Executor, secrets: Pick<Secrets, 'decrypt'>, scope: Scope, id: string): Promise<Loan> {
  return toLoan(await getLoanRow(db, scope, id), secrets);
}

/** `reference`: the short loan reference a borrower reads from the receipt (`loanReference`); a caller validates it first. */
export async function listLoans(db: Executor, secrets: Pick<Secrets, 'decrypt'>, scope: Scope, options: { status?: LoanStatus; reference?: string; limit: number }): Promise<Loan[]> {
  let query = db.selectFrom('loans').selectAll().where('organisationId', '=', scope.organisationId).where('mode', '=', scope.mode);
  if (options.status) query = query.where('status', '=', options.status);
  const byReference = options.reference === undefined ? undefined : loanIdSuffixMatches('id', options.reference);
  if (byReference) query = query.where(byReference);
  const rows = await query.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
  return rows.map((row) => toLoan(row, secrets));
}

/**
 * Moves a loan from one of `from` to a new status with other column changes, as one conditional
 * UPDATE: if another request moved the loan first, nothing is written and the caller gets 409.
 * This is the only way loan status changes, so concurrent transitions cannot both win.
 */
const statusUpdate = (db: Executor, a: { set: Partial<LoansTable>; id: string; status: string }) =>
  db.updateTable('loans').set(a.set).where('id', '=', a.id).where('status', '=', a.status);
const updateLoanStatus = precompiled(statusUpdate);
/** The same update, its row count checked with the commit (`guardedWriteBehind`). */
const updateLoanStatusAtCommit = guardedWriteBehind(statusUpdate);

/** The same update, for a loan this transaction inserted: no other transaction can have moved it, so no row count is read. */
const updateNewLoanStatus = writeBehind((db, a: { set: Partial<LoansTable>; id: string; status: string }) =>
  db.updateTable('loans').set(a.set).where('id', '=', a.id).where('status', '=', a.status),
);

export async function transitionLoan(
  db: Executor,
  loan: LoansTable,
  from: readonly LoanStatus[],
  changes: Partial<LoansTable> & { status: LoanStatus },
  now: Date,
  /**
   * `createdNow`: this transaction inserted the loan (uncommitted, so invisible to any other): the update is written,
   * not waited for. `checkAtCommit`: a concurrent move is refused (409 `invalid_loan_state`) with the commit at the
   * latest instead of here (`guardedWriteBehind`), for a caller that does nothing after this reaching outside the
   * database and catches no refusal.
   */
  options: { createdNow?: boolean; checkAtCommit?: boolean } = {},
): Promise<LoansTable> {
  if (!from.includes(loan.status as LoanStatus)) throw invalidState(loan.status, changes.status);
  if (changes.status === 'awaiting_acceptance' && loan.mode === 'live' && loan.status !== 'awaiting_acceptance') await requireClearScreen(db, loan.id);
  const updatedAt = now.toISOString();
  if (options.createdNow) {
    await updateNewLoanStatus(db, { set: { ...changes, updatedAt }, id: loan.id, status: loan.status });
    return { ...loan, ...changes, updatedAt };
  }
  if (options.checkAtCommit) {
    await updateLoanStatusAtCommit(db, { set: { ...changes, updatedAt }, id: loan.id, status: loan.status }, () =>
      invalidState('changed concurrently', changes.status),
    );
    return { ...loan, ...changes, updatedAt };
  }
  const result = await updateLoanStatus(db, { set: { ...changes, updatedAt }, id: loan.id, status: loan.status });
  if (Number(result.numAffectedRows) !== 1) throw invalidState('changed concurrently', changes.status);
  return { ...loan, ...changes, updatedAt };
}

/**
 * A live loan is offered only to a borrower whose AML screen for this loan came back clear: whichever path issues the
 * offer (approval, a pushed decision, patient financing, a person's review), the record must be there. A path that
 * did not screen is refused here rather than trusted.
 */
async function requireClearScreen(db: Executor, loanId: string): Promise<void> {
  const screened = await db.selectFrom('kycAttestations').select('id').where('loanId', '=', loanId).where('amlScreenStatus', '=', 'clear').limit(1).executeTakeFirst();
  // Only a person's clearing of an AML review stands in for the screen: a cleared identity or name review says nothing about sanctions.
  const cleared =
    screened ??
    (await db
      .selectFrom('loanReviews')
      .select('id')
      .where('loanId', '=', loanId)
      .where('openedReason', 'in', ['aml_not_screened', 'aml_hit'])
      .where('closedReason', '=', 'cleared')
      .limit(1)
      .executeTakeFirst());
  if (!cleared) {
    throw new AppError('aml_screen_required', 'This live loan has no clear AML screen of its borrower, so no offer can be issued: approve it (the approval screens the borrower) or wait for its review.');
  }
}

export function invalidState(current: string, target: string): AppError {
  return new AppError('invalid_loan_state', `The loan is ${current}; it cannot move to ${target}. Re-read the loan.`);
}
