/**
 * The statuses a loan and a pre-approval can be in: the domain's lists (`domain/loans/loan.ts`,
 * `domain/preapprovals/preapproval.ts` re-export them), shared so the dashboard's filters offer exactly these.
 */
export const LOAN_STATUSES = [
  'pending',
  'kyc_required',
  'kyc_pending',
  'kyc_completed',
  'attested',
  'under_review',
  'approved',
  'rejected',
  'awaiting_acceptance',
  'terms_accepted',
  'terms_declined',
  'disbursed',
  'active',
  'completed',
  'defaulted',
  'cancelled',
] as const;

export const PREAPPROVAL_STATUSES = ['received', 'offer_issued', 'accepted', 'declined', 'expired', 'disbursed'] as const;
