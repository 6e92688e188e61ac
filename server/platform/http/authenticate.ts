import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Db } from '../db/database';
import type { Mode } from '../db/schema';
import type { Clock } from '../domain/ports';
import { AppError } from '../domain/errors';
import { SECRET_HASH_PURPOSE, findApiKeyByPublicKey, modeOfKey, recordKeyUse } from '../domain/api-keys/api-key';
import { findOrganisation, type Organisation } from '../domain/organisations/organisation';
import { safeEqual, type Secrets } from '../domain/secrets';
import { resolveCheckoutToken, type CheckoutScope } from '../domain/checkout/checkout-session';
import { resolveBorrowerToken, type BorrowerScope } from '../domain/borrower-loans/borrower-session';
import { BoundedMap } from '../../shared/bounded-map';
import { CredentialEpochWatch } from '../domain/api-keys/credential-epoch';
import { reachOf, type ApiScope } from '../../shared/api-key-scopes';

/** Who is calling, taken only from the credential. Every query of a tenant's data filters on both fields. */
export interface AuthContext {
  organisation: Organisation;
  organisationId: string;
  mode: Mode;
  /** The API key's id; for a checkout session `checkout-session:<id>` (it scopes idempotency keys and rate limits). */
  apiKeyId: string;
  /** The public key; empty for a checkout session. */
  publicKey: string;
  /**
   * A restricted key's reach: every scope it may use, each `write` with its `read` (see `checkScope`). Absent for a
   * full-access key, and for a checkout-session token (its routes take no scope).
   */
  scopes?: ReadonlySet<ApiScope>;
  /** Set when the credential is a checkout-session token: it reaches only `checkoutSession` routes, for this one loan. */
  checkoutSession?: CheckoutScope;
  /**
   * The checkout session has expired: the token reaches only `expiredCheckoutSession` routes (ask for
   * a new link); every other route answers 401 `checkout_session_expired` (see `checkAccess`).
   */
  checkoutSessionExpired?: boolean;
  /** Set when the credential is a borrower-session token: it reaches only `borrowerSession` routes, for this phone's loans at this lender. */
  borrowerSession?: BorrowerScope;
}

interface CacheEntry {
  expiresAt: number;
  /** The credential epoch this process knew before reading the entry; any other epoch makes it stale. */
  epoch: number;
  /** `scopes`: the key's reach, worked out once per entry (absent: full access). */
  key?: { id: string; secretHash: string; revoked: boolean; mode: Mode; publicKey: string; expiresAtMs: number | null; scopes?: ReadonlySet<ApiScope> };
  organisation?: Organisation;
  /**
   * SHA-256 of the secret last verified against `key.secretHash` (never the secret): the same secret
   * again is accepted on a digest compare instead of the keyed hash. Dropped with the entry (TTL, epoch).
   */
  verifiedSecretDigest?: Buffer;
}

const MAX_CACHE_ENTRIES = 10_000;
/** `api_keys.last_used_at` is written at most once a minute per key per process, after the answer. */
export const LAST_USED_EVERY_MS = 60_000;

/**
 * Resolves a key pair to its organisation. Lookups are cached per public key for a short TTL
 * (misses too, so unknown keys cannot hammer the database); the secret is still verified on every
 * call, in constant time, against its keyed hash. A revocation or organisation change anywhere
 * (another process, the operator CLI) moves the credential epoch, and this process drops its
 * cache within CREDENTIAL_EPOCH_CHECK_MS of it (see credential-epoch.ts).
 */
export class Authenticator {
  private readonly cache = new BoundedMap<string, CacheEntry>(MAX_CACHE_ENTRIES);
  private readonly epochs: CredentialEpochWatch;
  private cacheEpoch = 0;
  /** Per key id: when this process last wrote its `last_used_at` (platform clock, ms). */
  private readonly lastUsedWritten = new BoundedMap<string, number>(MAX_CACHE_ENTRIES);

  constructor(
    private readonly db: Db,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
    private readonly ttlMs: number,
    epochCheckMs?: number,
  ) {
    this.epochs = new CredentialEpochWatch(db, epochCheckMs);
  }

  /** Forget cached keys (after a revocation or a settings change in this process). */
  invalidate(): void {
    this.cache.clear();
  }

