import type { LoansTable } from '../../db/schema';
import { toJson } from '../../db/database';
import { AppError } from '../errors';
import { newId } from '../ids';
import { BVN_HASH_PURPOSE } from '../preapprovals/push-preapproval';
import { ninHash } from '../borrowers/nin';
import { getLoanRow, invalidState, transitionLoan, type LoanStatus } from './loan';
import type { LoanWriteContext } from './loan-context';
import { openReview } from '../reviews/open-review';
import { FROM } from './transitions';

export interface KycSubmission {
  bvn: string;
  nin?: string;
  dateOfBirth?: string;
  address?: string;
}

export interface LoanKycResult {
  outcome: 'verified' | 'failed' | 'pending';
  loanStatus: LoanStatus;
  documents: Array<{ type: string; status: string }>;
}

/**
 * Managed-tier (Tier B) KYC: the service verifies the identity itself. `verified` completes KYC;
 * `failed` and `pending` leave the loan as it is (submit again, or poll). `undecided` — the provider
 * answered but cannot decide without a person (a registry record with nothing to compare the date of
 * birth with) — parks the loan `under_review` with a `kyc_undecided` review: clearing it completes KYC
 * as a `verified` answer would have; the answer says `pending` with the loan `under_review`. A BVN that
 * differs from the one the borrower was matched by fails without asking the provider. Only a keyed hash
 * of the BVN (and of the NIN) is kept.
 */
export async function submitKyc(ctx: LoanWriteContext, loanId: string, submission: KycSubmission): Promise<LoanKycResult> {
  let loan: LoansTable = await getLoanRow(ctx.db, ctx.scope, loanId);
  if (loan.kycTier !== 'managed') {
    throw new AppError('wrong_kyc_tier', 'This is a delegated-tier loan: the service does not run KYC for it; send an attestation instead.');
  }
  if (!(FROM.kyc as readonly string[]).includes(loan.status)) throw invalidState(loan.status, 'kyc_completed');
  // Live mode without an identity provider: 503 before anything is recorded.
  const identity = ctx.platform.identity.for(loan.mode);
  const bvnHash = ctx.platform.secrets.hmac(BVN_HASH_PURPOSE, submission.bvn);
  const borrower = await ctx.db.selectFrom('borrowers').select(['id', 'bvnHash']).where('id', '=', loan.borrowerId).executeTakeFirstOrThrow();

  const previous = await ctx.db.selectFrom('kycSubmissions').select('id').where('loanId', '=', loan.id).where('bvnHash', '=', bvnHash).execute();
  let result: { outcome: LoanKycResult['outcome'] | 'undecided'; documents: LoanKycResult['documents'] };
  if (borrower.bvnHash && borrower.bvnHash !== bvnHash) {
    result = { outcome: 'failed', documents: [{ type: 'bvn', status: 'mismatch' }] };
  } else {
    const taken = borrower.bvnHash
      ? undefined
      : await ctx.db
          .selectFrom('borrowers')
          .select('id')
          .where('organisationId', '=', loan.organisationId)
          .where('mode', '=', loan.mode)
          .where('bvnHash', '=', bvnHash)
          .executeTakeFirst();
    result = taken
      ? { outcome: 'failed', documents: [{ type: 'bvn', status: 'belongs_to_another_borrower' }] }
      : await identity.verify({
          bvn: submission.bvn,
          nin: submission.nin,
          dateOfBirth: submission.dateOfBirth,
          mode: loan.mode,
          previousAttempts: previous.length,
        });
  }
  const kycSubmissionId = newId();
  const keptNinHash = submission.nin ? ninHash(ctx.platform.secrets, submission.nin) : null;
  await ctx.db
    .insertInto('kycSubmissions')
    .values({ id: kycSubmissionId, loanId: loan.id, bvnHash, ninHash: keptNinHash, outcome: result.outcome, documents: toJson(result.documents), createdAt: ctx.now.toISOString() })
    .execute();
  if (result.outcome === 'verified') {
    await completeKyc(ctx, borrower, { bvnHash, ninHash: keptNinHash });
    loan = await transitionLoan(ctx.db, loan, FROM.kyc, { status: 'kyc_completed' }, ctx.now);
  } else if (result.outcome === 'undecided') {
    loan = await transitionLoan(ctx.db, loan, FROM.kyc, { status: 'under_review' }, ctx.now);
    await openReview(ctx, loan, {
      reason: 'kyc_undecided',
      evidence: { kycSubmissionId, documents: result.documents, submissions: previous.length + 1, ninGiven: submission.nin !== undefined },
      resumeWith: 'kyc_completed',
    });
  }
  return { outcome: result.outcome === 'undecided' ? 'pending' : result.outcome, loanStatus: loan.status as LoanStatus, documents: result.documents };
}

/**
 * What a verified identity leaves on the borrower: the keyed hashes of the BVN (and NIN) it was verified with, unless the
 * borrower has a BVN already (it was matched by it). Also run when a person clears a `kyc_undecided` review.
 */
export async function completeKyc(ctx: LoanWriteContext, borrower: { id: string; bvnHash: string | null }, hashes: { bvnHash: string; ninHash: string | null }): Promise<void> {
  if (borrower.bvnHash) return;
  await ctx.db.updateTable('borrowers').set({ bvnHash: hashes.bvnHash, ninHash: hashes.ninHash, updatedAt: ctx.now.toISOString() }).where('id', '=', borrower.id).execute();
}

