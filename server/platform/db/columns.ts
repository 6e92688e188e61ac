/**
 * Every column of the hot tables, by name (`allColumns` checks the list against the table's type, so a
 * column added to the table and not here fails the type check). A statement naming its columns can be
 * a prepared statement, which one selecting `*` cannot (`STAR_COLUMNS` in `pipelined-pool.ts`: a
 * migration adding a column would break it mid-deploy); PostgreSQL then parses and plans it once per
 * connection instead of on every read.
 */
import type { BorrowersTable, LoanProductsTable, LoansTable, PreapprovalsTable } from './schema';

type Exhaustive<T, C extends readonly (keyof T)[]> = [Exclude<keyof T, C[number]>] extends [never] ? C : { missingColumns: Exclude<keyof T, C[number]> };

/** The list as given, once the compiler has checked it names every column of `T`. */
export const allColumns =
  <T>() =>
  <const C extends readonly (keyof T & string)[]>(columns: C & Exhaustive<T, C>): C =>
    columns;

export const LOAN_COLUMNS = allColumns<LoansTable>()([
  'id', 'organisationId', 'mode', 'borrowerId', 'loanProductId', 'preapprovalId', 'status', 'approvalMode',
  'kycTier', 'settlementDestination', 'capitalPoolCode', 'currency', 'tenorDays', 'repaymentFrequency',
  'interestRateBps', 'amountRequestedKobo', 'principalKobo', 'principalBalanceKobo', 'amountPaidKobo',
  'outstandingKobo', 'disbursedAmountKobo', 'disbursedAt', 'disbursementReference', 'approvedAt', 'approvalNotes',
  'rejectionReason', 'termsAcceptedAt', 'offerLetterIssuedAt', 'pricingSnapshotId', 'documentReference',
  'offerVersion', 'activeMandateId', 'hasActiveMandate', 'applicationUrl', 'applicationTokenSealed',
  'clientReference', 'metadata', 'cancelledBy', 'cancellationReason', 'cancelledAt', 'declineReason', 'inArrears',
  'arrearsSince', 'settlementProviderId', 'settlementProviderChosenAt', 'checkoutReceiptSentAt', 'createdAt',
  'updatedAt',
]);

export const PREAPPROVAL_COLUMNS = allColumns<PreapprovalsTable>()([
  'id', 'organisationId', 'mode', 'borrowerId', 'assessmentId', 'clientReference', 'recommendation',
  'approvedAmountKobo', 'interestRateBps', 'tenorDays', 'repaymentFrequency', 'confidence', 'riskBand', 'trustScore',
  'status', 'expiresAt', 'loanId', 'providerOrgId', 'ninHash', 'legacyNin', 'decisionPayload', 'enrichedPayload',
  'contactPhone', 'borrowerMatch', 'createdAt', 'updatedAt',
]);

export const LOAN_PRODUCT_COLUMNS = allColumns<LoanProductsTable>()([
  'id', 'organisationId', 'code', 'name', 'description', 'currency', 'isActive', 'kycTier', 'approvalMode',
  'interestModel', 'interestRateBps', 'lateFeeBps', 'processingFeeBps', 'processingFeeFlatKobo', 'minAmountKobo',
  'maxAmountKobo', 'minTenorDays', 'maxTenorDays', 'repaymentFrequency', 'insuranceMode', 'insurancePremiumBearer',
  'insurancePremiumBps', 'settlementDestination', 'settlementCatalogEnabled', 'capitalPoolCode', 'recoveryEnabled',
  'recoveryPolicyId', 'recoveryDefaultAfterDaysOverdue', 'guarantorsRequired', 'rateDisplay', 'nameMismatchPolicy', 'earlySettlementInterest',
  'earlySettlementFeeBps', 'remindersEnabled', 'reminderLeadDays', 'createdAt', 'updatedAt',
]);

export const BORROWER_COLUMNS = allColumns<BorrowersTable>()([
  'id', 'organisationId', 'mode', 'clientReference', 'firstName', 'lastName', 'phone', 'email', 'bvnHash', 'ninHash',
  'legacyNin', 'identityStatus', 'linkedAt', 'userId', 'preferredLocale', 'createdAt', 'updatedAt',
]);
