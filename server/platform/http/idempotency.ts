import crypto from 'node:crypto';
import type { Db, Executor } from '../db/database';
import { isUniqueViolation } from '../db/database';
import { AppError } from '../domain/errors';
import { newId } from '../domain/ids';

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

function fingerprint(body: unknown): string {
  return crypto.createHash('sha256').update(JSON.stringify(body ?? null)).digest('hex');
}

export async function claimIdempotencyKey(db: Db, request: IdempotencyRequest): Promise<ClaimResult> {
  const requestHash = fingerprint(request.body);
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
  if (existing.requestHash !== requestHash) {
    throw new AppError(
      'IDEMPOTENCY_KEY_CONFLICT',
      'This Idempotency-Key was used with a different request body; use a new key for a different request.',
    );
  }
  if (existing.state === 'in_flight') {
    throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry shortly.');
  }
  return { kind: 'replay', status: existing.responseStatus!, body: existing.responseBody! };
}

/** Stores the response; call it inside the transaction that holds the request's writes. */
export async function completeIdempotencyKey(db: Executor, id: string, status: number, body: string): Promise<void> {
  await db
    .updateTable('idempotencyKeys')
    .set({ state: 'completed', responseStatus: status, responseBody: body })
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
