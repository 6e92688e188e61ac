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
import type { PaystackHttp } from './paystack-http';

/**
 * Paystack Direct Debit as a `PaymentRail`. Endpoints (https://paystack.com/docs/payments/direct-debit/,
 * https://paystack.com/docs/api/customer/, https://paystack.com/docs/api/transaction/):
 * - `POST /customer/authorization/initialize` {email, channel: direct_debit, callback_url, account?}
 *   → `data.redirect_url`, `data.access_code`, `data.reference` (Paystack's reference: the endpoint takes
 *   none of ours, so Paystack's is the `providerReference`; `amountKobo` is not part of the request);
 * - `GET /customer/authorization/verify/:reference` → `data.authorization_code`, `data.active`;
 * - `POST /transaction/charge_authorization` {email, amount (kobo), authorization_code, reference: ours};
 * - `GET /transaction/verify/:reference` → `data.status`, `data.gateway_response`;
 * - `POST /customer/authorization/deactivate` {authorization_code}.
 *
 * Retries: reads and deactivation are retried (idempotent); initialisation is not (a second request
 * would create a second pending authorisation) and neither is the charge: a charge whose answer is
 * lost surfaces as `PaymentRailOutcomeUnknown` and must be read back by its reference.
 */

/** Paystack's charge statuses → the port's. Anything not listed reads as `processing`: a word we do not know is not proof that money moved or did not. */
const CHARGE_STATUS: Record<string, ProviderChargeStatus> = {
  success: 'succeeded',
  failed: 'failed',
  abandoned: 'failed',
  reversed: 'failed',
  pending: 'processing',
  ongoing: 'processing',
  processing: 'processing',
  queued: 'processing',
};

/** The reference characters Paystack accepts ("Only -, ., = and alphanumeric characters allowed"). */
const PAYSTACK_REFERENCE = /^[A-Za-z0-9.=-]+$/;

const Initialised = z.object({ redirect_url: z.string().min(1), access_code: z.string().optional(), reference: z.string().min(1) });

export const PaystackAuthorisation = z
  .object({
    authorization_code: z.string().nullish(),
    active: z.boolean().nullish(),
    /** Not in the verify sample, but the mandate list reports `pending | active | revoked`; used when present. */
    status: z.string().nullish(),
    customer: z.object({ email: z.string().nullish(), code: z.string().nullish() }).passthrough().nullish(),
  })
  .passthrough();
export type PaystackAuthorisation = z.infer<typeof PaystackAuthorisation>;

const ChargeAttempted = z.object({ reference: z.string().min(1), status: z.string() }).passthrough();

const Transaction = z
  .object({
    reference: z.string(),
    status: z.string(),
    gateway_response: z.string().nullish(),
    message: z.string().nullish(),
  })
  .passthrough();

/**
 * Paystack's authorisation → the port's status. Only an authorisation Paystack reports active WITH an
 * authorization code is `active` (chargeable). A code without `active` is the mandate created but not
 * yet confirmed by the bank (`direct_debit.authorization.created`): `approved`, not chargeable.
 */
export const authorisationStatusOf = (data: PaystackAuthorisation): ProviderAuthorisationStatus => {
  const code = data.authorization_code ? data.authorization_code : null;
  const status = data.status?.toLowerCase();
  if (status === 'revoked' || status === 'inactive' || status === 'deactivated' || status === 'cancelled') return 'cancelled';
  if (status === 'declined' || status === 'rejected' || status === 'refused' || status === 'failed') return 'refused';
  if (data.active === true && code && (status === undefined || status === 'active')) return 'active';
  return code ? 'approved' : 'pending';
};

export const chargeStatusOf = (paystackStatus: string): { status: ProviderChargeStatus; known: boolean } => {
  const status = CHARGE_STATUS[paystackStatus.toLowerCase()];
  return status ? { status, known: true } : { status: 'processing', known: false };
};

