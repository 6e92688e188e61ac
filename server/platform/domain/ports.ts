import type { Locale } from '../../shared/locales';
import type { Readable } from 'node:stream';
import type { Mode } from './scope';

/**
 * The domain's ports: every outside service the domain calls, declared here once, in the domain's
 * words. `server/integrations/` holds the adapters (a sandbox one and, where one exists, a real
 * provider's), and the composition root (`server/platform/platform.ts`) chooses one per mode.
 *
 * Live mode never reaches a sandbox adapter: a port whose live provider is not configured answers
 * `ProviderNotConfigured` (503 `provider_not_configured`, see `./providers/per-mode.ts`) before the
 * caller writes anything. AML screening is the one exception by design: an unscreened live borrower
 * goes to `under_review`, so the loan waits for a person instead of failing.
 */

/** The port names, as they appear in `provider_not_configured` errors and in the start-up log. */
export type PortName = 'payment_rail' | 'aml' | 'identity' | 'bvn_identity' | 'credit_bureau' | 'bank_lookup' | 'sms' | 'insurance';

// ── Time ───────────────────────────────────────────────────────────────────────────────────────

/** Where the service reads the time. Expiry, backoff and periods use this, never `Date.now()`. */
export interface Clock {
  now(): Date;
}

// ── Payment rails (direct debit) ───────────────────────────────────────────────────────────────

/**
 * What the platform needs from a direct-debit provider (Paystack direct debit, or the sandbox
 * rails), whatever the provider's own API looks like. The flow every rail follows:
 * 1. `initialiseAuthorisation` → send the borrower to `authorizationUrl`;
 * 2. the borrower approves on the provider's page (`approved`), and the provider confirms the
 *    mandate later (`active`, with an `authorizationCode`); only an `active` authorisation is chargeable;
 * 3. `charge` answers `processing` at once; the result is read back with `readCharge`.
 *
 * Adapters raise a `PaymentRailError` (integrations) when the provider refuses or cannot be reached;
 * one whose `outcomeUnknown` is true may have moved money: the caller reads the charge back by its
 * reference before doing anything else (see `isOutcomeUnknown`).
 */
export type RailName = 'rail_a' | 'rail_b';

export type ProviderAuthorisationStatus = 'pending' | 'approved' | 'active' | 'refused' | 'cancelled';

export type ProviderChargeStatus = 'processing' | 'succeeded' | 'failed';

export interface InitialiseAuthorisationRequest {
  /** The platform's reference for this authorisation; one reference names one authorisation. */
  reference: string;
  email: string;
  /** NUBAN (10 digits) the mandate debits, when the platform already knows it. */
  accountNumber?: string | null;
  bankCode?: string | null;
  /** Integer kobo the mandate is set up for. */
  amountKobo: number;
  /** Where the provider sends the borrower back, with `reference` and `status` in the query. */
  callbackUrl?: string | null;
}

export interface ChargeRequest {
  authorizationCode: string;
  /** Integer kobo to debit. */
  amountKobo: number;
  /** The platform's reference for this debit; the same reference is the same charge (idempotent). */
  reference: string;
  /** The e-mail the mandate was set up with (some providers require it on every debit). */
  email?: string;
}

export interface PaymentRail {
  readonly name: RailName;
  /** Starts a mandate authorisation; the borrower is sent to authorizationUrl. */
  initialiseAuthorisation(request: InitialiseAuthorisationRequest): Promise<{ authorizationUrl: string; providerReference: string }>;
  /** Reads the authorisation back. `approved` = the borrower said yes but the provider has not confirmed: NOT chargeable. `active` comes with an authorisation code. */
  readAuthorisation(providerReference: string): Promise<{ status: ProviderAuthorisationStatus; authorizationCode: string | null }>;
  /** Starts a debit; asynchronous: always answers `processing`; the result is read back (or notified) later. */
  charge(request: ChargeRequest): Promise<{ status: 'processing'; chargeReference: string }>;
  /** Reads a charge back by the reference `charge` answered. */
  readCharge(chargeReference: string): Promise<{ status: ProviderChargeStatus; failureReason: string | null }>;
  /**
   * Looks a charge up by the platform's own reference: how a charge whose outcome was unknown (the
   * provider timed out or failed after it was sent) is reconciled. `null` = the provider never
   * took it (nothing was debited; sending it again with the same reference is safe).
   */
  findCharge(reference: string): Promise<{ chargeReference: string; status: ProviderChargeStatus; failureReason: string | null } | null>;
  cancel(providerReference: string): Promise<void>;
}

