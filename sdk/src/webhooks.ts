/**
 * Verifying the platform's webhooks, with WebCrypto (Node 20+, Deno, Bun, workers, browsers). Always verify over the
 * raw request body exactly as received: re-serialised JSON does not match the signature.
 *
 * - Lending (`/v1` webhook endpoints): `X-Service-Timestamp` is Unix seconds, `X-Service-Signature` the lowercase hex
 *   HMAC-SHA256 of `timestamp + "." + rawBody` keyed with the endpoint's signing secret (`whsec_…`). While a rotated
 *   secret is still valid the header carries several signatures separated by commas; any one verifies.
 * - Patient financing (`/api/v1/sdk` webhook endpoints): `X-Service-Signature` is the lowercase hex HMAC-SHA256 of the
 *   raw body keyed with your API secret key (`sk_…`); the body's `timestamp` (ISO, signed with it) dates the delivery.
 *
 * Both refuse a delivery dated more than `toleranceSeconds` (default 300) from now: a replay, or a wrong clock.
 * Deliveries are at least once: de-duplicate on the envelope's `id` (lending) or `X-Service-Event-Id` (financing).
 */

/** Why a delivery did not verify. */
export type WebhookVerificationReason =
  /** A header the scheme needs is absent. */
  | 'missing_header'
  /** A header is present but not in the scheme's form (timestamp not Unix seconds, signature not 64 hex characters). */
  | 'malformed_header'
  /** The delivery is dated more than the tolerance from now (a replay, or the receiver's clock is off). */
  | 'timestamp_out_of_tolerance'
  /** No signature matches: another secret, or the body was altered (or re-serialised) on the way. */
  | 'signature_mismatch'
  /** The signature matched but the body is not the expected JSON envelope. */
  | 'malformed_body';

/** Raised when a webhook delivery does not verify; `reason` says why, the message says how to fix it. Answer such a delivery with 400 or 401. */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

/** Request headers as Fetch (`Headers`) or Node (`req.headers`) give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;
/** The raw body: a string, or bytes (a Node `Buffer` is a `Uint8Array`). */
export type RawBody = string | Uint8Array | ArrayBuffer;

export interface LendingWebhookEnvelope<T = Record<string, unknown>> {
  id: string;
  event: string;
  timestamp: string;
  data: T;
  mode: 'test' | 'live';
  createdAt: string;
}

export interface FinancingWebhookEnvelope<T = Record<string, unknown>> {
  event: string;
  timestamp: string;
  data: T;
}

export interface VerifyOptions {
  /** The largest accepted distance between the delivery's date and now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** Now (for tests). */
  now?: Date;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;
const encoder = new TextEncoder();
const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).has === 'function') return (headers as Headers).get(name) ?? undefined;
  const entry = Object.entries(headers as Record<string, string | string[] | undefined>).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function bytesOf(body: RawBody): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  return new Uint8Array(body);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

async function hmacSha256(secret: string, message: Uint8Array): Promise<Uint8Array> {
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, message as Uint8Array<ArrayBuffer>));
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** Compares two strings of equal length in time independent of where they differ. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i += 1) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function checkTolerance(timestampSeconds: number, options: VerifyOptions): void {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - timestampSeconds) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_out_of_tolerance',
      `The delivery is dated more than ${tolerance} s from now: check this server's clock, or this is a replay.`,
    );
  }
}

function parseBody<T>(body: RawBody): T {
  try {
    const parsed: unknown = JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(bytesOf(body)));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as T;
  } catch {
    throw new WebhookVerificationError('malformed_body', 'The signed body is not a JSON object: pass the raw request body, not a parsed one.');
  }
}

/**
 * Verifies a lending webhook delivery (`X-Service-Signature` over `timestamp.rawBody` with the endpoint's signing
 * secret) and returns its parsed envelope. Throws `WebhookVerificationError`.
 */