export interface PaystackRailOptions {
  /**
   * Paystack's charge endpoint needs the customer's e-mail (the one the authorisation was made with:
   * "Email does not match Authorization code" otherwise) and `ChargeRequest` has none today. The
   * adapter uses, in order: `request.email` (see `PaystackChargeRequest`: the proposed optional port
   * field), then this lookup. Neither → the charge is refused before anything is sent.
   */
  chargeEmail?: (request: ChargeRequest) => string | null | undefined | Promise<string | null | undefined>;
  /** Our bank code (`Bank.code`) → Paystack's; identity by default (the 3-digit CBN codes are Paystack's). */
  bankCodeFor?: (bankCode: string) => string;
  /** Paystack's `queue: true` for scheduled (batch) charges; off by default. */
  queueCharges?: boolean;
}

/** `ChargeRequest` with the e-mail the port is proposed to grow. */
export type PaystackChargeRequest = ChargeRequest & { email?: string | null };

export class PaystackRail implements PaymentRail {
  constructor(
    readonly name: RailName,
    private readonly http: PaystackHttp,
    private readonly options: PaystackRailOptions = {},
  ) {}

  async initialiseAuthorisation(request: InitialiseAuthorisationRequest): Promise<{ authorizationUrl: string; providerReference: string }> {
    const account =
      request.accountNumber && request.bankCode
        ? { number: request.accountNumber, bank_code: this.options.bankCodeFor?.(request.bankCode) ?? request.bankCode }
        : undefined;
    const data = await this.call('start the direct-debit authorisation', {
      method: 'POST',
      path: '/customer/authorization/initialize',
      body: { email: request.email, channel: 'direct_debit', ...(request.callbackUrl ? { callback_url: request.callbackUrl } : {}), ...(account ? { account } : {}) },
      data: Initialised,
      // Not deduplicated by Paystack, but harmless to repeat: an authorisation nobody approves debits nothing.
      idempotent: false,
    });
    return { authorizationUrl: data.redirect_url, providerReference: data.reference };
  }

  async readAuthorisation(providerReference: string): Promise<{ status: ProviderAuthorisationStatus; authorizationCode: string | null }> {
    const data = await this.verifyAuthorisation(providerReference);
    const status = authorisationStatusOf(data);
    return { status, authorizationCode: status === 'active' ? (data.authorization_code ?? null) : null };
  }

  async charge(request: PaystackChargeRequest): Promise<{ status: 'processing'; chargeReference: string }> {
    if (!PAYSTACK_REFERENCE.test(request.reference)) {
      throw new PaymentRailError(this.name, 'invalid_reference', `${this.name}: could not start the charge: Paystack accepts only letters, digits, '-', '.' and '=' in a reference (nothing was sent).`, null, false);
    }
    if (!Number.isSafeInteger(request.amountKobo) || request.amountKobo <= 0) {
      throw new PaymentRailError(this.name, 'invalid_amount', `${this.name}: could not start the charge: the amount must be a positive whole number of kobo (nothing was sent).`, null, false);
    }
    const email = request.email ?? (await this.options.chargeEmail?.(request));
    if (!email) {
      throw new PaymentRailError(this.name, 'paystack_email_required', `${this.name}: could not start the charge: Paystack needs the customer's e-mail; pass it on the request or configure chargeEmail (nothing was sent).`, null, false);
    }
    try {
      await this.call('start the charge', {
        method: 'POST',
        path: '/transaction/charge_authorization',
        body: {
          email,
          amount: String(request.amountKobo),
          authorization_code: request.authorizationCode,
          reference: request.reference,
          currency: 'NGN',
          ...(this.options.queueCharges ? { queue: true } : {}),
        },
        data: ChargeAttempted,
        idempotent: false,
        unknownOutcomeOf: request.reference,
      });
    } catch (error) {
      // The port says one reference is one charge: Paystack refusing the reference as a duplicate means it already holds this charge.
      if (error instanceof PaymentRailError && (error.httpStatus === 400 || error.httpStatus === 200) && /duplicate/i.test(error.message)) return { status: 'processing', chargeReference: request.reference };
      throw error;
    }
    // Paystack may already answer success or failed; the port's contract is "processing, read it back".
    return { status: 'processing', chargeReference: request.reference };
  }

