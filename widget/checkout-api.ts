import type {
  Bank,
  CheckoutBranding,
  CheckoutPayout,
  CheckoutStatus,
  CheckoutStep,
  FinancingView,
  Guarantor,
  MandateFailure,
  OfferFacts,
  OtpChallenge,
  OtpSent,
  SettlementMerchantChoice,
  SettlementMerchantPage,
} from '../server/shared/checkout-contract';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';

/**
 * The checkout server's JSON endpoints, typed. Every answer is the platform's envelope; a failure
 * becomes a `CheckoutApiError` carrying the machine-readable `error` code. POSTs carry a fresh
 * Idempotency-Key per attempt, so a retry after a network error is safe.
 */
export interface Envelope<T> {
  status: number;
  success: boolean;
  message: string;
  data?: T;
  error?: string;
}

/**
 * The shapes the platform answers with are the checkout contract's (`server/shared/checkout-contract.ts`,
 * re-exported as types only: nothing of the server is bundled): the offer's key facts, a patient-financing
 * application, banks, guarantors, the settlement catalog's merchants, the phone code's challenge.
 */
export type * from '../server/shared/checkout-contract';

export type StepName = CheckoutStep;

/** Error codes that end the session (`UNAUTHENTICATED`: the token names no session, e.g. a tampered cookie): the checkout shows the ended state and nothing of the loan. */
export const SESSION_ENDED_CODES = ['checkout_session_expired', 'checkout_session_revoked', 'checkout_session_missing', 'UNAUTHENTICATED'] as const;

export interface CheckoutState {
  /** The session's opaque ids (they go into the public events), and its remaining lifetime as of this answer (absent from older servers). */
  session: { id: string; loanId: string; expiresInSeconds?: number };
  status: CheckoutStatus;
  nextStep: StepName | null;
  steps: { name: StepName; done: boolean }[];
  organisationName: string;
  phoneHint: string | null;
  /** The code in play while the phone is not verified (what a reload restores); null otherwise. */
  otpChallenge: OtpChallenge | null;
  /** Null until the phone is verified. */
  offer: OfferFacts | null;
  mandate: Mandate | null;
  /** The captured bank account (null until captured, and before the OTP). */
  bank: { bankCode: string; bankName: string; accountNumberLast4: string; accountName: string } | null;
  /**
   * The borrower's name on record (what a signature is checked against) and `emailHint`, the e-mail on record,
   * masked (null when the mandate step must ask for one). Null until the phone is verified.
   */
  borrower: { firstName: string; lastName: string; emailHint: string | null } | null;
  guarantorsRequired: number;
  guarantors: Guarantor[] | null;
  settlementCatalog: boolean;
  /** Null until the phone is verified, and until a merchant is chosen. */
  settlementMerchant: SettlementMerchantChoice | null;
  /** A patient-financing application (steps `identity` and `decision`); null otherwise and before the OTP. */
  financing: FinancingView | null;
  // Branding and receipt: the lender's public face (readable before the OTP) and what the receipt shows (null until the OTP).
  mode: 'test' | 'live';
  /** Test mode, from the checkout server: the sandbox inbox when the platform serves it to this browser, else null (absent in live mode). */
  sandboxInbox?: string | null;
  /** Where the lender's disbursement pays the money and whether it has (null before the OTP; absent from older servers). */
  payout?: CheckoutPayout | null;
  branding: CheckoutBranding & { securedBy: string };
  loan: { id: string; principalKobo: number; receiptSentAt: string | null } | null;
}
/** A looked-up account, with how its name compares with the borrower's on record. */
export interface BankAccount {
  bankCode: string;
  bankName: string;
  accountNumber: string;
  accountName: string;
  nameMatch: { status: 'match' | 'partial' | 'mismatch'; score: number; nameOnRecord: string };
}

export interface Mandate {
  id: string;
  status: string;
  provider: string;
  authorizationUrl: string | null;
  activatedAt: string | null;
  /** In the state: why the latest mandate ended without becoming active (null while in play or active). */
  failure?: MandateFailure | null;
}

export interface Signature {
  signatureFullName: string;
  signatureEmail?: string;
  documentReference: string;
}

/** The session's sliding expiry and absolute cap (`POST /session/refresh`). */
export interface SessionTimes {
  expiresAt: string;
  maxExpiresAt: string;
  /** Seconds from the answer until `expiresAt` (absent from older servers). */
  expiresInSeconds?: number;
}

/** How the borrower reaches the lender (expired page). */
export interface LenderContact {
  name: string;
  email: string | null;
  phone: string | null;
  url: string | null;
}