  async authenticate(publicKey: string, secretKey: string): Promise<AuthContext> {
    const publicMode = modeOfKey(publicKey);
    const secretMode = modeOfKey(secretKey);
    if (!publicMode || !publicKey.startsWith('pk_') || !secretKey.startsWith('sk_') || publicMode !== secretMode) {
      throw new AppError('UNAUTHENTICATED', 'The key pair is malformed: expected pk_test_/sk_test_ or pk_live_/sk_live_ keys of one mode.');
    }
    const entry = await this.lookup(publicKey);
    if (!entry.key || !entry.organisation || !this.verifySecret(entry, entry.key.secretHash, secretKey)) {
      throw new AppError('UNAUTHENTICATED', 'Unknown key pair.');
    }
    if (entry.key.revoked) throw new AppError('UNAUTHENTICATED', 'This key pair has been revoked; use a current key.');
    // A rolled key's overlap has ended (checked against the clock on every call, cached or not).
    const now = this.clock.now();
    if (entry.key.expiresAtMs !== null && entry.key.expiresAtMs <= now.getTime()) {
      throw new AppError('UNAUTHENTICATED', 'This key pair was rolled and its overlap has ended; use the new key.');
    }
    this.noteUse(entry.key.id, now);
    return {
      organisation: entry.organisation,
      organisationId: entry.organisation.id,
      mode: entry.key.mode,
      apiKeyId: entry.key.id,
      publicKey,
      ...(entry.key.scopes ? { scopes: entry.key.scopes } : {}),
    };
  }

  /**
   * Whether `secretKey` is the key's secret. The keyed hash is computed once per cached entry; a partner
   * sends the same secret on every call, so later calls compare a plain SHA-256 digest of it (a fifth of
   * the cost, in constant time) with the digest of the secret that passed. Another secret takes the keyed path.
   */
  private verifySecret(entry: CacheEntry, secretHash: string, secretKey: string): boolean {
    const digest = crypto.hash('sha256', secretKey, 'buffer');
    if (entry.verifiedSecretDigest && crypto.timingSafeEqual(entry.verifiedSecretDigest, digest)) return true;
    if (!safeEqual(this.secrets.hmac(SECRET_HASH_PURPOSE, secretKey), secretHash)) return false;
    entry.verifiedSecretDigest = digest;
    return true;
  }

  /**
   * Records that the key was used: at most once a minute per key in this process, without waiting (the request's
   * answer never depends on it, and a failed write is only a stale "last used").
   */
  private noteUse(keyId: string, now: Date): void {
    const at = now.getTime();
    const written = this.lastUsedWritten.get(keyId);
    if (written !== undefined && at - written < LAST_USED_EVERY_MS && at >= written) return;
    this.lastUsedWritten.set(keyId, at);
    void recordKeyUse(this.db, keyId, now).catch(() => undefined);
  }

  /**
   * Resolves a checkout-session token (never cached: revocation and expiry apply at once). The
   * organisation's switches still apply: a disabled organisation's sessions stop working.
   */
  async authenticateCheckoutSession(token: string): Promise<AuthContext> {
    const now = this.clock.now();
    const session = await resolveCheckoutToken(this.db, this.secrets, token, now, { allowExpired: true });
    const organisation = await findOrganisation(this.db, session.organisationId);
    if (!organisation) throw new AppError('UNAUTHENTICATED', 'Unknown checkout session.');
    // A patient-financing application's session: its organisation (a clinic) need not be a Loan Tenant. Only such an
    // organisation's sessions need the lookup; a lender's are let through by its permission.
    const financing =
      !organisation.loanTenant &&
      (await this.db.selectFrom('financingApplications').select('id').where('id', '=', session.loanId).executeTakeFirst()) !== undefined;
    return {
      organisation,
      organisationId: organisation.id,
      mode: session.mode,
      apiKeyId: `checkout-session:${session.id}`,
      publicKey: '',
      checkoutSession: { sessionId: session.id, loanId: session.loanId, borrowerId: session.borrowerId, organisationId: session.organisationId, mode: session.mode, financing },
      ...(session.expiresAt <= now.toISOString() ? { checkoutSessionExpired: true } : {}),
    };
  }

