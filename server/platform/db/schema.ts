/**
 * Row types of every table, as Kysely sees them (camelCase here, snake_case in the database).
 * Booleans read back as 0/1 on SQLite and true/false on PostgreSQL: repositories map rows to
 * domain records and never hand a row to a caller. JSON columns are text on SQLite, jsonb on PostgreSQL.
 * Timestamps are ISO-8601 strings on both.
 */

import type { Generated } from 'kysely';

type Bool = boolean | number;
type Json = unknown;
export type Mode = 'test' | 'live';

export interface OrganisationsTable {
  id: string;
  name: string;
  loanTenant: Bool;
  preapprovedLending: Bool;
  preapprovalsEnabled: Bool;
  autoIssueOffers: Bool;
  preapprovalTtlSeconds: number;
  maxInterestRateBps: number | null;
  defaultPreapprovalProductId: string | null;
  disabled: Bool;
  /** Days an instalment may stay overdue before the loan defaults; null = the platform default. */
  defaultAfterDaysOverdue: number | null;
  /** Where operational notices (e.g. a webhook endpoint disabled) are e-mailed. */
  notificationEmail: string | null;
  createdAt: string;
  updatedAt: string;
  /** Whether the organisation's live keys work (migration 0029): false after self-serve sign-up until `admin org enable-live`. */
  liveEnabled: Bool;
  /**
   * Migration 0057: why the service's staff last refused live mode (shown on the partner's home page), and when. Null
   * until a refusal; optional here so a new organisation's row need not name them.
   */
  liveRefusalReason?: string | null;
  liveRefusedAt?: string | null;
  /** Migration 0060: no borrower reminder is texted between `quietHoursStart` and `quietHoursEnd` (`HH:MM`) in `quietHoursTimeZone`. */
  quietHoursStart: Generated<string>;
  quietHoursEnd: Generated<string>;
  quietHoursTimeZone: Generated<string>;
}

export interface ApiKeysTable {
  id: string;
  organisationId: string;
  mode: Mode;
  publicKey: string;
  secretHash: string;
  secretLast4: string;
  revokedAt: string | null;
  createdAt: string;
  /** The secret key sealed under the master key (AES-GCM): signs patient-financing webhooks. Null for keys made before 0018. */
  secretSealed: string | null;
  /** Migration 0030: the key is refused from this instant (set when it is rolled with an overlap). */
  expiresAt: string | null;
  /** Migration 0030: last authenticated request, written at most once a minute per key per process. */
  lastUsedAt: string | null;
  /** Migration 0030: the key that replaced this one when it was rolled. */
  rolledTo: string | null;
  /** Migration 0042: the key's scopes, space-separated (`loans:read webhooks:write`); null is full access. */
  scopes: string | null;
}

export interface IdempotencyKeysTable {
  id: string;
  apiKeyId: string;
  idempotencyKey: string;
  method: string;
  path: string;
  requestHash: string;
  state: 'in_flight' | 'completed';
  responseStatus: number | null;
  responseBody: string | null;
  lockedAt: string;
  createdAt: string;
  expiresAt: string;
}

export interface ApiUsageDailyTable {
  organisationId: string;
  mode: Mode;
  day: string;
  requestCount: number;
  errorCount: number;
}

export interface LoanProductsTable {
  id: string;
  organisationId: string;
  code: string;
  name: string;
  description: string | null;
  currency: string;
  isActive: Bool;
  kycTier: string;
  approvalMode: string;
  interestModel: string;
  interestRateBps: number;
  lateFeeBps: number;
  processingFeeBps: number;
  processingFeeFlatKobo: number;
  minAmountKobo: number;
  maxAmountKobo: number;
  minTenorDays: number;
  maxTenorDays: number;
  repaymentFrequency: string | null;
  insuranceMode: string;
  insurancePremiumBearer: string;
  insurancePremiumBps: number;
  settlementDestination: string;
  settlementCatalogEnabled: Bool;
  capitalPoolCode: string | null;
  recoveryEnabled: Bool;
  recoveryPolicyId: string | null;
  /** Recovery policy: days an instalment may stay overdue before default (used when recoveryEnabled). */
  recoveryDefaultAfterDaysOverdue: number | null;
  /** Guarantors the borrower must name (phone confirmed by OTP) in checkout before signing; 0 = none. */
  guarantorsRequired: number;
  /** How the checkout quotes the interest rate: `annual` (default) or `monthly` (annual ÷ 12); the APR is always shown too. */
  rateDisplay: string;
  /** Migration 0049: what a bank account in another name that the borrower confirmed does — `allow` | `review` | `refuse`. */
  nameMismatchPolicy: string;
  /** Early settlement (migration 0056): `to_date` | `scheduled` interest, and a fee in basis points of the unpaid principal. */
  earlySettlementInterest: string;
  earlySettlementFeeBps: number;
  /** Reminders by text (migration 0060): a text `reminderLeadDays` (0–14) days before each direct debit, when enabled. */
  remindersEnabled: Bool;
  reminderLeadDays: number;
  createdAt: string;
  updatedAt: string;
}

