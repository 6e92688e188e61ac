import { z } from 'zod';
import type {
  ChargeRequest,
  InitialiseAuthorisationRequest,
  PaymentRail,
  ProviderAuthorisationStatus,
  ProviderChargeStatus,
  RailName,
} from '../rails/payment-rail';
import { PaymentRailError } from '../rails/payment-rail-error';
import { railErrorOf } from '../rails/provider-rail-error';
import type { MonoHttp } from './mono-http';

/**
 * Mono Direct Debit as a `PaymentRail` (https://docs.mono.co/docs/payments/direct-debit/integration-guide). Endpoints:
 * - `POST /v2/payments/initiate` {amount, type: recurring-debit, method: mandate, mandate_type: emandate, debit_type:
 *   variable, reference: ours, redirect_url, customer, start_date, end_date, account_number?, bank_code?} →
 *   `data.mono_url` (Mono's page where the borrower authorises); our reference names the mandate (`providerReference`);
 * - the mandate (`mmc_…`), once the borrower approved: found by our reference (see the fake's assumptions), then
 *   `GET /v3/payments/mandates/:id`; chargeable when `approved` and `ready_to_debit` — its id is the authorisation code;
 * - `GET /v3/payments/mandates/:id/balance-inquiry?amount=` → `data.has_sufficient_balance` (before every debit);
 * - `POST /v3/payments/mandates/:id/debit` {amount (kobo), reference: ours, narration};
 * - `GET /v3/payments/mandates/:id/debits/:reference` (the debit read back);
 * - `PATCH /v3/payments/mandates/:id/cancel`.
 *
 * A debit's read-back needs the mandate, so the charge reference this adapter answers is `<mandate id>:<our reference>`.
 * Looking a debit up by our reference alone (`findCharge`, after an unknown outcome) uses `mandateOfCharge`, which the
 * composition root answers from the platform's own records; without an answer the look-up fails (it never says "not
 * taken", which would allow a second debit).
 *
 * Retries: reads, the balance inquiry and cancellation are retried (idempotent); initiation and the debit are not. A
 * debit whose answer is lost surfaces as `PaymentRailOutcomeUnknown` and must be looked up by its reference.
 */

const DEBIT_STATUS: Record<string, ProviderChargeStatus> = {
  successful: 'succeeded',
  success: 'succeeded',
  completed: 'succeeded',
  failed: 'failed',
  reversed: 'failed',
  cancelled: 'failed',
  processing: 'processing',
  pending: 'processing',
  queued: 'processing',
};

/** The reference characters this adapter sends Mono (its samples use letters, digits and '-'). */
const MONO_REFERENCE = /^[A-Za-z0-9_-]{1,64}$/;
const MANDATE_ID = /^mmc_[A-Za-z0-9]+$/;

export const MonoMandate = z
  .object({
    id: z.string().min(1),
    status: z.string(),
    reference: z.string().nullish(),
    approved: z.boolean().nullish(),
    ready_to_debit: z.boolean().nullish(),
  })
  .passthrough();
export type MonoMandate = z.infer<typeof MonoMandate>;

const Initiated = z.object({ mono_url: z.string().url(), reference: z.string().nullish() }).passthrough();
const Balance = z.object({ has_sufficient_balance: z.boolean() }).passthrough();
const Debit = z.object({ status: z.string(), message: z.string().nullish(), response_message: z.string().nullish() }).passthrough();

/** Mono's mandate → the port's status: only an approved mandate that is ready to debit is `active` (chargeable). */
export const mandateStatusOf = (mandate: MonoMandate): ProviderAuthorisationStatus => {
  const status = mandate.status.toLowerCase();
  if (status === 'cancelled' || status === 'canceled' || status === 'expired') return 'cancelled';
  if (status === 'rejected' || status === 'declined' || status === 'failed') return 'refused';
  const approved = mandate.approved === true || status === 'approved' || status === 'active';
  if (approved && mandate.ready_to_debit === true && status !== 'paused') return 'active';
  return approved ? 'approved' : 'pending';
};

export interface MonoRailOptions {
  /** Our charge reference → the mandate id it was debited on (the platform's records), for `findCharge`. */
  mandateOfCharge?: (reference: string) => Promise<string | null>;
  /** Ask before every debit whether the balance covers it (Mono's sufficient-funds check); on by default. */
  balanceInquiry?: boolean;
  /** How long a mandate runs from its start (default 730 days: the longest tenor plus grace and collections). */
  mandateDays?: number;
  /** The statement narration of debits. */
  narration?: string;
  now?: () => Date;
}

