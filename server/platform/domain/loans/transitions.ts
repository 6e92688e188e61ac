import type { LoanStatus } from './loan';

/**
 * Where each loan action may start from. The spec leaves most from-states open; these follow a
 * lending core's usual rules (Fineract, Mambu): approval before acceptance, acceptance before
 * disbursement, cancellation only before money moves. Anything else answers 409.
 */
export const FROM = {
  /** Tenant approval: delegated tier from creation or after attestation; managed tier after KYC. */
  approveDelegated: ['pending', 'attested'],
  approveManaged: ['kyc_completed'],
  /** A separate attestation (Tier A) before approval. */
  attest: ['pending', 'attested'],
  /** Managed-tier KYC submissions. */
  kyc: ['kyc_required', 'kyc_pending'],
  /** The lender says no: any time before the borrower has accepted. */
  reject: ['pending', 'kyc_required', 'kyc_pending', 'kyc_completed', 'attested', 'under_review', 'approved', 'awaiting_acceptance'],
  respondToOffer: ['awaiting_acceptance'],
  disburse: ['terms_accepted'],
  /** The borrower picks (or changes) the merchant that receives a catalog loan's funds: until money moves. */
  chooseSettlementMerchant: [
    'pending', 'kyc_required', 'kyc_pending', 'kyc_completed', 'attested', 'under_review', 'approved', 'awaiting_acceptance', 'terms_accepted',
  ],
  /** Either side calls it off before disbursement. */
  cancel: [
    'pending', 'kyc_required', 'kyc_pending', 'kyc_completed', 'attested', 'under_review', 'approved', 'awaiting_acceptance', 'terms_accepted',
  ],
} as const satisfies Record<string, readonly LoanStatus[]>;

/** Money has moved: from here a loan can only be repaid, complete or default. */
export const DISBURSED_STATES: readonly LoanStatus[] = ['disbursed', 'active', 'completed', 'defaulted'];