/** The rails per mode: test mode's sandbox rails, or a configured live rail; `undefined` = none (the caller refuses). */
export interface PaymentRails {
  railFor(mode: Mode, name: RailName): PaymentRail | undefined;
  /** Test mode only: the sandbox provider approves and confirms an authorisation at once. */
  approveInSandbox(mode: Mode, name: RailName, providerReference: string): Promise<void>;
  /** The rails live mode can use (for the start-up log). */
  liveRails(): RailName[];
}

/** Whether a provider failure may have taken effect (a timeout or a 5xx on a write): read the outcome back, never assume it failed. */
export function isOutcomeUnknown(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { outcomeUnknown?: unknown }).outcomeUnknown === true;
}

// ── AML screening ──────────────────────────────────────────────────────────────────────────────

export interface AmlScreenResult {
  /**
   * `clear`: screened, no match. `hit`: screened, a match. `pending`: not screened (live mode with
   * no screening provider configured, or the provider could not answer); never read as clear: the
   * loan goes to `under_review`.
   */
  status: 'clear' | 'hit' | 'pending';
  detail: string | null;
}

/** Sanctions / PEP screening of a person before money moves to them. */
export interface AmlScreen {
  screen(person: { firstName: string; lastName: string; mode: Mode }): Promise<AmlScreenResult>;
}

/** The screen per mode (the sandbox in test mode); live without a provider answers `pending`, never `clear`. */
export interface AmlScreening extends AmlScreen {
  /** The live provider's name, or null when live screens answer `pending`. */
  readonly liveProvider: string | null;
}

// ── Identity ───────────────────────────────────────────────────────────────────────────────────

/** `undecided`: the provider answered but cannot decide without a person (the loan waits for a review). */
export type KycOutcome = 'verified' | 'failed' | 'pending' | 'undecided';

export interface KycCheckResult {
  outcome: KycOutcome;
  documents: Array<{ type: string; status: string }>;
}

/** Identity verification (BVN, NIN) run by the service for managed-tier loans. */
export interface IdentityVerifier {
  verify(request: { bvn: string; nin?: string; dateOfBirth?: string; mode: Mode; previousAttempts: number }): Promise<KycCheckResult>;
}

/** What the BVN registry says about the details a patient typed. */
export type BvnMatchOutcome = { outcome: 'match' } | { outcome: 'mismatch'; fields: Array<'name' | 'date_of_birth'> } | { outcome: 'not_found' };

/**
 * Identity port for patient financing: does this BVN belong to the person with this name and date
 * of birth? (A BVN-matching provider's "verify with match" call; the service never receives the
 * registry's record.) Throws when the provider cannot answer (502 `identity_unavailable`).
 */
export interface BvnIdentity {
  match(request: { bvn: string; firstName: string; lastName: string; dateOfBirth: string; mode: Mode }): Promise<BvnMatchOutcome>;
}

// ── Credit bureau ──────────────────────────────────────────────────────────────────────────────

export type BureauOutcome = 'good' | 'thin_file' | 'delinquent';

/**
 * A credit report reduced to the facts the credit policy reads, whichever bureau answered (the
 * sandbox, or CRC and FirstCentral through Mono). Amounts are integer kobo. The raw report never
 * leaves the adapter: only these facts and the reference are kept.
 */