const day = (date: Date) => date.toISOString().slice(0, 10);

export class MonoRail implements PaymentRail {
  readonly provider = 'mono';

  constructor(
    readonly name: RailName,
    private readonly http: MonoHttp,
    private readonly options: MonoRailOptions = {},
  ) {}

  async initialiseAuthorisation(request: InitialiseAuthorisationRequest): Promise<{ authorizationUrl: string; providerReference: string }> {
    if (!MONO_REFERENCE.test(request.reference)) throw this.refusal('invalid_reference', 'start the mandate', "Mono takes letters, digits, '-' and '_' in a reference");
    if (!Number.isSafeInteger(request.amountKobo) || request.amountKobo <= 0) throw this.refusal('invalid_amount', 'start the mandate', 'the amount must be a positive whole number of kobo');
    const start = (this.options.now ?? (() => new Date()))();
    const end = new Date(start.getTime() + (this.options.mandateDays ?? 730) * 86_400_000);
    const data = await this.call('start the mandate', {
      method: 'POST',
      path: '/v2/payments/initiate',
      body: {
        amount: request.amountKobo,
        type: 'recurring-debit',
        method: 'mandate',
        mandate_type: 'emandate',
        debit_type: 'variable',
        description: `Loan repayments for ${request.email}`,
        reference: request.reference,
        ...(request.callbackUrl ? { redirect_url: request.callbackUrl } : {}),
        // The port carries the e-mail only; a Mono customer id (POST /v2/customers: name, phone, BVN) would need more.
        customer: { email: request.email },
        start_date: day(start),
        end_date: day(end),
        ...(request.accountNumber && request.bankCode ? { account_number: request.accountNumber, bank_code: request.bankCode } : {}),
      },
      data: Initiated,
      // A second initiation with the same reference is refused by Mono; one nobody approves debits nothing.
      idempotent: false,
    });
    return { authorizationUrl: data.mono_url, providerReference: data.reference ?? request.reference };
  }

  async readAuthorisation(providerReference: string): Promise<{ status: ProviderAuthorisationStatus; authorizationCode: string | null }> {
    const mandate = await this.mandateOf(providerReference);
    if (!mandate) return { status: 'pending', authorizationCode: null };
    const status = mandateStatusOf(mandate);
    return { status, authorizationCode: status === 'active' ? mandate.id : null };
  }

  /**
   * Asks Mono whether the balance covers the debit first (when enabled): a short balance sends nothing and answers
   * `PaymentRailError` `insufficient_balance` (retryable), so the collector records the try as failed and tries again
   * on its schedule. Then debits with our reference.
   */
  async charge(request: ChargeRequest): Promise<{ status: 'processing'; chargeReference: string }> {
    if (!MONO_REFERENCE.test(request.reference)) throw this.refusal('invalid_reference', 'start the debit', "Mono takes letters, digits, '-' and '_' in a reference");
    if (!Number.isSafeInteger(request.amountKobo) || request.amountKobo <= 0) throw this.refusal('invalid_amount', 'start the debit', 'the amount must be a positive whole number of kobo');
    if (!MANDATE_ID.test(request.authorizationCode)) throw this.refusal('invalid_authorization_code', 'start the debit', 'the authorisation code is not a Mono mandate id');
    const mandate = encodeURIComponent(request.authorizationCode);
    const chargeReference = `${request.authorizationCode}:${request.reference}`;
    if (this.options.balanceInquiry !== false) {
      const balance = await this.call('check the balance before the debit', {
        method: 'GET',
        path: `/v3/payments/mandates/${mandate}/balance-inquiry`,
        query: { amount: request.amountKobo },
        data: Balance,
        idempotent: true,
      });
      if (!balance.has_sufficient_balance) {
        throw new PaymentRailError(this.name, 'insufficient_balance', `${this.name}: the debit was deferred: Mono's balance inquiry says the account does not hold the amount (nothing was sent; the collector tries again on its schedule).`, null, true);
      }
    }
    try {
      await this.call('start the debit', {
        method: 'POST',
        path: `/v3/payments/mandates/${mandate}/debit`,
        body: { amount: request.amountKobo, reference: request.reference, narration: this.options.narration ?? 'Loan repayment' },
        data: Debit,
        idempotent: false,
        unknownOutcomeOf: request.reference,
      });
    } catch (error) {
      // One reference is one debit: Mono refusing the reference as a duplicate means it already holds this debit.
      if (error instanceof PaymentRailError && error.httpStatus === 400 && /duplicate/i.test(error.message)) return { status: 'processing', chargeReference };
      throw error;
    }
    return { status: 'processing', chargeReference };
  }

