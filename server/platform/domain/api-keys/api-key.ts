import type { Executor } from '../../db/database';
import type { Mode } from '../scope';
import { AppError } from '../errors';
import { newId } from '../ids';
import { randomToken, type Secrets } from '../secrets';
import { getOrganisation } from '../organisations/organisation';
import { API_SECRET_SEAL_PURPOSE } from '../financing/sdk-webhooks';
import { bumpCredentialEpoch, inTransaction } from './credential-epoch';
import { isApiScope, normaliseScopes, type ApiScope } from '../../../shared/api-key-scopes';

export const SECRET_HASH_PURPOSE = 'api-secret-key';

export interface ApiKeyRecord {
  id: string;
  organisationId: string;
  mode: Mode;
  publicKey: string;
  secretHash: string;
  revokedAt: string | null;
  /** A rolled key's end (migration 0030): refused from this instant. */
  expiresAt: string | null;
  /** What the key may call (migration 0042); null is full access. */
  scopes: ApiScope[] | null;
}

export interface IssuedKeyPair {
  id: string;
  organisationId: string;
  mode: Mode;
  publicKey: string;
  /** Shown once, here; only its keyed hash is stored. */
  secretKey: string;
  /** null: full access. */
  scopes: ApiScope[] | null;
  createdAt: string;
}

/** The stored form of a key's scopes (space-separated, normalised), or null for full access. */
export const storedScopes = (scopes: readonly ApiScope[] | null): string | null => (scopes === null ? null : normaliseScopes(scopes).join(' '));

/** A key's scopes as stored; a name this code does not know grants nothing (a narrower key, never a wider one). */
export function readStoredScopes(stored: string | null): ApiScope[] | null {
  if (stored === null) return null;
  return stored.split(' ').filter(isApiScope);
}

/** Mode is carried by the key itself: `pk_test_`/`sk_test_` reach the sandbox, `pk_live_`/`sk_live_` the live stack. */
export function modeOfKey(key: string): Mode | undefined {
  if (/^[ps]k_test_[0-9A-Za-z]{16,64}$/.test(key)) return 'test';
  if (/^[ps]k_live_[0-9A-Za-z]{16,64}$/.test(key)) return 'live';
  return undefined;
}

/** Masked public key for evidence records (`pk_test_AbCd…wxyz`). */
export function maskPublicKey(publicKey: string): string {
  return `${publicKey.slice(0, 12)}…${publicKey.slice(-4)}`;
}

export async function createApiKey(
  db: Executor,
  secrets: Secrets,
  options: { organisationId: string; mode: Mode; now: Date; /** Omitted or null: full access. */ scopes?: readonly ApiScope[] | null },
): Promise<IssuedKeyPair> {
  await getOrganisation(db, options.organisationId);
  const publicKey = `pk_${options.mode}_${randomToken(24)}`;
  const secretKey = `sk_${options.mode}_${randomToken(40)}`;
  const row = {
    id: newId(),
    organisationId: options.organisationId,
    mode: options.mode,
    publicKey,
    secretHash: secrets.hmac(SECRET_HASH_PURPOSE, secretKey),
    secretLast4: secretKey.slice(-4),
    // Sealed (not hashed) as well: patient-financing webhooks are signed with the secret key itself (spec B).
    secretSealed: secrets.encrypt(API_SECRET_SEAL_PURPOSE, secretKey),
    revokedAt: null,
    createdAt: options.now.toISOString(),
    scopes: storedScopes(options.scopes ?? null),
  };
  await db.insertInto('apiKeys').values(row).execute();
  return { id: row.id, organisationId: row.organisationId, mode: row.mode, publicKey, secretKey, scopes: readStoredScopes(row.scopes), createdAt: row.createdAt };
}

/** Revokes a key pair; every process stops accepting it within a second (the credential epoch moves with it). */
export async function revokeApiKey(db: Executor, publicKey: string, now: Date) {
  return inTransaction(db, async (trx) => {
    const key = await trx.selectFrom('apiKeys').selectAll().where('publicKey', '=', publicKey).executeTakeFirst();
    if (!key) throw new AppError('NOT_FOUND', 'no key with that public key');
    const revokedAt = key.revokedAt ?? now.toISOString();
    if (!key.revokedAt) {
      await trx.updateTable('apiKeys').set({ revokedAt }).where('id', '=', key.id).execute();
      await bumpCredentialEpoch(trx, now);
    }
    return { id: key.id, organisationId: key.organisationId, mode: key.mode, publicKey, revokedAt };
  });
}

export async function findApiKeyByPublicKey(db: Executor, publicKey: string): Promise<ApiKeyRecord | undefined> {
  const row = await db
    .selectFrom('apiKeys')
    .select(['id', 'organisationId', 'mode', 'publicKey', 'secretHash', 'revokedAt', 'expiresAt', 'scopes'])
    .where('publicKey', '=', publicKey)
    .executeTakeFirst();
  return row && { ...row, scopes: readStoredScopes(row.scopes) };
}

/** Stamps `last_used_at` (the authenticator calls it at most once a minute per key, off the request's path). */
export async function recordKeyUse(db: Executor, keyId: string, now: Date): Promise<void> {
  await db.updateTable('apiKeys').set({ lastUsedAt: now.toISOString() }).where('id', '=', keyId).execute();
}