export interface BorrowersTable {
  id: string;
  organisationId: string;
  mode: Mode;
  clientReference: string | null;
  firstName: string;
  lastName: string;
  phone: string;
  email: string | null;
  bvnHash: string | null;
  /** Keyed hash of the NIN (HMAC under the master key, domain/borrowers/nin.ts); the NIN itself is never stored. */
  ninHash: string | null;
  /** A NIN stored in clear before migration 0027; hashed into `ninHash` and cleared at start-up. Never written. */
  legacyNin: string | null;
  identityStatus: string;
  linkedAt: string | null;
  userId: string | null;
  /** The language the borrower last picked in a checkout (migration 0037); a shipped locale or null. */
  preferredLocale: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ProvidersTable {
  id: string;
  code: string;
  name: string;
  slug: string;
  description: string | null;
  providerType: string;
  organisationType: string;
  receivesDrugs: Bool;
  receivesTests: Bool;
  isActive: Bool;
  address: string | null;
  city: string | null;
  state: string | null;
  localGovernment: string | null;
  country: string | null;
  organisationLogoUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface LedgerAccountsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  kind: string;
  code: string;
  currency: string;
  balanceKobo: number;
  allowNegative: Bool;
  createdAt: string;
  updatedAt: string;
}

export interface LedgerTransactionsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  reference: string;
  kind: string;
  description: string | null;
  createdAt: string;
}

export interface LedgerPostingsTable {
  id: string;
  transactionId: string;
  accountId: string;
  amountKobo: number;
  createdAt: string;
}

export interface EventsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  name: string;
  payload: Json;
  createdAt: string;
  /** Set once the dispatcher has written the event's deliveries (null = waiting). */
  fannedOutAt: string | null;
  /**
   * `lending` (the lending API's events) or `sdk` (the patient-financing API's); only endpoints of the same api receive
   * it. `staff`: recorded for the service's staff only (a financing loan's review), delivered to no endpoint.
   */
  api: Generated<string>;
}

/** The single row (id 1) whose counter moves with every revocation or organisation change (see credential-epoch.ts). */
export interface CredentialEpochTable {
  id: number;
  epoch: number;
  updatedAt: string;
}

export interface PlatformStateTable {
  key: string;
  value: Json;
  updatedAt: string;
}

export interface PreapprovalsTable {
  id: string;
  organisationId: string;
  mode: Mode;
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
  status: string;
  expiresAt: string | null;
  loanId: string | null;
  providerOrgId: string | null;
  /** Keyed hash of the pushed NIN (domain/borrowers/nin.ts); the NIN itself is never stored. */
  ninHash: string | null;
  /** A NIN stored in clear before migration 0027; hashed into `ninHash` and cleared at start-up. Never written. */
  legacyNin: string | null;
  /** The pushed decision with the BVN and NIN removed; kept for audit, never echoed. */
  decisionPayload: Json;
  enrichedPayload: Json;
  /** The phone this push gave when it differs from the borrower's on record: this loan's checkout texts it until verified. */
  contactPhone: string | null;
  /** The push answer's `borrowerMatch` (JSON). */
  borrowerMatch: Json;
  createdAt: string;
  updatedAt: string;
}

export interface LoansTable {
  id: string;
  organisationId: string;
  mode: Mode;
  borrowerId: string;
  loanProductId: string;
  preapprovalId: string | null;
  status: string;
  approvalMode: string;
  kycTier: string;
  settlementDestination: string;
  capitalPoolCode: string;
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
  /** The current offer's reference; consent must name it. */
  documentReference: string | null;
  offerVersion: number;
  activeMandateId: string | null;
  hasActiveMandate: Bool;
  /** The hosted checkout URL without its token (`…/checkout/c/`); the token is sealed beside it. */
  applicationUrl: string | null;
  /** The auto-minted checkout session's token, sealed (AES-GCM); joined to `applicationUrl` on read. */
  applicationTokenSealed: string | null;
  clientReference: string | null;
  metadata: Json;
  cancelledBy: string | null;
  cancellationReason: string | null;
  cancelledAt: string | null;
  declineReason: string | null;
  /** An instalment is overdue and unpaid; the loan stays `active`. */
  inArrears: Bool;
  arrearsSince: string | null;
  /** Settlement catalog: the provider (directory id) the borrower chose to receive a `merchant_wallet` loan's funds. */
  settlementProviderId: string | null;
  settlementProviderChosenAt: string | null;
  /** When the checkout's receipt text went out (once per loan). */
  checkoutReceiptSentAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface PricingSnapshotsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  loanId: string;
  documentReference: string;
  pricing: Json;
  createdAt: string;
}