export interface BureauFacts {
  /** Facilities (loans, overdrafts, cards) the bureau holds at all, open or closed: 0 is a thin file. */
  facilitiesReported: number;
  openFacilities: number;
  /** What the open facilities still owe, in kobo. */
  totalOutstandingKobo: number;
  /** The most days any facility was past due in the last 24 months (0: never late). */
  worstDelinquencyDays24m: number;
  /** Facilities written off (lost), at any time. */
  writeOffs: number;
  /** Credit enquiries in the last 12 months; null when the bureau does not report them. */
  enquiries12m: number | null;
}

export interface BureauReport {
  /** Who answered (`sandbox`, `mono:crc+xds`, …), for the audit trail. */
  provider: string;
  /** A reference for the audit trail (the bureau's enquiry id, or one built from it). */
  reference: string;
  facts: BureauFacts;
}

/**
 * Credit bureau port (CRC, FirstCentral, CreditRegistry in production). Throws when it cannot answer
 * (502 `bureau_unavailable`: nothing is recorded and the application waits for a retry); the
 * financing credit policy grades the facts (`gradeBureauFacts`), never the adapter.
 */
export interface CreditBureau {
  report(request: { bvn: string; mode: Mode }): Promise<BureauReport>;
}

// ── Banks ──────────────────────────────────────────────────────────────────────────────────────

/** A bank or other institution of the list the checkout shows (the checkout contract's shape). */
export type { InstitutionType, Bank } from '../../shared/checkout-contract';
import type { Bank } from '../../shared/checkout-contract';

export type AccountLookup = { found: true; accountName: string } | { found: false };

export interface AccountLookupRequest {
  bankCode: string;
  accountNumber: string;
  mode: Mode;
  /**
   * Sandbox only: the name of the borrower asking, so that the sandbox can answer as if the
   * borrower typed their own account. Real providers ignore it (the bank's answer is the evidence).
   */
  sandboxHolderName?: string;
}

/** Bank list and account-name enquiry (NIP name enquiry in production). */
export interface BankLookup {
  listBanks(): readonly Bank[];
  /** Throws when the provider cannot answer (mapped to `bank_lookup_unavailable`). */
  resolveAccount(request: AccountLookupRequest): Promise<AccountLookup>;
}

// ── Messages ───────────────────────────────────────────────────────────────────────────────────

export interface SmsMessage {
  /** E.164, e.g. +2348012345678. */
  to: string;
  body: string;
  mode: Mode;
}

/** Sends a text message to a phone. Adapters throw on failure; callers map that to `sms_unavailable`. */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Operational e-mail to organisations (never to borrowers: those go through the partner). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

// ── Insurance ──────────────────────────────────────────────────────────────────────────────────

export interface InsurancePolicyResult {
  /** `pending`: the insurer binds the cover outside the platform; staff record the policy (`ops/insurance-policies.ts`). */
  status: 'active' | 'pending' | 'failed';
  policyReference: string | null;
  errorMessage: string | null;
}

/** Credit-life cover bought for a loan at disbursement (automatic) or on the tenant's request (manual). */
export interface Insurer {
  readonly name: string;
  issuePolicy(request: { loanId: string; premiumKobo: number; principalKobo: number; tenorDays: number; mode: Mode }): Promise<InsurancePolicyResult>;
}

// ── Files ──────────────────────────────────────────────────────────────────────────────────────

/** Signs a link to one of the platform's own paths, valid for `ttlSeconds` (the domain's keys never leave it). */
export type LinkSigner = (path: string, options: { baseUrl: string; now: Date; ttlSeconds: number }) => string;

/**
 * The file storage port: opaque keys (`recordings/<appointment>/<recording>.webm`) to bytes, and a
 * short-lived link a browser or a partner can fetch without a credential.
 */
export interface FileStorage {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The bytes, or null when there is no such file. */
  get(key: string): Promise<Buffer | null>;
  delete(keys: string[]): Promise<void>;
  /** The size in bytes, or null when there is no such file. */
  size(key: string): Promise<number | null>;
  /** The bytes as a stream (read as it is consumed), or null when there is no such file. */
  getStream(key: string): Promise<Readable | null>;
  /**
   * Stores a stream of exactly `contentLength` bytes without holding it in memory; a reader never sees
   * half a file, and a stream of another length is refused (nothing stored).
   */
  putStream(key: string, body: Readable, contentType: string, contentLength: number): Promise<void>;
  /** A signed GET link valid for `ttlSeconds`. */
  signedUrl(key: string, options: { baseUrl: string; now: Date; ttlSeconds: number; contentType: string }): Promise<string>;
}