  /**
   * Reads the debit back by our reference. A reference Paystack does not know raises
   * `PaymentRailError` with code `charge_not_found_at_provider` rather than answering `failed`: the
   * docs say only that no such transaction exists on the integration *now*, not that it never will
   * (a queued charge, a request still in flight). The caller decides: after a grace period, send the
   * charge again with the SAME reference (safe: if the first one landed, Paystack refuses the
   * duplicate and this adapter answers `processing`).
   */
  async readCharge(chargeReference: string): Promise<{ status: ProviderChargeStatus; failureReason: string | null }> {
    let data: z.infer<typeof Transaction>;
    try {
      data = await this.call('read the charge', { method: 'GET', path: `/transaction/verify/${encodeURIComponent(chargeReference)}`, data: Transaction, idempotent: true });
    } catch (error) {
      if (error instanceof PaymentRailError && isNotFound(error)) {
        throw new PaymentRailError(this.name, 'charge_not_found_at_provider', `${this.name}: Paystack has no transaction with this reference (${error.message})`, error.httpStatus, false, { cause: error });
      }
      throw error;
    }
    const { status } = chargeStatusOf(data.status);
    if (status !== 'failed') return { status, failureReason: null };
    const reason = data.status.toLowerCase() === 'failed' ? (data.gateway_response || data.message || 'failed') : data.status.toLowerCase();
    return { status, failureReason: reason };
  }

  /** The charge by our reference (Paystack's reference is ours): `null` when Paystack holds none, so sending it again with the same reference is safe. */
  async findCharge(reference: string): Promise<{ chargeReference: string; status: ProviderChargeStatus; failureReason: string | null } | null> {
    try {
      return { chargeReference: reference, ...(await this.readCharge(reference)) };
    } catch (error) {
      if (error instanceof PaymentRailError && error.code === 'charge_not_found_at_provider') return null;
      throw error;
    }
  }

  /**
   * Deactivates the mandate. Paystack deactivates by authorization code, so the authorisation is read
   * back first; one without a code (never approved) has nothing to deactivate and is left to lapse.
   * If the borrower approves it afterwards, the domain must cancel again when the activation arrives.
   */
  async cancel(providerReference: string): Promise<void> {
    const data = await this.verifyAuthorisation(providerReference);
    if (!data.authorization_code) return;
    if (authorisationStatusOf(data) === 'cancelled') return;
    await this.call('cancel the authorisation', {
      method: 'POST',
      path: '/customer/authorization/deactivate',
      body: { authorization_code: data.authorization_code },
      data: z.unknown(),
      // Deactivating twice leaves it deactivated.
      idempotent: true,
    });
  }

  private async verifyAuthorisation(providerReference: string): Promise<PaystackAuthorisation> {
    try {
      return await this.call('read the authorisation', { method: 'GET', path: `/customer/authorization/verify/${encodeURIComponent(providerReference)}`, data: PaystackAuthorisation, idempotent: true });
    } catch (error) {
      if (error instanceof PaymentRailError && isNotFound(error)) {
        throw new PaymentRailError(this.name, 'authorisation_not_found', `${this.name}: Paystack has no authorisation with this reference (${error.message})`, error.httpStatus, false, { cause: error });
      }
      throw error;
    }
  }

  private async call<T>(
    action: string,
    request: { method: 'GET' | 'POST'; path: string; body?: unknown; data: z.ZodType<T>; idempotent: boolean; unknownOutcomeOf?: string },
  ): Promise<T> {
    try {
      return await this.http.request({ action, method: request.method, path: request.path, body: request.body, data: request.data, idempotent: request.idempotent });
    } catch (error) {
      throw railErrorOf(this.name, 'Paystack', error, request.unknownOutcomeOf);
    }
  }
}


/** Paystack's "no such reference" answers: a 404, or a refusal (400, or a `status: false` 200) whose message or code says not found / does not exist. */
const isNotFound = (error: PaymentRailError) =>
  error.httpStatus === 404 ||
  ((error.httpStatus === 400 || error.httpStatus === 200) && (/not[ _]found|does not exist/i.test(error.message) || /not_found/.test(error.code)));