/** An expired session's page facts (`GET /session/renewal`). */
export interface ExpiredSession {
  expiredAt: string;
  lender: LenderContact;
  /** false: the loan is closed, no new link can be texted. */
  renewable: boolean;
  renewAvailableAt: string;
  /** Seconds from the answer until a new link can be texted (0: now). */
  renewInSeconds: number;
}

export interface PasskeyStatus {
  /** false: this checkout has no relying party (passkeys off, or served from an IP address). */
  available: boolean;
  registered: number;
}

/** Where the widget may deliver its events: the organisation's settings plus the checkout server's own options. */
export interface EmbeddingSettings {
  allowedOrigins: string[];
  returnUrl: string | null;
}

let refusalReported = false;

/**
 * The checkout server refused this page's origin (403 `origin_not_allowed`): tell the page's developer,
 * once per page, which setting lets it in. The borrower sees `error.origin_not_allowed`.
 */
function reportRefusedOrigin(base: string, detail: string | undefined): void {
  if (refusalReported) return;
  refusalReported = true;
  const origin = typeof location === 'undefined' ? 'this page' : location.origin;
  console.error(
    `[LoanCheckout] origin_not_allowed: the checkout server at ${base} refuses calls from ${origin}. ` +
      `Hosted checkout: PATCH /v1/checkout-settings {"allowedOrigins": ["${origin}"]} (a key of the session's mode). ` +
      `Your own checkout server: the allowedOrigins option of createCheckoutRouter. ` +
      (detail ? `The server said: ${detail}` : ''),
  );
}

export class CheckoutApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The error envelope's `data` (e.g. `attemptsLeft` of a wrong code, the code still in play of a 429). */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'CheckoutApiError';
  }
}

export class CheckoutApi {
  /**
   * @param base the checkout server's JSON endpoints (`<mount>/api`)
   * @param token embedded mode: the session token, sent as `Authorization: CheckoutSession <token>`
   *   (no cookies, so third-party cookie blocking does not matter); hosted mode: none, the cookie is used
   * @param onSessionEnded called when any answer says the session has expired, was revoked or is
   *   missing, so the host can drop what it shows of the loan at once (not only on the next load).
   */
  constructor(
    readonly base: string,
    readonly token?: string,
    private readonly onSessionEnded?: (code: (typeof SESSION_ENDED_CODES)[number]) => void,
  ) {}

  settings(signal?: AbortSignal): Promise<EmbeddingSettings> {
    return this.call('GET', '/settings', undefined, signal);
  }

  state(signal?: AbortSignal): Promise<CheckoutState> {
    return this.call('GET', '/state', undefined, signal);
  }

  /** Slides the session (the borrower is active on the page), never past its cap. */
  refreshSession(signal?: AbortSignal): Promise<SessionTimes> {
    return this.call('POST', '/session/refresh', {}, signal);
  }

  /** An expired session only: the lender's contact and when a new link can be texted. */
  expiredSession(signal?: AbortSignal): Promise<ExpiredSession> {
    return this.call('GET', '/session/renewal', undefined, signal);
  }

  /** An expired session only: texts a new link to the phone on record. */
  renewSession(signal?: AbortSignal): Promise<{ sentTo: string; lender: LenderContact }> {
    return this.call('POST', '/session/renew', {}, signal);
  }

  sendOtp(signal?: AbortSignal): Promise<OtpSent> {
    return this.call('POST', '/otp/send', {}, signal);
  }

  verifyOtp(code: string, signal?: AbortSignal): Promise<{ verified: boolean }> {
    return this.call('POST', '/otp/verify', { code }, signal);
  }

  banks(signal?: AbortSignal): Promise<Bank[]> {
    return this.call('GET', '/banks', undefined, signal);
  }

  resolveBankAccount(account: { bankCode: string; accountNumber: string }, signal?: AbortSignal): Promise<BankAccount> {
    return this.call('POST', '/bank-account/resolve', account, signal);
  }

  saveBankAccount(account: { bankCode: string; accountNumber: string; confirmNameMismatch?: boolean }, signal?: AbortSignal): Promise<BankAccount> {
    return this.call('POST', '/bank-account', account, signal);
  }

  submitKyc(details: { bvn: string; nin?: string; dateOfBirth?: string; address?: string }, signal?: AbortSignal): Promise<{ outcome: 'verified' | 'failed' | 'pending'; loanStatus: string }> {
    return this.call('POST', '/kyc', details, signal);
  }

  addGuarantor(guarantor: { fullName: string; phone: string; relationship: string }, signal?: AbortSignal): Promise<{ guarantor: Guarantor; otp: OtpSent | null }> {
    return this.call('POST', '/guarantors', guarantor, signal);
  }