// ── Consultation summaries ─────────────────────────────────────────────────────────────────────

export interface ConsultationRecord {
  patientName: string;
  doctorName: string;
  /** When the consultation actually ran (falls back to the scheduled times). */
  startedAt: string;
  endedAt: string;
  notes: Array<{ symptomsandIllnesses: string; diagnosis: string; treatmentandRecommendation: string; doctorSignature: string }>;
  prescriptions: Array<{ prescribedDrugs: Array<{ drugName: string; dosage: string; frequency: string; duration: string }>; additionalNotes: string }>;
  /** Present only when a speech-to-text adapter transcribed the recordings. */
  transcript?: string;
  /** The patient's language for `patientSummary`; `transcriptionSummary` is always English. */
  locale?: Locale;
}

export interface ConsultationSummaries {
  transcriptionSummary: string;
  patientSummary: string;
}

/** A transcript of one recording, or null when it has nothing to say. No adapter is configured by default. */
export interface SpeechToText {
  transcribe(audio: Buffer, contentType: string): Promise<string | null>;
}

/** From what a consultation left behind, two texts: one for clinicians, one for the patient. */
export interface Summariser {
  summarise(record: ConsultationRecord): Promise<ConsultationSummaries>;
}

// ── Webhooks ───────────────────────────────────────────────────────────────────────────────────

/** One signed webhook POST, as the dispatcher hands it to the sender. */
export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /**
   * Every delivery, in every mode, goes only to globally routable unicast addresses (see `refusedRange`);
   * this allows loopback targets too (config `WEBHOOK_ALLOW_LOOPBACK`, a developer's machine and the test suite).
   */
  allowLoopback: boolean;
  timeoutMs: number;
}

/** What came back: a status (any, including 3xx: redirects are never followed) or a transport error. */
export interface WebhookOutcome {
  status?: number;
  retryAfter?: string;
  /** Transport failure or a short excerpt of a non-2xx response body. */
  error?: string;
  /** The start of the response body (bounded by the sender, 2 KB), for the dashboard's attempt log. */
  bodyExcerpt?: string;
}

/** Sends one webhook; never throws (every failure is an outcome). Adapter: `integrations/webhooks/send-webhook.ts`. */
export type SendWebhook = (request: WebhookRequest) => Promise<WebhookOutcome>;

/** Someone connected to a meeting room, as every process sees them (`connection` tells two sockets of one participant apart). */
export interface RoomPresence {
  clientId: string;
  connection: string;
  name: string;
  role: string;
}

/**
 * The meeting rooms' shared channel, so a meeting's participants may sit on different processes:
 * publish a JSON message to everyone subscribed to a room, in
 * whichever process, and who is present. In-process on SQLite, PostgreSQL LISTEN/NOTIFY, or Redis pub/sub.
 * Messages of one publisher arrive in the order published; messages lost while a subscriber reconnects are not
 * replayed. Presence entries expire `ttlMs` after their last announcement (a crashed process's peers vanish).
 */
export interface RoomBus {
  readonly kind: 'in-process' | 'postgres' | 'redis';
  publish(room: string, message: Record<string, unknown>): Promise<void>;
  /** Resolves once messages of the room are delivered; the returned function unsubscribes. */
  subscribe(room: string, onMessage: (message: Record<string, unknown>) => void): Promise<() => Promise<void>>;
  /** Adds or refreshes an entry (the last announcement of a clientId wins). */
  announce(room: string, entry: RoomPresence, ttlMs: number): Promise<void>;
  /** Removes the clientId's entry if it is still `connection`'s; true when it was. */
  withdraw(room: string, clientId: string, connection: string): Promise<boolean>;
  /** The room's unexpired entries. */
  present(room: string): Promise<RoomPresence[]>;
  close(): Promise<void>;
}
