import type { Executor } from '../../db/database';
import type { WebhookEndpointsTable } from '../../db/schema';
import { publicSdkData } from '../financing/financing-events';
import { SDK_EVENT_HEADER, SDK_SIGNATURE_HEADER, sdkSigningKey, signSdkBody } from '../financing/sdk-webhooks';
import type { Clock, SendWebhook, WebhookOutcome } from '../ports';
import type { Secrets } from '../secrets';
import type { ClaimedDelivery } from './claim';
import { signingSecrets } from './endpoint';
import { signatureHeaders } from './signature';

/**
 * Step 3 of delivery: one claimed delivery becomes one signed POST. The request is the same for
 * every endpoint but for its envelope, which the endpoint's API chooses: the lending envelope or
 * the patient-financing (SDK) one.
 */

/** Headers every delivery carries besides its envelope's. */
export const DELIVERY_HEADERS = {
  eventId: 'X-Service-Event-Id',
  deliveryId: 'X-Service-Delivery-Id',
  attempt: 'X-Service-Delivery-Attempt',
} as const;

/** What an envelope builds and signs with. */
export interface EnvelopeContext {
  db: Executor;
  secrets: Secrets;
  /** The signing instant (the body's `timestamp`). */
  now: Date;
}

/**
 * One webhook format: the body the receiver parses, the headers that prove the request is ours
 * (signed over the raw body), and which answers count as delivered. An envelope that cannot sign
 * throws: the attempt is recorded as failed with the reason and retried on the schedule.
 */
export interface Envelope {
  body(claim: ClaimedDelivery, context: EnvelopeContext): string;
  sign(claim: ClaimedDelivery, endpoint: WebhookEndpointsTable, body: string, context: EnvelopeContext): Promise<Record<string, string>>;
  succeeded(status: number): boolean;
  /** The body as the attempt log keeps it (default: as sent); drops what is a credential. */
  logBody?(body: string): string;
}

const is2xx = (status: number) => status >= 200 && status < 300;

/**
 * The lending API's envelope: body `{id, event, timestamp, data, mode, createdAt}`; `X-Service-Timestamp`
 * and `X-Service-Signature` over `timestamp.rawBody` with the endpoint's signing secret(s) (`signature.ts`).
 */
export const lendingEnvelope: Envelope = {
  body: ({ delivery, payload, eventCreatedAt }, { now }) =>
    JSON.stringify({ id: delivery.eventId, event: delivery.event, timestamp: now.toISOString(), data: payload, mode: delivery.mode, createdAt: eventCreatedAt }),
  sign: async (_claim, endpoint, body, { secrets, now }) => signatureHeaders(signingSecrets(secrets, endpoint, now), Math.floor(now.getTime() / 1000), body),
  succeeded: is2xx,
};

/**
 * The patient-financing envelope (spec B): body `{event, timestamp, data}`, `X-Service-Event`, and `X-Service-Signature`
 * = hex HMAC-SHA256 of the raw body keyed with the organisation's newest API secret key of the event's mode
 * (`financing/sdk-webhooks.ts`). `data` is the payload with its sealed application URL opened.
 */
export const sdkEnvelope: Envelope = {
  body: ({ delivery, payload }, { secrets, now }) => JSON.stringify({ event: delivery.event, timestamp: now.toISOString(), data: publicSdkData(payload, secrets) }),
  async sign({ delivery }, _endpoint, body, { db, secrets }) {
    const secretKey = await sdkSigningKey(db, secrets, { organisationId: delivery.organisationId, mode: delivery.mode });
    if (!secretKey) throw new Error('the organisation has no API key pair that can sign (create a new key pair)');
    return { [SDK_EVENT_HEADER]: delivery.event, [SDK_SIGNATURE_HEADER]: signSdkBody(secretKey, body) };
  },
  succeeded: is2xx,
  // The application URL carries the patient's session token: the attempt log keeps the body without it.
  logBody(body) {
    const parsed = JSON.parse(body) as { data?: Record<string, unknown> };
    if (typeof parsed.data?.applicationUrl !== 'string') return body;
    return JSON.stringify({ ...parsed, data: { ...parsed.data, applicationUrl: REDACTED } });
  },
};

