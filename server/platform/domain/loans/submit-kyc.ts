import type { LoansTable } from '../../db/schema';
import { toJson } from '../../db/database';
import { AppError } from '../errors';
import { newId } from '../ids';
import { BVN_HASH_PURPOSE } from '../preapprovals/push-preapproval';
import { ninHash } from '../borrowers/nin';
import { getLoanRow, invalidState, transitionLoan, type LoanStatus } from './loan';
import type { LoanContext } from './loan-context';
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
 * `failed` and `pending` leave the loan as it is (submit again, or poll). A BVN that differs from
 * the one the borrower was matched by fails without asking the provider. Only a keyed hash of the
 * BVN (and of the NIN) is kept.
 */
export async function submitKyc(ctx: LoanContext, loanId: string, submission: KycSubmission): Promise<LoanKycResult> {
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
  let result: { outcome: LoanKycResult['outcome']; documents: LoanKycResult['documents'] };
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
  await ctx.db
    .insertInto('kycSubmissions')
    .values({ id: newId(), loanId: loan.id, bvnHash, outcome: result.outcome, documents: toJson(result.documents), createdAt: ctx.now.toISOString() })
    .execute();
  if (result.outcome === 'verified') {
    if (!borrower.bvnHash) {
      await ctx.db.updateTable('borrowers').set({ bvnHash, ninHash: submission.nin ? ninHash(ctx.platform.secrets, submission.nin) : null, updatedAt: ctx.now.toISOString() }).where('id', '=', borrower.id).execute();
    }
    loan = await transitionLoan(ctx.db, loan, FROM.kyc, { status: 'kyc_completed' }, ctx.now);
  }
  return { outcome: result.outcome, loanStatus: loan.status as LoanStatus, documents: result.documents };
}