export interface LoanScheduleItemsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  loanId: string;
  installmentNumber: number;
  dueDate: string;
  principalKobo: number;
  interestKobo: number;
  feeKobo: number;
  totalKobo: number;
  amountPaidKobo: number;
  paidAt: string | null;
  status: string;
  /** Charged once when the instalment becomes overdue; part of its fee bucket. */
  lateFeeKobo: Generated<number>;
  paidPrincipalKobo: Generated<number>;
  paidInterestKobo: Generated<number>;
  /** Fee payments, late fee included. */
  paidFeeKobo: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

/** A reminder texted to a borrower, claimed before it goes out; at most one per instalment and kind (migration 0060). */
export interface BorrowerRemindersTable {
  id: string;
  organisationId: string;
  mode: Mode;
  loanId: string;
  scheduleItemId: string;
  /** `debit_upcoming` | `debit_failed`. */
  kind: string;
  /** `debit_failed`: the mandate charge that failed. */
  repaymentId: string | null;
  /** `sending` (claimed) → `sent` | `not_sent`. */
  status: string;
  locale: string | null;
  sentAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Borrower sign-in requests per client address and clock hour (migration 0060). */
export interface BorrowerSignInIpWindowsTable {
  ip: string;
  /** `send` | `verify`. */
  action: string;
  windowStart: string;
  requestCount: number;
}

/** A borrower's own credential for their loans with one lender (migration 0055). */
export interface BorrowerSessionsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  /** Normalised (+234…): the session reaches the loans of the borrowers with this phone, at this lender and mode. */
  phone: string;
  /** The loan the partner minted it for; null for a sign-in. */
  loanId: string | null;
  tokenHash: string;
  source: 'partner' | 'sign_in';
  expiresAt: string;
  maxExpiresAt: string;
  revokedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A one-time code texted for a borrower's sign-in (keyed hash only; migration 0055). */
export interface BorrowerSignInCodesTable {
  id: string;
  mode: Mode;
  phone: string;
  /** The lender asked for; null: every lender the phone has loans with. */
  organisationId: string | null;
  codeHash: string;
  attempts: number;
  expiresAt: string;
  verifiedAt: string | null;
  createdAt: string;
}

/** The last sign-in code sent per mode and phone (the resend cool-down). */
export interface BorrowerSignInPhonesTable {
  mode: Mode;
  phone: string;
  lastSentAt: string;
}

/** A borrower's change of debit account: a new mandate that takes over from the loan's active one once active (migration 0059). */
export interface MandateReplacementsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  loanId: string;
  sessionId: string | null;
  mandateId: string;
  previousMandateId: string;
  status: 'pending' | 'active' | 'failed' | 'cancelled';
  bankCode: string;
  bankName: string;
  accountNumber: string;
  accountName: string;
  /** How the account's name compared with the borrower's (`match` | `partial`). */
  nameMatch: string;
  failureReason: string | null;
  /** The mandate the rail must still be told to cancel; null once it has taken it. */
  cancelAtRail: string | null;
  replacedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An early-settlement quote, stored so it is paid exactly (migration 0056). */
export interface SettlementQuotesTable {
  id: string;
  organisationId: string;
  mode: Mode;
  loanId: string;
  sessionId: string | null;
  interestRule: string;
  feeBps: number;
  totalKobo: number;
  principalKobo: number;
  interestKobo: number;
  feeKobo: number;
  settlementFeeKobo: number;
  waivedKobo: number;
  /** The loan's amountPaidKobo when quoted: a payment since makes the quote stale. */
  amountPaidKobo: number;
  /** JSON: the InstalmentBalance[] paying the quote settles. */
  settledInstalments: Json;
  validUntil: string;
  status: 'open' | 'paying' | 'paid';
  repaymentId: string | null;
  paidAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface LoanRepaymentsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  loanId: string;
  borrowerId: string;
  reference: string;
  method: string;
  status: string;
  /** What was applied to the loan. */
  amountKobo: number;
  /** What was sent beyond the loan's whole outstanding and not applied. */
  unallocatedKobo: number;
  feePortionKobo: number;
  interestPortionKobo: number;
  principalPortionKobo: number;
  externalReference: string | null;
  ledgerTransactionRef: string | null;
  completedAt: string | null;
  /** The statement that swept this repayment's fee and interest; null until settled. */
  settlementId: string | null;
  /** Method `mandate`: the mandate charged, the rail's charge reference, and why it failed. */
  mandateId: string | null;
  chargeReference: string | null;
  failureReason: string | null;
  /** Who started it: `schedule` (the collector's debit of what fell due), `borrower` (their loan page), `partner` (the API). */
  initiatedBy: string;
  createdAt: string;
  updatedAt: string;
}

export interface LoanMandatesTable {
  id: string;
  organisationId: string;
  mode: Mode;
  borrowerId: string;
  loanId: string;
  provider: string;
  status: string;
  reference: string;
  email: string;
  accountNumber: string | null;
  bankCode: string | null;
  amountKobo: number;
  authorizationUrl: string | null;
  callbackUrl: string | null;
  providerReference: string | null;
  /** The provider's last reported authorisation status (e.g. `approved` = not chargeable yet). */
  providerStatus: string | null;
  /** The provider's authorisation code, encrypted under the master key; never serialised. */
  authorizationCodeSealed: string | null;
  activatedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookEndpointsTable {
  id: string;
  organisationId: string;
  /** The mode of the events this endpoint receives. */
  mode: Mode;
  url: string;
  description: string | null;
  /** Exact event names; null or empty = every event. */
  events: Json;
  status: string;
  consecutiveFails: number;
  lastFailureAt: string | null;
  lastSuccessAt: string | null;
  secretSealed: string;
  /** The secret before the last rotation, still signing until `previousSecretExpiresAt`. */
  previousSecretSealed: string | null;
  previousSecretExpiresAt: string | null;
  /** Start of the current streak of failed attempts (null after a success). */
  failingSince: string | null;
  /** `lending` (envelope signed with the endpoint secret) or `sdk` (`{event, timestamp, data}` signed with the API secret key). */
  api: string;
  createdAt: string;
  updatedAt: string;
}

export type WebhookDeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed' | 'dead';

export interface WebhookDeliveriesTable {
  id: string;
  organisationId: string;
  mode: Mode;
  eventId: string;
  endpointId: string | null;
  event: string;
  targetUrl: string;
  status: WebhookDeliveryStatus;
  attemptCount: number;
  maxAttempts: number;
  /** When due; while `delivering`, when the claim's lease expires. Null once final. */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  responseStatus: number | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One recorded attempt of a webhook delivery: the request as sent and what came back (migration 0034). */
export interface WebhookDeliveryAttemptsTable {
  id: string;
  deliveryId: string;
  organisationId: string;
  mode: Mode;
  endpointId: string | null;
  attempt: number;
  event: string;
  url: string;
  /** The body as sent (bounded; the patient-financing application URL redacted); null when nothing was sent. */
  requestBody: string | null;
  /** The signature headers (JSON object): `X-Service-Signature`, `X-Service-Timestamp` or `X-Service-Event`. */
  requestHeaders: Json | null;
  responseStatus: number | null;
  /** A bounded excerpt of the response body. */
  responseBody: string | null;
  durationMs: number | null;
  error: string | null;
  succeeded: Bool;
  at: string;
}

export interface SettlementStatementsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  periodStart: string;
  periodEnd: string;
  feeSweptKobo: number;
  interestSweptKobo: number;
  totalSweptKobo: number;
  status: string;
  failureReason: string | null;
  transferReference: string | null;
  lines: Json;
  createdAt: string;
  updatedAt: string;
}

/** A loan waiting for a person's decision (migration 0048). */
export interface LoanReviewsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  loanId: string;
  decidedBy: 'partner' | 'service';
  openedReason: string;
  evidence: Json;
  /**
   * What clearing does: issue the offer, or move the loan to this status (0049: `kyc_completed`, and back to where a name
   * review parked it; `pending`: a patient-financing decision waited, and the application follows the loan back).
   */
  resumeWith: 'issue_offer' | 'attested' | 'kyc_completed' | 'awaiting_acceptance' | 'terms_accepted' | 'pending';
  status: 'open' | 'closed';
  closedReason: 'cleared' | 'rejected' | 'cancelled' | null;
  closedBy: string | null;
  note: string | null;
  openedAt: string;
  closedAt: string | null;
  updatedAt: string;
}

export interface KycAttestationsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  borrowerId: string;
  loanId: string | null;
  attestedAt: string;
  attestedByKey: string;
  attestedChecks: Json;
  schemaVersion: number;
  amlScreenStatus: string;
  amlScreenDetail: string | null;
  amlScreenedAt: string | null;
  sampledForAudit: Bool;
  auditOutcome: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface KycSubmissionsTable {
  id: string;
  loanId: string;
  bvnHash: string;
  /** Migration 0049: the NIN's keyed hash, when one was given. */
  ninHash: string | null;
  outcome: string;
  documents: Json;
  createdAt: string;
}

export interface LoanConsentsTable {
  id: string;
  loanId: string;
  kind: 'accept' | 'decline';
  signatureFullName: string;
  signatureEmail: string | null;
  ipAddress: string;
  userAgent: string;
  signedAt: string;
  documentReference: string;
  reason: string | null;
  recordedBy: string;
  /** Checkout signatures: how the typed name compared with the borrower's name on record (migration 0023); null when not compared. */
  signatureNameMatch: 'match' | 'partial' | 'mismatch' | null;
  /** The similarity, 0-100. */
  signatureNameMatchScore: number | null;
  signatureNameOnRecord: string | null;
  /** The borrower confirmed a partial match as their signature. */
  signatureNameConfirmed: Bool | null;
  createdAt: string;
}

export interface OfferLettersTable {
  id: string;
  loanId: string;
  documentReference: string;
  /** `offer`/`signed` in English; `offer:yo`, `signed:yo`… for a letter in another language. */
  variant: string;
  pdf: Buffer;
  createdAt: string;
}

export interface LoanInsurancePoliciesTable {
  id: string;
  organisationId: string;
  mode: Mode;
  loanId: string;
  provider: string;
  status: string;
  triggeredBy: string;
  premiumBearer: string;
  premiumKobo: number;
  commissionKobo: number;
  /** The insurer's policy number (a live policy bound by hand: recorded by staff, migration 0058). */
  policyReference: string | null;
  errorMessage: string | null;
  createdAt: string;
  updatedAt: string;
  /** The policy document in file storage, its size and SHA-256 (hex); null until recorded (migration 0058). */
  documentKey: string | null;
  documentBytes: number | null;
  documentSha256: string | null;
  activatedAt: string | null;
}

export interface Database {
  dashboardUsers: DashboardUsersTable;
  dashboardMemberships: DashboardMembershipsTable;
  dashboardSessions: DashboardSessionsTable;
  dashboardEmailTokens: DashboardEmailTokensTable;
  dashboardLoginFailures: DashboardLoginFailuresTable;
  dashboardRequestHits: DashboardRequestHitsTable;
  dashboardAuditLog: DashboardAuditLogTable;
  dashboardInvitations: DashboardInvitationsTable;
  dashboardPasskeys: DashboardPasskeysTable;
  dashboardWebauthnChallenges: DashboardWebauthnChallengesTable;
  staffAccounts: StaffAccountsTable;
  staffInvitations: StaffInvitationsTable;
  staffSessions: StaffSessionsTable;
  staffPasskeys: DashboardPasskeysTable;
  staffAuditLog: StaffAuditLogTable;
  opsProposals: OpsProposalsTable;
  poolFundingNotices: PoolFundingNoticesTable;
  organisations: OrganisationsTable;
  apiKeys: ApiKeysTable;
  idempotencyKeys: IdempotencyKeysTable;
  apiUsageDaily: ApiUsageDailyTable;
  loanProducts: LoanProductsTable;
  borrowers: BorrowersTable;
  providers: ProvidersTable;
  ledgerAccounts: LedgerAccountsTable;
  ledgerTransactions: LedgerTransactionsTable;
  ledgerPostings: LedgerPostingsTable;
  events: EventsTable;
  platformState: PlatformStateTable;
  credentialEpoch: CredentialEpochTable;
  preapprovals: PreapprovalsTable;
  loans: LoansTable;
  pricingSnapshots: PricingSnapshotsTable;
  loanScheduleItems: LoanScheduleItemsTable;
  kycAttestations: KycAttestationsTable;
  loanReviews: LoanReviewsTable;
  borrowerSessions: BorrowerSessionsTable;
  borrowerSignInCodes: BorrowerSignInCodesTable;
  borrowerSignInPhones: BorrowerSignInPhonesTable;
  settlementQuotes: SettlementQuotesTable;
  mandateReplacements: MandateReplacementsTable;
  borrowerReminders: BorrowerRemindersTable;
  borrowerSignInIpWindows: BorrowerSignInIpWindowsTable;
  kycSubmissions: KycSubmissionsTable;
  loanConsents: LoanConsentsTable;
  offerLetters: OfferLettersTable;
  loanInsurancePolicies: LoanInsurancePoliciesTable;
  loanRepayments: LoanRepaymentsTable;
  settlementStatements: SettlementStatementsTable;
  loanMandates: LoanMandatesTable;
  webhookEndpoints: WebhookEndpointsTable;
  webhookDeliveries: WebhookDeliveriesTable;
  webhookDeliveryAttempts: WebhookDeliveryAttemptsTable;
  payoutRequests: PayoutRequestsTable;
  sandboxRailAuthorisations: SandboxRailAuthorisationsTable;
  sandboxRailCharges: SandboxRailChargesTable;
  users: UsersTable;
  checkoutSessions: CheckoutSessionsTable;
  otpChallenges: OtpChallengesTable;
  otpSendWindows: OtpSendWindowsTable;
  checkoutRenewals: CheckoutRenewalsTable;
  sandboxSms: SandboxSmsTable;
  loanGuarantors: LoanGuarantorsTable;
  userPasskeys: UserPasskeysTable;
  passkeyChallenges: PasskeyChallengesTable;
  loanConsentPasskeys: LoanConsentPasskeysTable;
  appointments: AppointmentsTable;
  appointmentParticipants: AppointmentParticipantsTable;
  appointmentDoctorNotes: AppointmentDoctorNotesTable;
  appointmentPrescriptions: AppointmentPrescriptionsTable;
  appointmentRecordings: AppointmentRecordingsTable;
  checkoutSettings: CheckoutSettingsTable;
  financingApplications: FinancingApplicationsTable;
}

/** A patient-financing initiation (`sdkReference` = `id` = the loan's id) and its hosted-application steps. */
export interface FinancingApplicationsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  clientReference: string;
  /** SHA-256 of the normalised initiation body: the same body replays, another one conflicts. */
  requestFingerprint: string;
  invoiceReference: string | null;
  treatment: string;
  treatmentAmountKobo: number;
  firstName: string;
  /** E.164. */
  phone: string;
  status: string;
  expiresAt: string;
  fullName: string | null;
  dateOfBirth: string | null;
  /** Keyed hash of the BVN; the BVN itself is never stored. */
  bvnHash: string | null;
  declaredMonthlyIncomeKobo: number | null;
  identityOutcome: string | null;
  bureauOutcome: string | null;
  riskBand: string | null;
  /** The credit decision (offer options or the reason for a rejection), as the policy computed it. */
  decision: Json;
  rejectionReason: string | null;
  submittedAt: string | null;
  decidedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A guarantor the borrower named in checkout; `verifiedAt` once the guarantor confirmed their phone by OTP. */
export interface LoanGuarantorsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  loanId: string;
  fullName: string;
  phone: string;
  relationship: string;
  verifiedAt: string | null;
  otpLastSentAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A platform user: a person identified by a verified phone (E.164), per mode. */
export interface UsersTable {
  id: string;
  mode: Mode;
  phone: string;
  createdAt: string;
  updatedAt: string;
}

/** A checkout session: the browser's credential for one loan (only a keyed hash of its token is kept). */
export interface CheckoutSessionsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  loanId: string;
  borrowerId: string;
  tokenHash: string;
  source: 'offer_issued' | 'partner' | 'renewed';
  expiresAt: string;
  maxExpiresAt: string;
  revokedAt: string | null;
  otpVerifiedAt: string | null;
  otpLastSentAt: string | null;
  bankCode: string | null;
  bankName: string | null;
  accountNumber: string | null;
  accountName: string | null;
  bankCapturedAt: string | null;
  /** How the bank's account name compared with the borrower's name on record (migration 0023). */
  accountNameMatch: 'match' | 'partial' | 'mismatch' | null;
  /** The similarity, 0-100. */
  accountNameMatchScore: number | null;
  /** The borrower's name it was compared with. */
  accountNameOnRecord: string | null;
  /** When the borrower confirmed a mismatching account as their own. */
  accountNameConfirmedAt: string | null;
  /** The partner's `locale` when it created the session (migration 0037). */
  partnerLocale: string | null;
  /** The language the borrower picked in this session (migration 0037). */
  locale: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface OtpChallengesTable {
  id: string;
  sessionId: string;
  /** null: the borrower's own phone; otherwise the guarantor whose phone is being confirmed. */
  guarantorId: string | null;
  mode: Mode;
  phone: string;
  codeHash: string;
  attempts: number;
  expiresAt: string;
  verifiedAt: string | null;
  createdAt: string;
}

/** New links texted from an expired checkout session, per loan: the count of the UTC day `dayStart` and the last one's time (both limits: one conditional upsert). */
export interface CheckoutRenewalsTable {
  loanId: string;
  dayStart: string;
  renewCount: number;
  lastRenewedAt: string;
}

/** OTP sends per phone per clock hour (fixed window); the limit is enforced by a conditional upsert. */
export interface OtpSendWindowsTable {
  mode: Mode;
  phone: string;
  windowStart: string;
  sentCount: number;
}

/** The sandbox SMS inbox: test-mode messages only. */
export interface SandboxSmsTable {
  id: string;
  phone: string;
  sender: string;
  body: string;
  createdAt: string;
}

/** Sandbox rail provider: one mandate authorisation (server/integrations/rails/). */
export interface SandboxRailAuthorisationsTable {
  providerReference: string;
  rail: string;
  /** The platform's reference; unique per rail. */
  reference: string;
  email: string;
  /** Only the last four digits are kept (`******1234`). */
  accountNumberMasked: string | null;
  bankCode: string | null;
  amountKobo: number;
  callbackUrl: string | null;
  /** pending | approved | active | refused | cancelled */
  status: string;
  /** Drawn at approval; handed out only once the authorisation is active. */
  authorizationCode: string | null;
  approvedAt: string | null;
  confirmedAt: string | null;
  refusedAt: string | null;
  cancelledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Sandbox rail provider: one debit against an active authorisation. */
export interface SandboxRailChargesTable {
  chargeReference: string;
  rail: string;
  /** The platform's reference; unique per rail (idempotency). */
  reference: string;
  providerReference: string;
  amountKobo: number;
  /** processing | succeeded | failed */
  status: string;
  failureReason: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface PayoutRequestsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  borrowerId: string;
  loanId: string | null;
  currency: string;
  amountKobo: number;
  bankName: string;
  bankCode: string;
  accountNumber: string;
  accountName: string | null;
  status: string;
  /** The ledger account kind the amount was reserved from: `borrower_wallet` or `borrower_payable`. */
  sourceKind: string;
  rejectionReason: string | null;
  settledAt: string | null;
  settledByUserId: string | null;
  settlementReference: string | null;
  ledgerTransactionRef: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A platform user's passkey (WebAuthn credential) for one relying party; binary values are base64url. */
export interface UserPasskeysTable {
  id: string;
  userId: string;
  mode: Mode;
  rpId: string;
  credentialId: string;
  /** COSE public key. */
  publicKey: string;
  counter: number;
  transports: unknown;
  deviceType: string;
  backedUp: Bool;
  aaguid: string;
  /** The origin it was registered on. */
  origin: string;
  /** `checkout-session:<id>`. */
  registeredBy: string;
  lastUsedAt: string | null;
  createdAt: string;
}

/** A one-time WebAuthn challenge issued to a checkout session (registration, or signing one offer). */
export interface PasskeyChallengesTable {
  id: string;
  sessionId: string;
  loanId: string;
  userId: string;
  purpose: 'register' | 'sign';
  nonce: string;
  /** base64url; for `sign`, derived from loan id, document reference and nonce. */
  challenge: string;
  rpId: string;
  documentReference: string | null;
  expiresAt: string;
  consumedAt: string | null;
  createdAt: string;
}

/** The passkey assertion that signed an acceptance, raw, with its challenge inputs and the verification result. */
export interface LoanConsentPasskeysTable {
  id: string;
  consentId: string;
  loanId: string;
  passkeyId: string;
  credentialId: string;
  publicKey: string;
  rpId: string;
  origin: string;
  challengeVersion: string;
  documentReference: string;
  nonce: string;
  challenge: string;
  clientDataJson: string;
  authenticatorData: string;
  signature: string;
  userHandle: string | null;
  signCount: number;
  userVerified: Bool;
  verified: Bool;
  verifiedWith: string;
  verifiedAt: string;
}

export type AppointmentStatus = 'scheduled' | 'in-progress' | 'completed' | 'cancelled';

/** A telemedicine appointment (spec part A); `summaryDueAt` is set when the consultation ends. */
export interface AppointmentsTable {
  id: string;
  organisationId: string;
  mode: Mode;
  meetingId: string;
  startTime: string;
  endTime: string;
  status: AppointmentStatus;
  /** `organisation` (PUT /appointment/cancel) or `unattended` (nobody joined before the end). */
  cancellationReason: string | null;
  startedAt: string | null;
  endedAt: string | null;
  /** `doctor` (ended from the doctor's page) or `end_time` (the sweep, after the end time). */
  completedBy: string | null;
  summaryDueAt: string | null;
  transcriptionSummary: string | null;
  patientSummary: string | null;
  summarisedAt: string | null;
  /** The patient's language for the meeting page and `patientSummary` (migration 0037). */
  locale: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One participant; the meeting key is kept as a keyed hash (lookup) and sealed (shown again on reads). */
export interface AppointmentParticipantsTable {
  id: string;
  appointmentId: string;
  position: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phoneNumber: string | null;
  role: string;
  clientId: string;
  keyHash: string;
  keySealed: string;
  liveliness: string;
  connections: number;
  firstJoinedAt: string | null;
  lastSeenAt: string | null;
  /** The participant's language (patients; migration 0037). */
  locale: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AppointmentDoctorNotesTable {
  id: string;
  appointmentId: string;
  participantId: string;
  symptomsAndIllnesses: string;
  diagnosis: string;
  treatmentAndRecommendation: string;
  doctorSignature: string;
  createdAt: string;
}

export interface AppointmentPrescriptionsTable {
  id: string;
  appointmentId: string;
  participantId: string;
  prescribedDrugs: Json;
  additionalNotes: string;
  createdAt: string;
}

/** One recorded session of a consultation's audio: `recording` → `processing` (finished) → `ready` (one file) or `empty`. */
export interface AppointmentRecordingsTable {
  id: string;
  appointmentId: string;
  participantId: string;
  contentType: string;
  /** `empty`: finished without a single byte of audio (nothing to list). */
  status: 'recording' | 'processing' | 'ready' | 'empty';
  chunkCount: number;
  bytes: number;
  storageKey: string | null;
  startedAt: string;
  finishedAt: string | null;
  readyAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** How an organisation embeds the checkout, per mode (origins allowed to embed it and to receive its events; the hosted page's return URL). */
export interface CheckoutSettingsTable {
  organisationId: string;
  mode: Mode;
  allowedOrigins: Json;
  returnUrl: string | null;
  /** Branding the checkout shows (migration 0025); null = not set. */
  displayName: string | null;
  logoUrl: string | null;
  brandColor: string | null;
  supportEmail: string | null;
  supportPhone: string | null;
  supportUrl: string | null;
  privacyUrl: string | null;
  termsUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

// ── Organisation dashboard (migration 0029) ────────────────────────────────────────────────────

import type { DashboardRole } from '../../shared/dashboard-permissions';
export type { DashboardRole };

export interface DashboardUsersTable {
  id: string;
  /** Normalised: trimmed, lower case. */
  email: string;
  /** argon2id PHC string; null until set. */
  passwordHash: string | null;
  emailVerifiedAt: string | null;
  createdAt: string;
  /** Migration 0031: a passkey is asked after the password. */
  requirePasskey: Generated<Bool>;
}

export interface DashboardMembershipsTable {
  userId: string;
  organisationId: string;
  role: DashboardRole;
  createdAt: string;
}

export interface DashboardSessionsTable {
  /** SHA-256 (hex) of the cookie's token. */
  id: string;
  userId: string;
  organisationId: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  revokedAt: string | null;
  ip: string | null;
  userAgent: string | null;
  /** When a passkey was verified for this session; required while the user asks a passkey after the password. */
  passkeyVerifiedAt: string | null;
}

export type DashboardEmailTokenPurpose = 'verify_email' | 'reset_password';

export interface DashboardEmailTokensTable {
  /** SHA-256 (hex) of the link's token. */
  id: string;
  userId: string;
  purpose: DashboardEmailTokenPurpose;
  expiresAt: string;
  usedAt: string | null;
  createdAt: string;
}

export interface DashboardLoginFailuresTable {
  id: string;
  email: string;
  ip: string;
  at: string;
}

/** One counted unauthenticated account request (password-reset request, sign-up), for limits across processes. */
export interface DashboardRequestHitsTable {
  id: string;
  bucket: string;
  key: string;
  at: string;
}

export interface DashboardAuditLogTable {
  id: string;
  userId: string | null;
  organisationId: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  userAgent: string | null;
  at: string;
}

/** Migration 0030: an invitation to join an organisation's dashboard with a role. */
export interface DashboardInvitationsTable {
  id: string;
  /** SHA-256 (hex) of the link's one-time token. */
  tokenHash: string;
  organisationId: string;
  /** Normalised: trimmed, lower case. */
  email: string;
  role: DashboardRole;
  invitedBy: string;
  expiresAt: string;
  acceptedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

// ── Dashboard passkeys (migration 0031) ────────────────────────────────────────────────────────

export interface DashboardPasskeysTable {
  /** The WebAuthn credential id (base64url). */
  id: string;
  userId: string;
  name: string;
  /** COSE public key, base64url. */
  publicKey: string;
  counter: number;
  /** JSON array of transports. */
  transports: string;
  rpId: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The staff console's ceremonies use the same table under `staff_…` purposes (migration 0050). */
export type DashboardChallengePurpose = 'registration' | 'sign_in' | 'second_factor' | 'staff_registration' | 'staff_sign_in' | 'staff_second_factor';

export interface DashboardWebauthnChallengesTable {
  /** SHA-256 (hex) of the challenge. */
  id: string;
  purpose: DashboardChallengePurpose;
  userId: string | null;
  organisationId: string | null;
  /** What the challenge is bound to: the session id (registration), the pending sign-in cookie's hash (second factor). */
  binding: string | null;
  expiresAt: string;
  usedAt: string | null;
  createdAt: string;
}

/** A live-mode pool funding request from the dashboard, confirmed by an operator once the transfer arrived (0032). */
export interface PoolFundingNoticesTable {
  id: string;
  organisationId: string;
  mode: Mode;
  poolCode: string;
  amountKobo: number;
  /** The bank-transfer reference the partner quotes; unique. */
  reference: string;
  /** `pending` until an operator confirms, then `confirmed`. */
  status: string;
  /** The dashboard user who asked (null if that user is gone). */
  requestedBy: string | null;
  createdAt: string;
  confirmedAt: string | null;
}

// ── Staff of the service: the operations console (migrations 0050, 0051) ───────────────────────

export type StaffRole = 'compliance' | 'finance' | 'support' | 'admin';

export interface StaffAccountsTable {
  id: string;
  /** Normalised: trimmed, lower case. */
  email: string;
  role: StaffRole;
  /** argon2id PHC string; null until the invitation is accepted. */
  passwordHash: string | null;
  /** Set when the invitation (a link to the mailbox) is accepted. */
  emailVerifiedAt: string | null;
  requirePasskey: Generated<Bool>;
  invitedBy: string | null;
  disabledAt: string | null;
  createdAt: string;
}

export interface StaffInvitationsTable {
  id: string;
  tokenHash: string;
  email: string;
  role: StaffRole;
  /** A staff account id, or `cli` for the operator's shell. */
  invitedBy: string;
  expiresAt: string;
  acceptedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

/** As `DashboardSessionsTable`, without an organisation. */
export interface StaffSessionsTable {
  id: string;
  userId: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  revokedAt: string | null;
  ip: string | null;
  userAgent: string | null;
  passkeyVerifiedAt: string | null;
}

export interface StaffAuditLogTable {
  id: string;
  staffId: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  userAgent: string | null;
  at: string;
}

export type OpsProposalKind = 'payout_settle' | 'pool_funding_confirm' | 'loan_write_off' | 'live_enable' | 'mandate_charge_apply' | 'insurance_policy_record';

export interface OpsProposalsTable {
  id: string;
  kind: OpsProposalKind;
  subject: string;
  organisationId: string | null;
  payload: Json;
  status: 'open' | 'approved' | 'refused';
  proposedBy: string;
  proposedAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
  note: string | null;
  result: Json | null;
}