export async function verifyLendingWebhook<T = Record<string, unknown>>(
  rawBody: RawBody,
  headers: WebhookHeaders,
  signingSecret: string,
  options: VerifyOptions = {},
): Promise<LendingWebhookEnvelope<T>> {
  const timestampText = header(headers, 'x-service-timestamp');
  const signatures = header(headers, 'x-service-signature');
  if (!timestampText) throw new WebhookVerificationError('missing_header', 'Missing X-Service-Timestamp header: is this a delivery of a /v1 webhook endpoint?');
  if (!signatures) throw new WebhookVerificationError('missing_header', 'Missing X-Service-Signature header.');
  if (!/^\d{1,12}$/.test(timestampText.trim())) {
    throw new WebhookVerificationError('malformed_header', 'Malformed X-Service-Timestamp header: expected Unix seconds.');
  }
  const timestamp = Number(timestampText.trim());
  checkTolerance(timestamp, options);
  const candidates = signatures.split(',').map((s) => s.trim()).filter((s) => HEX_SIGNATURE.test(s));
  if (candidates.length === 0) {
    throw new WebhookVerificationError('malformed_header', 'Malformed X-Service-Signature header: expected lowercase hex HMAC-SHA256 values separated by commas.');
  }
  const expected = toHex(await hmacSha256(signingSecret, concat(encoder.encode(`${timestamp}.`), bytesOf(rawBody))));
  // Compare with every candidate (no early exit), so the time taken does not tell which one matched.
  const matched = candidates.map((candidate) => constantTimeEqual(candidate, expected)).includes(true);
  if (!matched) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      "No signature matches: verify over the raw request body with the endpoint's current signing secret (whsec_…).",
    );
  }
  return parseBody<LendingWebhookEnvelope<T>>(rawBody);
}

/**
 * Verifies a patient-financing webhook delivery (`X-Service-Signature` over the raw body keyed with your API secret
 * key) and returns its parsed envelope; the body's signed `timestamp` must be within the tolerance. Throws
 * `WebhookVerificationError`.
 */
export async function verifyFinancingWebhook<T = Record<string, unknown>>(
  rawBody: RawBody,
  headers: WebhookHeaders,
  secretKey: string,
  options: VerifyOptions = {},
): Promise<FinancingWebhookEnvelope<T>> {
  const signature = header(headers, 'x-service-signature')?.trim();
  if (!signature) throw new WebhookVerificationError('missing_header', 'Missing X-Service-Signature header.');
  if (!HEX_SIGNATURE.test(signature)) {
    throw new WebhookVerificationError('malformed_header', 'Malformed X-Service-Signature header: expected 64 lowercase hex characters.');
  }
  const expected = toHex(await hmacSha256(secretKey, bytesOf(rawBody)));
  if (!constantTimeEqual(signature, expected)) {
    throw new WebhookVerificationError(
      'signature_mismatch',
      'Signature does not match: verify over the raw request body with the API secret key (sk_…) of the mode the event belongs to.',
    );
  }
  const envelope = parseBody<FinancingWebhookEnvelope<T>>(rawBody);
  const signedAt = typeof envelope.timestamp === 'string' ? Date.parse(envelope.timestamp) : Number.NaN;
  if (Number.isNaN(signedAt)) throw new WebhookVerificationError('malformed_body', 'The body has no ISO `timestamp`: is this a delivery of an /api/v1/sdk webhook endpoint?');
  checkTolerance(Math.floor(signedAt / 1000), options);
  return envelope;
}

/**
 * Headers of a lending delivery signed as the platform signs it (for your tests): one signature per secret, the
 * current one first.
 */
export async function signLendingWebhook(rawBody: RawBody, secrets: string | readonly string[], options: { timestamp?: number } = {}): Promise<Record<string, string>> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  const message = concat(encoder.encode(`${timestamp}.`), bytesOf(rawBody));
  const signatures = await Promise.all(list.map(async (secret) => toHex(await hmacSha256(secret, message))));
  return { 'X-Service-Timestamp': String(timestamp), 'X-Service-Signature': signatures.join(',') };
}

/** Headers of a patient-financing delivery signed as the platform signs it (for your tests). */
export async function signFinancingWebhook(rawBody: RawBody, secretKey: string, event?: string): Promise<Record<string, string>> {
  return { ...(event ? { 'X-Service-Event': event } : {}), 'X-Service-Signature': toHex(await hmacSha256(secretKey, bytesOf(rawBody))) };
}
