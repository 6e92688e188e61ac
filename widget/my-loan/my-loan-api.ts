import { CheckoutApiError, type LenderContact, type OtpSent } from '../checkout-api';

/**
 * The loan page's JSON endpoints (`<checkout mount>/my-loan/api`, server/checkout/my-loan/my-loan-router.ts), typed.
 * The borrower's session tokens stay in the checkout server's HttpOnly cookie: this client never sees one. A browser
 * signed in with several lenders holds one session each; a client bound to one (`forSession`) names it with the
 * `X-Borrower-Session` handle, and the server forwards `call`s to the platform's `/v1/borrower/*` with that session.
 * A failure is a `CheckoutApiError` with the machine-readable `error` code, as in the checkout.
 */

export type LoanStatus = 'disbursed' | 'active' | 'completed' | 'defaulted' | string;

export interface NextDebit {
  dueDate: string;
  amountKobo: number;
  byDirectDebit: boolean;
}

export interface LoanSummary {
  id: string;
  status: LoanStatus;
  currency: string;
  principalKobo: number;
  outstandingKobo: number;
  amountPaidKobo: number;
  inArrears: boolean;
  disbursedAt: string | null;
  nextDebit: NextDebit | null;
}

export interface Instalment {
  installmentNumber: number;
  dueDate: string;
  totalKobo: number;
  amountPaidKobo: number;
  remainingKobo: number;
  state: 'paid' | 'due' | 'late';
  paidAt: string | null;
}

export interface Repayment {
  id: string;
  reference: string;
  method: string;
  status: string;
  amountKobo: number;
  createdAt: string;
  completedAt: string | null;
}

/** `GET /loans/{id}`: what the borrower owes on one loan (docs/borrower-loans.md, "What I owe"). */
export interface Loan extends LoanSummary {
  schedule: Instalment[];
  repayments: Repayment[];
  lender: LenderContact;
  offerLetter: { url: string; expiresAt: string } | null;
  payments: { minKobo: number; maxKobo: number; directDebitActive: boolean };
  earlySettlement: { interest: 'to_date' | 'scheduled'; feeBps: number };
}

export interface Payment {
  repaymentId: string;
  reference: string;
  amountKobo: number;
  status: 'completed' | 'pending';
  outstandingKobo: number;
  loanStatus: LoanStatus;
}

export interface SettlementQuote {
  id: string;
  loanId: string;
  status: 'open' | 'paying' | 'paid' | 'expired' | 'stale';
  totalKobo: number;
  settlementFeeKobo: number;
  waivedKobo: number;
  validUntil: string;
}

/** One signed-in lender: its session's handle, the lender's contact (null when it has no loan to name it) and the loans. */
export interface SignedInLender {
  handle: string;
  mode: 'test' | 'live';
  lender: LenderContact | null;
  loans: LoanSummary[];
}

export const SESSION_HANDLE_HEADER = 'x-borrower-session';

/** Codes that mean "not signed in (any more)": the page shows the sign-in. */
export const SIGNED_OUT_CODES = ['borrower_session_missing', 'borrower_session_ended'];

export class MyLoanApi {
  /**
   * @param base the loan page's JSON endpoints (`<mount>/my-loan/api`)
   * @param session the handle of the signed-in lender's session calls are made with (unset: the only one)
   */
  constructor(
    readonly base: string,
    readonly session?: string,
  ) {}

  /** The same endpoints with one lender's session. */
  forSession(handle: string): MyLoanApi {
    return new MyLoanApi(this.base, handle);
  }

  /**
   * A call to the platform's `/v1/borrower{path}` (e.g. `/loans/ID`) through the checkout server, with this client's
   * session. `idempotencyKey`: the payment routes require one per payment the borrower means to make.
   */
  async call<T>(method: 'GET' | 'POST', path: string, body?: object, idempotencyKey?: string, signal?: AbortSignal): Promise<T> {
    const headers: Record<string, string> = {};
    if (method === 'POST') headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    if (this.session) headers[SESSION_HANDLE_HEADER] = this.session;
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, { method, credentials: 'same-origin', headers, signal, body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new CheckoutApiError(0, 'network_error', 'We could not reach the server. Check your connection and try again.');
    }
    const envelope = (await res.json().catch(() => undefined)) as { success?: boolean; error?: string; message?: string; data?: unknown } | undefined;
    if (!res.ok || !envelope?.success) {
      throw new CheckoutApiError(res.status, envelope?.error ?? 'unexpected_response', envelope?.message ?? 'Something went wrong. Please try again.', envelope?.data);
    }
    return envelope.data as T;
  }

  // The checkout server's own endpoints (no session handle: they concern every session of this browser).

  /** `locale`: the language the borrower picked on the page, for the code's text (without it, their checkout's). */
  sendCode(phone: string, mode: 'test' | 'live', locale: string | undefined, signal?: AbortSignal): Promise<Omit<OtpSent, 'resendAvailableAt'>> {
    return this.call('POST', '/sign-in/send', { phone, mode, ...(locale ? { locale } : {}) }, undefined, signal);
  }

  verifyCode(phone: string, code: string, mode: 'test' | 'live', signal?: AbortSignal): Promise<{ sessions: Array<{ handle: string; lender: LenderContact }> }> {
    return this.call('POST', '/sign-in/verify', { phone, code, mode }, undefined, signal);
  }

  sessions(signal?: AbortSignal): Promise<{ sessions: SignedInLender[] }> {
    return this.call('GET', '/sessions', undefined, undefined, signal);
  }

  signOut(): Promise<{ signedOut: number }> {
    return this.call('POST', '/sign-out', {});
  }
}
