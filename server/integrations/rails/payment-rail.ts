/**
 * The payment-rail port: what the platform needs from a direct-debit provider (Paystack direct
 * debit, Mono DirectPay, or the sandbox rails), whatever the provider's own API looks like.
 *
 * The flow every rail follows:
 * 1. `initialiseAuthorisation` → send the borrower to `authorizationUrl`;
 * 2. the borrower approves on the provider's page (`approved`), and the provider confirms the
 *    mandate later (`active`, with an `authorizationCode`); only an `active` authorisation is chargeable;
 * 3. `charge` answers `processing` at once; the result is read back with `readCharge`.
 *
 * Adapters raise `PaymentRailError` (./payment-rail-error.ts) when the provider refuses a request
 * or cannot be reached; nothing else escapes them.
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
}

export interface PaymentRail {
  readonly name: RailName;
  /** Starts a mandate authorisation; the borrower is sent to authorizationUrl. */
  initialiseAuthorisation(request: InitialiseAuthorisationRequest): Promise<{ authorizationUrl: string; providerReference: string }>;
  /** Reads the authorisation back. `approved` = the borrower said yes but the provider has not confirmed: NOT chargeable. `active` comes with an authorisation code. */
  readAuthorisation(providerReference: string): Promise<{ status: ProviderAuthorisationStatus; authorizationCode: string | null }>;
  /** Starts a debit; asynchronous: always answers `processing`; the result is read back (or notified) later. */
  charge(request: ChargeRequest): Promise<{ status: 'processing'; chargeReference: string }>;
  readCharge(chargeReference: string): Promise<{ status: ProviderChargeStatus; failureReason: string | null }>;
  cancel(providerReference: string): Promise<void>;
}
