import type { Db, Executor } from '../../db/database';
import type { Mode } from '../scope';
import { AppError } from '../errors';
import type { Secrets } from '../secrets';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from '../dashboard/audit';
import { createApiKey, readStoredScopes, type IssuedKeyPair } from './api-key';
import { bumpCredentialEpoch } from './credential-epoch';
import { scopesBeyondRole, normaliseScopes, type ApiScope } from '../../../shared/api-key-scopes';
import type { DashboardRole } from '../../../shared/dashboard-permissions';

/**
 * The dashboard's API-key use cases: list, generate, roll with an overlap, revoke. Every change writes its
 * audit row in the same transaction; every change that narrows a key's reach moves the credential epoch there too, so
 * each running process forgets its cached copy within CREDENTIAL_EPOCH_CHECK_MS. A rolled key's end is a scheduled
 * `expires_at` that the authenticator compares with its clock on every call: nothing has to run when it passes.
 */

/** The overlaps the dashboard offers when rolling a key: the old key stops at once, after an hour or after a day. */
export const ROLL_OVERLAPS = { now: 0, '1h': 3600_000, '24h': 24 * 3600_000 } as const;
export type RollOverlap = keyof typeof ROLL_OVERLAPS;

export type KeyStatus = 'active' | 'expiring' | 'expired' | 'revoked';

export interface KeySummary {
  id: string;
  publicKey: string;
  mode: Mode;
  /** The secret's last four characters (the secret itself is never stored or shown again). */
  secretLast4: string;
  status: KeyStatus;
  createdAt: string;
  lastUsedAt: string | null;
  /** When a rolled key stops working (past for `expired`). */
  expiresAt: string | null;
  revokedAt: string | null;
  /** The public key of the key that replaced it, when rolled. */
  rolledTo: string | null;
  /** What the key may call; null is full access. */
  scopes: ApiScope[] | null;
}

interface KeyRow {
  id: string;
  publicKey: string;
  mode: Mode;
  secretLast4: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  rolledTo: string | null;
  scopes: string | null;
}

export function keyStatus(key: { revokedAt: string | null; expiresAt: string | null }, now: Date): KeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt) return key.expiresAt <= now.toISOString() ? 'expired' : 'expiring';
  return 'active';
}

export interface KeyActor {
  userId: string;
  organisationId: string;
  mode: Mode;
  /** Bounds the scopes the actor may put on a key (`scopesBeyondRole`). */
  role: DashboardRole;
  origin: RequestOrigin;
}

/** The organisation's keys of one mode, newest first, keyset-paged on `(created_at, id)`. */
export async function listApiKeys(
  db: Db,
  options: { organisationId: string; mode: Mode; now: Date; limit: number; after?: { at: string; id: string } },
): Promise<KeySummary[]> {
  let select = db
    .selectFrom('apiKeys as k')
    .leftJoin('apiKeys as n', 'n.id', 'k.rolledTo')
    .select(['k.id', 'k.publicKey', 'k.mode', 'k.secretLast4', 'k.createdAt', 'k.lastUsedAt', 'k.expiresAt', 'k.revokedAt', 'n.publicKey as rolledTo', 'k.scopes'])
    .where('k.organisationId', '=', options.organisationId)
    .where('k.mode', '=', options.mode);
  const after = options.after;
  if (after) select = select.where((eb) => eb.or([eb('k.createdAt', '<', after.at), eb.and([eb('k.createdAt', '=', after.at), eb('k.id', '<', after.id)])]));
  const rows = await select.orderBy('k.createdAt', 'desc').orderBy('k.id', 'desc').limit(options.limit).execute();
  return rows.map((row) => summary(row as KeyRow, options.now));
}

function summary(row: KeyRow, now: Date): KeySummary {
  return {
    id: row.id,
    publicKey: row.publicKey,
    mode: row.mode,
    secretLast4: row.secretLast4,
    status: keyStatus(row, now),
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    rolledTo: row.rolledTo,
    scopes: readStoredScopes(row.scopes),
  };
}

/** The key of this organisation and mode, or 404 (another organisation's key, or the other mode's, does not exist here). */
async function ownedKey(db: Executor, actor: Pick<KeyActor, 'organisationId' | 'mode'>, keyId: string) {
  const key = await db
    .selectFrom('apiKeys')
    .select(['id', 'publicKey', 'mode', 'secretLast4', 'createdAt', 'lastUsedAt', 'expiresAt', 'revokedAt', 'rolledTo', 'scopes'])
    .where('id', '=', keyId)
    .where('organisationId', '=', actor.organisationId)
    .where('mode', '=', actor.mode)
    .executeTakeFirst();
  if (!key) throw new AppError('NOT_FOUND', 'No such API key in this organisation and mode.');
  return key as KeyRow;
}

/**
 * Refuses scopes the actor's role may not grant (403 `scope_not_permitted`, naming them), before anything is written:
 * a key never reaches further than its maker may act on the dashboard. `null` is full access, which is every scope.
 */
