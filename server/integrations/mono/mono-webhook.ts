import crypto from 'node:crypto';
import { z } from 'zod';

/**
 * Mono webhooks (https://docs.mono.co/docs/webhooks, Direct Debit events in
 * https://docs.mono.co/docs/payments/direct-debit/webhook-events): Mono POSTs `{ event, data }` with a
 * `mono-webhook-secret` header equal to the secret the dashboard generated for the webhook URL (a shared
 * secret, not a signature over the body: compared in constant time). Mono retries anything but a 200.
 *
 * Notifications are HINTS: the domain reads the mandate or the debit back from Mono before acting
 * (`onRailNotification`), so a late, repeated or forged-but-lucky notification changes nothing by itself.
 *
 * Events read: `events.mandates.created|approved|ready|rejected|cancelled|paused|reinstated` (the mandate, by our
 * `reference`) and `events.mandates.debit.successful|failed` (the debit, by our reference and the mandate id).
 * Anything else → `{ kind: 'ignored' }`.
 */

export const MONO_WEBHOOK_SECRET_HEADER = 'mono-webhook-secret';

export type MonoNotification =
  | { kind: 'mandate'; event: string; reference: string }
  | { kind: 'debit'; event: string; mandateId: string | null; reference: string }
  | { kind: 'ignored'; event: string };

/** A webhook without the header, or with another secret: answer 401 and read nothing. */
export class MonoWebhookSecretError extends Error {
  override readonly name = 'MonoWebhookSecretError';
  constructor(
    readonly code: 'mono_webhook_secret_missing' | 'mono_webhook_secret_invalid',
    message: string,
  ) {
    super(message);
  }
}

/** An authenticated body that is not a Mono event (answer 400). */
export class MonoWebhookPayloadError extends Error {
  override readonly name = 'MonoWebhookPayloadError';
}

export const verifyMonoWebhookSecret = (given: string | string[] | undefined | null, secret: string): void => {
  const value = Array.isArray(given) ? given[0] : given;
  if (!value) throw new MonoWebhookSecretError('mono_webhook_secret_missing', `The ${MONO_WEBHOOK_SECRET_HEADER} header is missing: this request did not come from Mono.`);
  // Compare digests, so neither the length nor the content of the secret leaks through timing.
  const digest = (text: string) => crypto.createHash('sha256').update(text).digest();
  if (!crypto.timingSafeEqual(digest(value), digest(secret))) {
    throw new MonoWebhookSecretError('mono_webhook_secret_invalid', `The ${MONO_WEBHOOK_SECRET_HEADER} header does not match this platform's Mono webhook secret.`);
  }
};

const Event = z.object({ event: z.string().min(1), data: z.record(z.string(), z.unknown()).nullish() }).passthrough();
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** Checks the secret, then reads the event into a `MonoNotification`. */
export const parseMonoWebhook = (rawBody: string | Buffer, secretHeader: string | string[] | undefined | null, secret: string): MonoNotification => {
  verifyMonoWebhookSecret(secretHeader, secret);
  let json: unknown;
  try {
    json = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'));
  } catch {
    throw new MonoWebhookPayloadError('The webhook body is not JSON.');
  }
  const parsed = Event.safeParse(json);
  if (!parsed.success) throw new MonoWebhookPayloadError('The webhook body is not a Mono event ({ event, data }).');
  const { event } = parsed.data;
  const data = parsed.data.data ?? {};
  if (/^events\.mandates\.debit\./.test(event)) {
    const reference = text(data.reference_number) ?? text(data.reference);
    if (!reference) throw new MonoWebhookPayloadError(`The ${event} event has no debit reference.`);
    return { kind: 'debit', event, mandateId: text(data.mandate) ?? text(data.mandate_id), reference };
  }
  if (/^events\.mandates\.[a-z_]+$/.test(event)) {
    const reference = text(data.reference);
    if (!reference) throw new MonoWebhookPayloadError(`The ${event} event has no mandate reference.`);
    return { kind: 'mandate', event, reference };
  }
  return { kind: 'ignored', event };
};
