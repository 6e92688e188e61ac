import crypto from 'node:crypto';
import type { Db, Executor } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { AppError } from '../domain/errors';
import { newId } from '../domain/ids';
import type { Secrets } from '../domain/secrets';

/**
 * Idempotency-Key handling, in the way Stripe documents it:
 * - a key is scoped to the credential (API key) that sent it;
 * - the first request claims the key in its own short transaction, runs, and stores its response
 *   in the same transaction as its writes and events, so two racing requests execute once;
 * - a replay returns the stored response with `Idempotent-Replayed: true`;
 * - a replay while the first is running answers 409 IDEMPOTENCY_KEY_IN_USE;
 * - reuse with another method, path or body answers 409 IDEMPOTENCY_KEY_CONFLICT;
 * - 5xx responses are not stored (the claim is released), so a retry executes again;
 * - a claim left in flight past the lock timeout (the process died) may be taken over.
 *
 * At rest (security finding "the idempotency store keeps responses in clear"): a stored response
 * can hold a webhook signing secret (`whsec_…`), a checkout-session token (`cs_…`) or personal data,
 * so it is sealed under the master key (AES-256-GCM, `Secrets.encrypt`, purpose
 * `idempotency-response`) and a replay opens it: the same bytes come back. The request fingerprint
 * is a keyed HMAC (a plain hash of a body such as `{"bvn":"…"}` could be reversed by trying every
 * BVN). Rows from before sealing (`responseBody` without the `sealed:` prefix, an unkeyed
 * `requestHash`) still replay; `sealLegacyIdempotencyResponses` seals their responses at start-up,
 * and their unkeyed fingerprints are gone once they expire (IDEMPOTENCY_TTL_HOURS).
 */
export interface IdempotencyRequest {
  apiKeyId: string;
  key: string;
  method: string;
  path: string;
  body: unknown;
  now: Date;
  ttlHours: number;
  lockTimeoutSeconds: number;
}

export type ClaimResult =
  | { kind: 'claimed'; id: string }
  | { kind: 'replay'; status: number; body: string };

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

const RESPONSE_PURPOSE = 'idempotency-response';
const FINGERPRINT_PURPOSE = 'idempotency-request';
const SEALED = 'sealed:';
const KEYED = 'hmac:';

function fingerprint(secrets: Secrets, body: unknown): string {
  return `${KEYED}${secrets.hmac(FINGERPRINT_PURPOSE, JSON.stringify(body ?? null))}`;
}

/** Whether a stored fingerprint is this body's: keyed, or (a row from before keying) a plain SHA-256. */
function sameRequest(secrets: Secrets, stored: string, body: unknown): boolean {
  if (stored.startsWith(KEYED)) return stored === fingerprint(secrets, body);
  return stored === crypto.createHash('sha256').update(JSON.stringify(body ?? null)).digest('hex');
}

function sealResponse(secrets: Secrets, body: string): string {
  return `${SEALED}${secrets.encrypt(RESPONSE_PURPOSE, body)}`;
}

function openResponse(secrets: Secrets, stored: string): string {
  return stored.startsWith(SEALED) ? secrets.decrypt(RESPONSE_PURPOSE, stored.slice(SEALED.length)) : stored;
}

export async function claimIdempotencyKey(db: Db, secrets: Secrets, request: IdempotencyRequest): Promise<ClaimResult> {
  const requestHash = fingerprint(secrets, request.body);
  const at = request.now.toISOString();
  const expiresAt = new Date(request.now.getTime() + request.ttlHours * 3600_000).toISOString();
  const id = newId();
  try {
    await db
      .insertInto('idempotencyKeys')
      .values({
        id,
        apiKeyId: request.apiKeyId,
        idempotencyKey: request.key,
        method: request.method,
        path: request.path,
        requestHash,
        state: 'in_flight',
        responseStatus: null,
        responseBody: null,
        lockedAt: at,
        createdAt: at,
        expiresAt,
      })
      .execute();
    return { kind: 'claimed', id };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }

  const existing = await db
    .selectFrom('idempotencyKeys')
    .selectAll()
    .where('apiKeyId', '=', request.apiKeyId)
    .where('idempotencyKey', '=', request.key)
    .executeTakeFirstOrThrow();

  const expired = existing.expiresAt <= at;
  const abandoned =
    existing.state === 'in_flight' &&
    new Date(existing.lockedAt).getTime() + request.lockTimeoutSeconds * 1000 <= request.now.getTime();
  if (expired || abandoned) {
    // Take the key over only if nobody else did meanwhile (compare-and-set on lockedAt).
    const taken = await db
      .updateTable('idempotencyKeys')
      .set({
        method: request.method,
        path: request.path,
        requestHash,
        state: 'in_flight',
        responseStatus: null,
        responseBody: null,
        lockedAt: at,
        createdAt: expired ? at : existing.createdAt,
        expiresAt: expired ? expiresAt : existing.expiresAt,
      })
      .where('id', '=', existing.id)
      .where('lockedAt', '=', existing.lockedAt)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return { kind: 'claimed', id: existing.id };
    throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry shortly.');
  }
  if (existing.method !== request.method || existing.path !== request.path) {
    throw new AppError(
      'IDEMPOTENCY_KEY_CONFLICT',
      `This Idempotency-Key was used for ${existing.method} ${existing.path}; use a new key for a different request.`,
    );
  }
  if (!sameRequest(secrets, existing.requestHash, request.body)) {
    throw new AppError(
      'IDEMPOTENCY_KEY_CONFLICT',
      'This Idempotency-Key was used with a different request body; use a new key for a different request.',
    );
  }
  if (existing.state === 'in_flight') {
    throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry shortly.');
  }
  return { kind: 'replay', status: existing.responseStatus!, body: openResponse(secrets, existing.responseBody!) };
}

/** Stores the response, sealed; call it inside the transaction that holds the request's writes. */
export async function completeIdempotencyKey(db: Executor, secrets: Secrets, id: string, status: number, body: string): Promise<void> {
  await db
    .updateTable('idempotencyKeys')
    .set({ state: 'completed', responseStatus: status, responseBody: sealResponse(secrets, body) })
    .where('id', '=', id)
    .execute();
}

export async function releaseIdempotencyKey(db: Db, id: string): Promise<void> {
  await db.deleteFrom('idempotencyKeys').where('id', '=', id).where('state', '=', 'in_flight').execute();
}

export async function purgeExpiredIdempotencyKeys(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom('idempotencyKeys').where('expiresAt', '<', now.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Seals responses stored in clear before sealing existed (run at start-up; migrations have no
 * master key). Each row is rewritten only if it still holds the clear text it was read with, so
 * processes starting together do not fight. Returns how many were sealed.
 */
export async function sealLegacyIdempotencyResponses(db: Db, secrets: Secrets): Promise<number> {
  let sealed = 0;
  for (;;) {
    const rows = await db
      .selectFrom('idempotencyKeys')
      .select(['id', 'responseBody'])
      .where('responseBody', 'is not', null)
      .where('responseBody', 'not like', `${SEALED}%`)
      .limit(500)
      .execute();
    for (const row of rows) {
      const result = await db
        .updateTable('idempotencyKeys')
        .set({ responseBody: sealResponse(secrets, row.responseBody!) })
        .where('id', '=', row.id)
        .where('responseBody', '=', row.responseBody)
        .executeTakeFirst();
      sealed += Number(result.numUpdatedRows);
    }
    if (rows.length < 500) return sealed;
  }
}