function assertMayGrant(actor: KeyActor, scopes: readonly ApiScope[] | null): void {
  const beyond = scopesBeyondRole(actor.role, scopes);
  if (beyond.length === 0) return;
  const what = scopes === null ? 'a full-access key (it carries every scope, including ' : 'a key with ';
  throw new AppError('scope_not_permitted', `Your role (${actor.role}) may not create ${what}${beyond.join(', ')}${scopes === null ? ')' : ''}; choose only the scopes your role may grant.`, undefined, {
    role: actor.role,
    scopes: beyond,
  });
}

/** How a key's scopes read in the audit log. */
const auditScopes = (scopes: readonly ApiScope[] | null) => `scopes:${scopes === null ? 'full_access' : scopes.join(',')}`;

/**
 * A new key pair of the actor's organisation and mode; the secret is in the answer and nowhere else. `scopes` omitted
 * or null makes a full-access key (owners and admins); a list makes a restricted key, within what the role may grant.
 */
export async function generateApiKey(
  services: { db: Db; secrets: Secrets; now: Date },
  actor: KeyActor,
  options: { scopes?: readonly ApiScope[] | null } = {},
): Promise<IssuedKeyPair> {
  const scopes = options.scopes ? normaliseScopes(options.scopes) : null;
  assertMayGrant(actor, scopes);
  return inUnitOfWork(services.db, async (tx) => {
    const issued = await createApiKey(tx, services.secrets, { organisationId: actor.organisationId, mode: actor.mode, now: services.now, scopes });
    await writeAudit(tx, {
      userId: actor.userId,
      organisationId: actor.organisationId,
      action: 'key_created',
      target: `api_key:${issued.publicKey} ${auditScopes(issued.scopes)}`,
      origin: actor.origin,
      now: services.now,
    });
    return issued;
  });
}

/**
 * Rolls an active key: a new pair now, with the old one's scopes, and the old one keeps working until `now + overlap`
 * (at once for `now`). Only an active key rolls (409 `key_not_active` for a revoked, expiring or expired one: roll its
 * replacement). Rolling hands the actor the new secret, so only a member who could have made the key may roll it
 * (403 `scope_not_permitted`: a developer cannot roll an owner's full-access key into their own hands).
 * The conditional update makes two racing rolls produce one replacement.
 */
export async function rollApiKey(
  services: { db: Db; secrets: Secrets; now: Date },
  actor: KeyActor,
  options: { keyId: string; overlap: RollOverlap },
): Promise<{ issued: IssuedKeyPair; previous: KeySummary }> {
  const now = services.now;
  return inUnitOfWork(services.db, async (tx) => {
    const old = await ownedKey(tx, actor, options.keyId);
    if (keyStatus(old, now) !== 'active') throw notActive(old, now);
    const scopes = readStoredScopes(old.scopes);
    assertMayGrant(actor, scopes);
    const issued = await createApiKey(tx, services.secrets, { organisationId: actor.organisationId, mode: actor.mode, now, scopes });
    const expiresAt = new Date(now.getTime() + ROLL_OVERLAPS[options.overlap]).toISOString();
    const updated = await tx
      .updateTable('apiKeys')
      .set({ expiresAt, rolledTo: issued.id })
      .where('id', '=', old.id)
      .where('revokedAt', 'is', null)
      .where('expiresAt', 'is', null)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw notActive(old, now);
    // The old key's reach narrows (now or later): every process re-reads it, and learns its end.
    await bumpCredentialEpoch(tx, now);
    await writeAudit(tx, {
      userId: actor.userId,
      organisationId: actor.organisationId,
      action: 'key_rolled',
      target: `api_key:${old.publicKey}→${issued.publicKey} overlap:${options.overlap} ${auditScopes(scopes)}`,
      origin: actor.origin,
      now,
    });
    return { issued, previous: summary({ ...old, expiresAt, rolledTo: issued.publicKey }, now) };
  });
}

/** Revokes a key of the actor's organisation and mode (idempotent): every process refuses it within a second. */
export async function revokeOwnedApiKey(services: { db: Db; now: Date }, actor: KeyActor, keyId: string): Promise<KeySummary> {
  const now = services.now;
  return inUnitOfWork(services.db, async (tx) => {
    const key = await ownedKey(tx, actor, keyId);
    if (key.revokedAt) return summary(key, now);
    const revokedAt = now.toISOString();
    await tx.updateTable('apiKeys').set({ revokedAt }).where('id', '=', key.id).where('revokedAt', 'is', null).execute();
    await bumpCredentialEpoch(tx, now);
    await writeAudit(tx, { userId: actor.userId, organisationId: actor.organisationId, action: 'key_revoked', target: `api_key:${key.publicKey}`, origin: actor.origin, now });
    return summary({ ...key, revokedAt }, now);
  });
}

function notActive(key: KeyRow, now: Date): AppError {
  return new AppError('key_not_active', `This key is ${keyStatus(key, now)}: only an active key can be rolled.`, undefined, { status: keyStatus(key, now) });
}
