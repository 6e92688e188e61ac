import crypto from 'node:crypto';
import type { Executor } from '../../db/database';
import type { Mode } from '../scope';
import type { Secrets } from '../secrets';
import type { Scope } from '../scope';

/**
 * Webhooks of the patient-financing API (`/api/v1/sdk`), as the spec defines them: body `{event, timestamp, data}`
 * (ISO timestamp), `X-Service-Event: <event>`, `X-Service-Signature: <lowercase hex HMAC-SHA256 of the raw body keyed
 * with the organisation's API secret key>`. The service keeps the secret key sealed under its master key for this
 * (`api_keys.secret_sealed`); the newest unrevoked key pair of the event's mode signs, so rotating the key pair
 * (create a new pair, revoke the old) rotates the signing key.
 *
 * Receiver side (Express; `express.raw` keeps the exact bytes the signature covers):
 *
 * ```ts
 * import { verifySdkWebhook } from './sdk-webhooks';
 * app.post('/hooks/financing', express.raw({ type: 'application/json' }), (req, res) => {
 *   let envelope;
 *   try {
 *     envelope = verifySdkWebhook(req.body, req.headers, process.env.API_SECRET_KEY!);
 *   } catch {
 *     return res.status(401).end();            // not from the service: ignore it
 *   }
 *   // At least once: key the handler on data.sdkReference + event and make it repeatable.
 *   res.status(200).end();
 * });
 * ```
 *
 * The signature has no timestamp of its own (the spec's scheme); check `timestamp` in the body if replays matter,
 * and de-duplicate on `X-Service-Event-Id`.
 */
export const SDK_EVENT_HEADER = 'X-Service-Event';
export const SDK_SIGNATURE_HEADER = 'X-Service-Signature';
/** Sealing purpose of `api_keys.secret_sealed`. */
export const API_SECRET_SEAL_PURPOSE = 'api-secret-key-signing';

export function signSdkBody(secretKey: string, rawBody: string | Buffer): string {
  return crypto.createHmac('sha256', secretKey).update(rawBody).digest('hex');
}

export class SdkWebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SdkWebhookSignatureError';
  }
}

function header(headers: Record<string, string | string[] | undefined> | Headers, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase());
  const value = entry?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies a patient-financing delivery over its raw body in constant time and returns the parsed envelope.
 * Throws `SdkWebhookSignatureError` (with the fix in its message) when the signature is missing or wrong.
 */
export function verifySdkWebhook<T = { event: string; timestamp: string; data: Record<string, unknown> }>(
  rawBody: string | Buffer,
  headers: Record<string, string | string[] | undefined> | Headers,
  secretKey: string,
): T {
  const signature = header(headers, SDK_SIGNATURE_HEADER);
  if (!signature || !/^[0-9a-f]{64}$/.test(signature.trim())) {
    throw new SdkWebhookSignatureError('Missing or malformed X-Service-Signature header: expected 64 lowercase hex characters.');
  }
  const expected = Buffer.from(signSdkBody(secretKey, rawBody), 'hex');
  if (!crypto.timingSafeEqual(Buffer.from(signature.trim(), 'hex'), expected)) {
    throw new SdkWebhookSignatureError('Signature does not match: verify over the raw request body with your current API secret key (sk_…).');
  }
  return JSON.parse(Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : rawBody) as T;
}

/** The secret key that signs the organisation's patient-financing webhooks of one mode: the newest unrevoked sealed one. */
export async function sdkSigningKey(db: Executor, secrets: Pick<Secrets, 'decrypt'>, scope: Scope): Promise<string | undefined> {
  const row = await db
    .selectFrom('apiKeys')
    .select('secretSealed')
    .where('organisationId', '=', scope.organisationId)
    .where('mode', '=', scope.mode)
    .where('revokedAt', 'is', null)
    .where('secretSealed', 'is not', null)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.secretSealed ? secrets.decrypt(API_SECRET_SEAL_PURPOSE, row.secretSealed) : undefined;
}