  /** Resolves a borrower-session token (never cached: revocation and expiry apply at once); the organisation's switches still apply. */
  async authenticateBorrowerSession(token: string): Promise<AuthContext> {
    const session = await resolveBorrowerToken(this.db, this.secrets, token, this.clock.now());
    const organisation = await findOrganisation(this.db, session.organisationId);
    if (!organisation) throw new AppError('UNAUTHENTICATED', 'Unknown borrower session.');
    return {
      organisation,
      organisationId: organisation.id,
      mode: session.mode,
      apiKeyId: `borrower-session:${session.id}`,
      publicKey: '',
      borrowerSession: { sessionId: session.id, organisationId: session.organisationId, mode: session.mode, phone: session.phone },
    };
  }

  private async lookup(publicKey: string): Promise<CacheEntry> {
    // Without a cache there is nothing to invalidate: every call reads the key.
    const epoch = this.ttlMs > 0 ? await this.epochs.current() : 0;
    if (epoch !== this.cacheEpoch) {
      this.cache.clear();
      this.cacheEpoch = epoch;
    }
    const now = this.clock.now().getTime();
    const cached = this.cache.get(publicKey);
    // An entry read under an older epoch (a lookup that raced an invalidation) is stale too.
    if (cached && cached.expiresAt > now && cached.epoch === epoch) return cached;
    const key = await findApiKeyByPublicKey(this.db, publicKey);
    const organisation = key ? await findOrganisation(this.db, key.organisationId) : undefined;
    const entry: CacheEntry = {
      expiresAt: now + this.ttlMs,
      epoch,
      key: key && {
        id: key.id,
        secretHash: key.secretHash,
        revoked: key.revokedAt !== null,
        mode: key.mode,
        publicKey: key.publicKey,
        expiresAtMs: key.expiresAt === null ? null : Date.parse(key.expiresAt),
        ...(key.scopes ? { scopes: reachOf(key.scopes) } : {}),
      },
      organisation,
    };
    if (this.ttlMs > 0) {
      this.cache.set(publicKey, entry);
    }
    return entry;
  }
}

const AUTHORIZATION = /^ApiKey\s+(\S+?):(\S+)$/i;
/** `Authorization: CheckoutSession <token>`: the borrower-session credential (see `Access`). */
const CHECKOUT_SESSION = /^CheckoutSession\s+(\S+)$/i;
/** `Authorization: BorrowerSession <token>`: the borrower's own credential after checkout (see `Access`). */
const BORROWER_SESSION = /^BorrowerSession\s+(\S+)$/i;

/** Reads the key pair from `X-API-Public-Key` + `X-API-Secret-Key` or `Authorization: ApiKey pk:sk`. */
export function readCredential(req: Request): { publicKey: string; secretKey: string } | undefined {
  const publicKey = req.get('x-api-public-key');
  const secretKey = req.get('x-api-secret-key');
  if (publicKey && secretKey) return { publicKey: publicKey.trim(), secretKey: secretKey.trim() };
  const match = AUTHORIZATION.exec(req.get('authorization') ?? '');
  if (match) return { publicKey: match[1]!, secretKey: match[2]! };
  return undefined;
}

export function authenticateMiddleware(authenticator: Authenticator) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const session = CHECKOUT_SESSION.exec(req.get('authorization') ?? '');
    if (session) {
      res.locals.auth = await authenticator.authenticateCheckoutSession(session[1]!);
      return next();
    }
    const borrower = BORROWER_SESSION.exec(req.get('authorization') ?? '');
    if (borrower) {
      res.locals.auth = await authenticator.authenticateBorrowerSession(borrower[1]!);
      return next();
    }
    const credential = readCredential(req);
    if (!credential) {
      throw new AppError(
        'UNAUTHENTICATED',
        'No API key: send X-API-Public-Key and X-API-Secret-Key, or Authorization: ApiKey <public>:<secret> (checkout routes: Authorization: CheckoutSession <token>).',
      );
    }
    res.locals.auth = await authenticator.authenticate(credential.publicKey, credential.secretKey);
    next();
  };
}

export function authOf(res: Response): AuthContext {
  const auth = res.locals.auth as AuthContext | undefined;
  if (!auth) throw new Error('route reached without authentication');
  return auth;
}
