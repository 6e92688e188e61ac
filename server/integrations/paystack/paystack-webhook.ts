import crypto from 'node:crypto';
import { z } from 'zod';
import type { ProviderAuthorisationStatus, ProviderChargeStatus } from '../rails/payment-rail';
import { authorisationStatusOf, PaystackAuthorisation } from './paystack-rail';

/**
 * Paystack webhooks (https://paystack.com/docs/payments/webhooks/, direct-debit events in
 * https://paystack.com/docs/payments/direct-debit/): Paystack POSTs `{ event, data }` with an
 * `x-paystack-signature` header, the hex HMAC SHA-512 of the raw body keyed with the secret key.
 * It retries until it gets a 200 (live: every 3 minutes four times, then hourly for 72 hours), so
 * handlers must be idempotent; the signature carries no timestamp, so a replay cannot be told apart
 * from a retry.
 *
 * Notifications are HINTS. The domain must read the state back from Paystack (`readAuthorisation`,
 * `readCharge`) before acting on one: a webhook may be late, repeated, or out of order, and only
 * the read-back is the provider's current word.
 *
 * Events turned into notifications:
 * - `direct_debit.authorization.created` (mandate made, `active: false`) → authorisation `approved`;
 * - `direct_debit.authorization.active` (`active: true`, with authorization_code) → `active`;
 * - `charge.success` → charge `succeeded`;
 * - `charge.failed` and `direct_debit.authorization.inactive` are NOT in Paystack's documented event
 *   list; they are read if they arrive, but the domain must not wait for them: failed debits are
 *   found by polling `readCharge`.
 * Anything else → `{ kind: 'ignored', event }`.
 */

export type RailNotification =
  | {
      kind: 'authorisation';
      event: string;
      /** Paystack's authorisation reference (our `providerReference`), when the event carries it (`created` does not in the docs' sample). */
      providerReference: string | null;
      status: ProviderAuthorisationStatus;
      /** Set only for `active`. */
      authorizationCode: string | null;
      /** The customer's e-mail, to find the mandate when the reference is missing. */
      customerEmail: string | null;
    }
  | { kind: 'charge'; event: string; chargeReference: string; status: ProviderChargeStatus; failureReason: string | null }
  | { kind: 'ignored'; event: string };

/** Raised for a webhook whose signature is missing or wrong: answer 401 and do nothing. */
export class PaystackWebhookSignatureError extends Error {
  override readonly name = 'PaystackWebhookSignatureError';
  constructor(
    readonly code: 'paystack_signature_missing' | 'paystack_signature_invalid',
    message: string,
  ) {
    super(message);
  }
}

/** Raised for a correctly signed body that is not a Paystack event (answer 400; Paystack would retry a non-200 for days). */
export class PaystackWebhookPayloadError extends Error {
  override readonly name = 'PaystackWebhookPayloadError';
}

export const PAYSTACK_SIGNATURE_HEADER = 'x-paystack-signature';

/** The `x-paystack-signature` value for a raw body: what Paystack sends, and what the fake signs with. */
export const signPaystackPayload = (rawBody: string | Buffer, secretKey: string) => crypto.createHmac('sha512', secretKey).update(rawBody).digest('hex');

/** Checks the signature over the raw bytes (never a re-serialised object: key order and spacing would change the digest), in constant time. */
export const verifyPaystackSignature = (rawBody: string | Buffer, signature: string | string[] | undefined | null, secretKey: string): void => {
  const value = Array.isArray(signature) ? signature[0] : signature;
  if (!value) {
    throw new PaystackWebhookSignatureError('paystack_signature_missing', `The ${PAYSTACK_SIGNATURE_HEADER} header is missing: this request did not come from Paystack.`);
  }
  const expected = Buffer.from(signPaystackPayload(rawBody, secretKey), 'hex');
  const given = /^[0-9a-f]+$/i.test(value.trim()) ? Buffer.from(value.trim(), 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    throw new PaystackWebhookSignatureError(
      'paystack_signature_invalid',
      `The ${PAYSTACK_SIGNATURE_HEADER} header does not match the body: check that the raw body is verified (before JSON parsing) with the same secret key the integration uses.`,
    );
  }
};

const Event = z.object({ event: z.string().min(1), data: z.record(z.string(), z.unknown()).nullish() }).passthrough();
const ChargeData = z.object({ reference: z.string().min(1), gateway_response: z.string().nullish() }).passthrough();

/** Verifies the signature, then reads the event into a `RailNotification`. */
export const parsePaystackWebhook = (rawBody: string | Buffer, signature: string | string[] | undefined | null, secretKey: string): RailNotification => {
  verifyPaystackSignature(rawBody, signature, secretKey);
  let json: unknown;
  try {
    json = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'));
  } catch {
    throw new PaystackWebhookPayloadError('The webhook body is not JSON.');
  }
  const parsed = Event.safeParse(json);
  if (!parsed.success) throw new PaystackWebhookPayloadError('The webhook body is not a Paystack event ({ event, data }).');
  const { event } = parsed.data;
  const data = parsed.data.data ?? {};

  switch (event) {
    case 'direct_debit.authorization.created':
    case 'direct_debit.authorization.active':
    case 'direct_debit.authorization.inactive': {
      const authorisation = PaystackAuthorisation.safeParse(data);
      if (!authorisation.success) throw new PaystackWebhookPayloadError(`The ${event} event has no readable authorisation.`);
      const fields = authorisation.data;
      const status: ProviderAuthorisationStatus = event === 'direct_debit.authorization.inactive' ? 'cancelled' : authorisationStatusOf(fields);
      const reference = typeof data.reference === 'string' && data.reference ? data.reference : null;
      return {
        kind: 'authorisation',
        event,
        providerReference: reference,
        status,
        authorizationCode: status === 'active' ? (fields.authorization_code ?? null) : null,
        customerEmail: fields.customer?.email ?? null,
      };
    }
    case 'charge.success':
    case 'charge.failed': {
      const charge = ChargeData.safeParse(data);
      if (!charge.success) throw new PaystackWebhookPayloadError(`The ${event} event has no transaction reference.`);
      if (event === 'charge.success') return { kind: 'charge', event, chargeReference: charge.data.reference, status: 'succeeded', failureReason: null };
      return { kind: 'charge', event, chargeReference: charge.data.reference, status: 'failed', failureReason: charge.data.gateway_response || 'failed' };
    }
    default:
      return { kind: 'ignored', event };
  }
};