/** What the attempt log shows in place of a credential that was in the body. */
export const REDACTED = '[redacted: a credential, not kept in the attempt log]';

/** The envelope of an endpoint's API (`webhook_endpoints.api`). */
export function envelopeFor(api: string): Envelope {
  return api === 'sdk' ? sdkEnvelope : lendingEnvelope;
}

/** What one attempt came to. */
export interface AttemptOutcome extends WebhookOutcome {
  /** The envelope's success rule held: the delivery succeeded. */
  succeeded: boolean;
  /** Not sent at all (the endpoint is gone or disabled): the delivery ends without retries. */
  notSent?: boolean;
}

/** The request of an attempt as the attempt log keeps it (`webhook_delivery_attempts`). */
export interface SentRequest {
  url: string;
  /** The body as sent, bounded to `LOGGED_BODY_CHARS` (`logBody` applied). */
  body: string;
  /** The headers that identify and sign it (not the transport ones). */
  headers: Record<string, string>;
}

/** The longest request body the attempt log keeps (characters); longer ones are cut and marked. */
export const LOGGED_BODY_CHARS = 64 * 1024;

export interface AttemptResult {
  claim: ClaimedDelivery;
  outcome: AttemptOutcome;
  /** Absent when nothing was sent. */
  request?: SentRequest;
  /** From just before sending to the answer (or failure). */
  durationMs?: number;
}

export interface DeliverOptions {
  db: Executor;
  secrets: Secrets;
  clock: Clock;
  send: SendWebhook;
  /** `WEBHOOK_ALLOW_LOOPBACK`. */
  allowLoopback: boolean;
  /** `WEBHOOK_TIMEOUT_MS`. */
  timeoutMs: number;
}

/** Builds the claimed delivery's signed request and sends it; an endpoint that is gone or disabled is not sent to. Never throws. */
export async function deliver(claim: ClaimedDelivery, options: DeliverOptions): Promise<AttemptResult> {
  const { endpoint, delivery } = claim;
  if (!endpoint) return { claim, outcome: { succeeded: false, notSent: true, error: 'not sent: the endpoint was deleted' } };
  if (endpoint.status !== 'active') return { claim, outcome: { succeeded: false, notSent: true, error: 'not sent: the endpoint is disabled' } };
  const envelope = envelopeFor(endpoint.api);
  const context: EnvelopeContext = { db: options.db, secrets: options.secrets, now: options.clock.now() };
  try {
    const body = envelope.body(claim, context);
    const identity = {
      [DELIVERY_HEADERS.eventId]: delivery.eventId,
      [DELIVERY_HEADERS.deliveryId]: delivery.id,
      [DELIVERY_HEADERS.attempt]: String(claim.attempt),
      ...(await envelope.sign(claim, endpoint, body, context)),
    };
    const logged = envelope.logBody ? envelope.logBody(body) : body;
    const request: SentRequest = {
      url: endpoint.url,
      body: logged.length > LOGGED_BODY_CHARS ? `${logged.slice(0, LOGGED_BODY_CHARS)}… [cut at ${LOGGED_BODY_CHARS} characters]` : logged,
      headers: identity,
    };
    const started = performance.now();
    const answer = await options.send({
      url: endpoint.url,
      body,
      allowLoopback: options.allowLoopback,
      timeoutMs: options.timeoutMs,
      headers: { 'content-type': 'application/json', 'user-agent': 'LendingPlatform-Webhooks/1.0', ...identity },
    });
    const durationMs = Math.round(performance.now() - started);
    return { claim, outcome: { ...answer, succeeded: answer.status !== undefined && envelope.succeeded(answer.status) }, request, durationMs };
  } catch (error) {
    return { claim, outcome: { succeeded: false, error: `not sent: ${(error as Error).message}` } };
  }
}
