import type { OfferFacts } from '../server/platform/domain/checkout/checkout-state';

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

export type StepName = 'otp' | 'kyc' | 'identity' | 'decision' | 'guarantors' | 'offer' | 'bank' | 'mandate';

/** A patient-financing application as the patient sees it (the platform's `FinancingView`; a type only). */
export type { FinancingView } from '../server/platform/domain/financing/financing-view';
import type { FinancingView } from '../server/platform/domain/financing/financing-view';

/** The offer's key facts, as the platform's checkout state builds them (a type only: nothing of the server is bundled). */
export type { OfferFacts } from '../server/platform/domain/checkout/checkout-state';

export interface CheckoutState {
  status: 'in_progress' | 'waiting_for_lender' | 'complete' | 'declined' | 'closed';
  nextStep: StepName | null;
  steps: { name: StepName; done: boolean }[];
  organisationName: string;
  phoneHint: string | null;
  /** Null until the phone is verified. */
  offer: OfferFacts | null;
  mandate: Mandate | null;
  guarantorsRequired: number;
  guarantors: Guarantor[] | null;
  /** A patient-financing application (steps `identity` and `decision`); null otherwise and before the OTP. */
  financing: FinancingView | null;
}

export interface Bank {
  code: string;
  name: string;
}

export interface BankAccount {
  bankCode: string;
  bankName: string;
  accountNumber: string;
  accountName: string;
}

export interface Mandate {
  id: string;
  status: string;
  provider: string;
  authorizationUrl: string | null;
  activatedAt: string | null;
}

export interface Guarantor {
  id: string;
  fullName: string;
  phoneHint: string;
  relationship: string;
  verified: boolean;
}

export interface Signature {
  signatureFullName: string;
  signatureEmail?: string;
  documentReference: string;
}

export interface OtpSent {
  sentTo: string;
  expiresAt: string;
  resendAvailableAt: string;
  attemptsAllowed: number;
}

export class CheckoutApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'CheckoutApiError';
  }
}

export class CheckoutApi {
  constructor(readonly base: string) {}

  state(signal?: AbortSignal): Promise<CheckoutState> {
    return this.call('GET', '/state', undefined, signal);
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

  saveBankAccount(account: { bankCode: string; accountNumber: string }, signal?: AbortSignal): Promise<BankAccount> {
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

  createMandate(signal?: AbortSignal): Promise<Mandate> {
    return this.call('POST', '/mandate', {}, signal);
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

  acceptOffer(signature: Signature, signal?: AbortSignal): Promise<unknown> {
    return this.call('POST', '/offer/accept', { ...signature, agreed: true }, signal);
  }

  declineOffer(signature: Signature & { reason?: string }, signal?: AbortSignal): Promise<unknown> {
    return this.call('POST', '/offer/decline', signature, signal);
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        credentials: 'same-origin',
        signal,
        headers: method === 'POST' ? { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() } : undefined,
        body: method === 'POST' ? JSON.stringify(body) : undefined,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new CheckoutApiError(0, 'network_error', 'We could not reach the server. Check your connection and try again.');
    }
    const envelope = (await res.json().catch(() => undefined)) as Envelope<T> | undefined;
    if (!res.ok || !envelope?.success) {
      throw new CheckoutApiError(res.status, envelope?.error ?? 'unexpected_response', envelope?.message ?? 'Something went wrong. Please try again.');
    }
    return envelope.data as T;
  }
}
