import crypto from 'node:crypto';

/**
 * Webhook signatures, as receivers verify them (and as the dispatcher will produce them):
 * `X-Service-Signature` is the lowercase hex HMAC-SHA256 of `timestamp + "." + rawBody` keyed with
 * the endpoint's signing secret; `X-Service-Timestamp` is Unix seconds. While a rotated secret is
 * still valid, the header carries both signatures separated by a comma, and either one verifies.
 */
export const SIGNATURE_HEADER = 'x-service-signature';
export const TIMESTAMP_HEADER = 'x-service-timestamp';
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Why a delivery was refused; the message says how to fix it. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

export function signPayload(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** Headers for a delivery signed with every given secret (the current one first). */
export function signatureHeaders(secrets: readonly string[], timestamp: number, rawBody: string | Buffer): Record<string, string> {
  return {
    'X-Service-Timestamp': String(timestamp),
    'X-Service-Signature': secrets.map((secret) => signPayload(secret, timestamp, rawBody)).join(','),
  };
}

function header(headers: Record<string, string | string[] | undefined> | Headers, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies a delivery over the raw body (re-serialised JSON would not match), in constant time,
 * refusing timestamps more than `toleranceSeconds` away from now. Returns the parsed envelope.
 */
export function verifyWebhook<T = unknown>(
  rawBody: string | Buffer,
  headers: Record<string, string | string[] | undefined> | Headers,
  secret: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): T {
  const timestampText = header(headers, TIMESTAMP_HEADER);
  const signatures = header(headers, SIGNATURE_HEADER);
  if (!timestampText || !/^\d{1,12}$/.test(timestampText)) {
    throw new WebhookSignatureError('Missing or malformed X-Service-Timestamp header: expected Unix seconds.');
  }
  if (!signatures) throw new WebhookSignatureError('Missing X-Service-Signature header.');
  const timestamp = Number(timestampText);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookSignatureError(`Timestamp is more than ${tolerance} s from now: check the receiver's clock, or this is a replay.`);
  }
  const expected = Buffer.from(signPayload(secret, timestamp, rawBody), 'hex');
  const matches = signatures
    .split(',')
    .map((s) => s.trim())
    .filter((s) => /^[0-9a-f]{64}$/.test(s))
    .some((s) => crypto.timingSafeEqual(Buffer.from(s, 'hex'), expected));
  if (!matches) {
    throw new WebhookSignatureError('No signature matches: verify over the raw request body with the endpoint\'s current signing secret.');
  }
  return JSON.parse(Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : rawBody) as T;
}