  async readCharge(chargeReference: string): Promise<{ status: ProviderChargeStatus; failureReason: string | null }> {
    const [mandateId, reference] = splitChargeReference(chargeReference);
    if (!mandateId || !reference) throw new PaymentRailError(this.name, 'invalid_charge_reference', `${this.name}: a Mono charge reference is <mandate id>:<reference>.`, null, false);
    let data: z.infer<typeof Debit>;
    try {
      data = await this.call('read the debit', { method: 'GET', path: `/v3/payments/mandates/${encodeURIComponent(mandateId)}/debits/${encodeURIComponent(reference)}`, data: Debit, idempotent: true });
    } catch (error) {
      if (error instanceof PaymentRailError && error.httpStatus === 404) {
        throw new PaymentRailError(this.name, 'charge_not_found_at_provider', `${this.name}: Mono has no debit with this reference on the mandate (${error.message})`, 404, false, { cause: error });
      }
      throw error;
    }
    const status = DEBIT_STATUS[data.status.toLowerCase()] ?? 'processing';
    return { status, failureReason: status === 'failed' ? (data.response_message || data.message || data.status) : null };
  }

  async findCharge(reference: string): Promise<{ chargeReference: string; status: ProviderChargeStatus; failureReason: string | null } | null> {
    const mandateId = await this.options.mandateOfCharge?.(reference);
    if (!mandateId) {
      throw new PaymentRailError(this.name, 'mono_mandate_unknown', `${this.name}: cannot look the debit up: Mono reads debits per mandate and the mandate of this reference is not known (nothing was assumed).`, null, true);
    }
    const chargeReference = `${mandateId}:${reference}`;
    try {
      return { chargeReference, ...(await this.readCharge(chargeReference)) };
    } catch (error) {
      if (error instanceof PaymentRailError && error.code === 'charge_not_found_at_provider') return null;
      throw error;
    }
  }

  /** Cancels the mandate. One the borrower never approved does not exist at Mono yet: nothing to cancel (it lapses). */
  async cancel(providerReference: string): Promise<void> {
    const mandate = await this.mandateOf(providerReference);
    if (!mandate || mandateStatusOf(mandate) === 'cancelled' || mandateStatusOf(mandate) === 'refused') return;
    await this.call('cancel the mandate', { method: 'PATCH', path: `/v3/payments/mandates/${encodeURIComponent(mandate.id)}/cancel`, data: z.unknown(), idempotent: true });
  }

  /** The mandate made with our reference (the latest, if Mono lists several), read back by its id; null before approval. */
  private async mandateOf(reference: string): Promise<MonoMandate | null> {
    const list = await this.call('find the mandate', { method: 'GET', path: '/v3/payments/mandates', query: { reference }, data: z.array(MonoMandate), idempotent: true });
    const found = list.filter((m) => m.reference === reference).at(-1);
    if (!found) return null;
    return this.call('read the mandate', { method: 'GET', path: `/v3/payments/mandates/${encodeURIComponent(found.id)}`, data: MonoMandate, idempotent: true });
  }

  private refusal(code: string, action: string, detail: string) {
    return new PaymentRailError(this.name, code, `${this.name}: could not ${action}: ${detail} (nothing was sent).`, null, false);
  }

  private async call<T>(
    action: string,
    request: { method: 'GET' | 'POST' | 'PATCH'; path: string; query?: Record<string, string | number>; body?: unknown; data: z.ZodType<T>; idempotent: boolean; unknownOutcomeOf?: string },
  ): Promise<T> {
    try {
      return await this.http.request({ action, method: request.method, path: request.path, query: request.query, body: request.body, data: request.data, idempotent: request.idempotent });
    } catch (error) {
      throw railErrorOf(this.name, 'Mono', error, request.unknownOutcomeOf);
    }
  }
}


/** `mmc_…:RPY-…` → [mandate id, reference]. */
export const splitChargeReference = (chargeReference: string): [string | null, string | null] => {
  const at = chargeReference.indexOf(':');
  return at > 0 ? [chargeReference.slice(0, at), chargeReference.slice(at + 1) || null] : [null, null];
};