  verifyGuarantor(guarantorId: string, code: string, signal?: AbortSignal): Promise<Guarantor> {
    return this.call('POST', '/guarantors/verify', { guarantorId, code }, signal);
  }

  resendGuarantorCode(guarantorId: string, signal?: AbortSignal): Promise<OtpSent> {
    return this.call('POST', '/guarantors/resend', { guarantorId }, signal);
  }

  merchants(query: { q?: string; page?: number }, signal?: AbortSignal): Promise<SettlementMerchantPage> {
    const params = new URLSearchParams();
    if (query.q) params.set('q', query.q);
    if (query.page && query.page > 1) params.set('page', String(query.page));
    return this.call('GET', `/merchants${params.size ? `?${params}` : ''}`, undefined, signal);
  }

  chooseMerchant(providerId: string, signal?: AbortSignal): Promise<SettlementMerchantChoice> {
    return this.call('POST', '/merchant', { providerId }, signal);
  }

  /** `email` when the borrower has none on record (the state's `borrower.emailHint` is null); the platform keeps it for later attempts. */
  createMandate(email?: string, signal?: AbortSignal): Promise<Mandate> {
    return this.call('POST', '/mandate', email ? { email } : {}, signal);
  }

  activateMandate(signal?: AbortSignal): Promise<Mandate> {
    return this.call('POST', '/mandate/activate', {}, signal);
  }

  submitFinancingIdentity(
    details: { fullName: string; bvn: string; dateOfBirth: string; declaredMonthlyIncomeKobo: number; email?: string },
    signal?: AbortSignal,
  ): Promise<FinancingView> {
    return this.call('POST', '/financing/identity', details, signal);
  }

  chooseTenor(tenorMonths: number, signal?: AbortSignal): Promise<{ loanId: string; status: string; documentReference: string | null }> {
    return this.call('POST', '/financing/tenor', { tenorMonths }, signal);
  }

  acceptOffer(signature: Signature & { passkey?: { nonce: string; response: unknown }; confirmSignatureName?: boolean }, signal?: AbortSignal): Promise<unknown> {
    return this.call('POST', '/offer/accept', { ...signature, agreed: true }, signal);
  }

  /** Whether the checkout offers passkeys here and how many the borrower has for it. */
  passkeys(signal?: AbortSignal): Promise<PasskeyStatus> {
    return this.call('GET', '/passkeys', undefined, signal);
  }

  passkeyRegistrationOptions(signal?: AbortSignal): Promise<PublicKeyCredentialCreationOptionsJSON> {
    return this.call('POST', '/passkeys/registration-options', {}, signal);
  }

  registerPasskey(response: unknown, signal?: AbortSignal): Promise<unknown> {
    return this.call('POST', '/passkeys', { response }, signal);
  }

  /** Options for signing the current offer with a passkey, and the one-time nonce to send back. */
  passkeySigningOptions(signal?: AbortSignal): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; nonce: string; documentReference: string }> {
    return this.call('POST', '/offer/passkey-options', {}, signal);
  }

  declineOffer(signature: Signature & { reason?: string }, signal?: AbortSignal): Promise<unknown> {
    return this.call('POST', '/offer/decline', signature, signal);
  }

  /** A call to the checkout server's API (`/language` is called this way: no method of its own, for the bundle's size). */
  async call<T>(method: 'GET' | 'POST', path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    let res: Response;
    try {
      const headers: Record<string, string> = method === 'POST' ? { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() } : {};
      if (this.token) headers.authorization = `CheckoutSession ${this.token}`;
      res = await fetch(`${this.base}${path}`, {
        method,
        credentials: this.token ? 'omit' : 'same-origin',
        signal,
        headers,
        body: method === 'POST' ? JSON.stringify(body) : undefined,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new CheckoutApiError(0, 'network_error', 'We could not reach the server. Check your connection and try again.');
    }
    const envelope = (await res.json().catch(() => undefined)) as Envelope<T> | undefined;
    if (!res.ok || !envelope?.success) {
      const code = envelope?.error as (typeof SESSION_ENDED_CODES)[number] | undefined;
      if (code && SESSION_ENDED_CODES.includes(code)) this.onSessionEnded?.(code);
      if (envelope?.error === 'origin_not_allowed') reportRefusedOrigin(this.base, envelope.message);
      throw new CheckoutApiError(res.status, envelope?.error ?? 'unexpected_response', envelope?.message ?? 'Something went wrong. Please try again.', envelope?.data);
    }
    return envelope.data as T;
  }
}
