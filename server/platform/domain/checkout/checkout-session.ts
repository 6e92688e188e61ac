import type { Executor } from '../../db/database';
import type { CheckoutSessionsTable, LoansTable, Mode } from '../../db/schema';
import { AppError } from '../errors';
import { newId } from '../ids';
import { applicationTokenOf, sealApplicationToken, type Scope } from '../loans/loan';
import { randomToken, type Secrets } from '../secrets';
import { findOwned } from '../find-owned';
import type { Locale } from '../../../shared/locales';
import { lenderContact } from './lender-contact';
import { writeBehind } from '../../db/precompiled';

/** Keyed-hash purpose of session tokens (only the hash is stored). */
const TOKEN_HASH_PURPOSE = 'checkout-session-token';

/** `cs_test_` / `cs_live_` + 40 base62 characters (~238 bits). The prefix names the mode, like API keys. */
export const CHECKOUT_TOKEN_PATTERN = /^cs_(test|live)_[0-9A-Za-z]{40}$/;

/** A loan can get a checkout session from creation until it is settled one way or the other. */
const CLOSED_LOAN_STATES = ['rejected', 'terms_declined', 'cancelled', 'completed', 'defaulted'];

/** Whether a loan in this status can still get a checkout session. */
export const takesCheckoutSessions = (status: string) => !CLOSED_LOAN_STATES.includes(status);

/** What a checkout-session credential gives access to: one loan of one borrower, in one organisation and mode. */
export interface CheckoutScope {
  sessionId: string;
  loanId: string;
  borrowerId: string;
  organisationId: string;
  mode: Mode;
  /** Set for an organisation without the Loan Tenant permission whose loan is a patient-financing application (the service is the lender): what lets the session through. */
  financing?: boolean;
}

/** The public CheckoutSession resource (the token is shown once, at minting). */
export interface CheckoutSession {
  id: string;
  loanId: string;
  source: 'offer_issued' | 'partner' | 'renewed';
  expiresAt: string;
  maxExpiresAt: string;
  revokedAt: string | null;
  createdAt: string;
}

export interface MintedCheckoutSession extends CheckoutSession {
  /** The session token: the borrower's credential for this loan's checkout. Shown once. */
  token: string;
  /** The hosted checkout page that takes the token (it moves it into a cookie at once). */
  url: string;
}

export interface SessionLifetime {
  ttlMinutes: number;
  maxLifetimeMinutes: number;
}

export const sessionLifetime = (config: { CHECKOUT_SESSION_TTL_MINUTES: number; CHECKOUT_SESSION_MAX_LIFETIME_MINUTES: number }): SessionLifetime => ({
  ttlMinutes: config.CHECKOUT_SESSION_TTL_MINUTES,
  maxLifetimeMinutes: config.CHECKOUT_SESSION_MAX_LIFETIME_MINUTES,
});

export const toCheckoutSession = (row: CheckoutSessionsTable): CheckoutSession => ({
  id: row.id,
  loanId: row.loanId,
  source: row.source,
  expiresAt: row.expiresAt,
  maxExpiresAt: row.maxExpiresAt,
  revokedAt: row.revokedAt,
  createdAt: row.createdAt,
});

/** Whole seconds from `now` until `expiresAt` (0 once past): what a page with a wrong clock can still count on. */
export const secondsUntil = (expiresAt: string, now: Date): number => Math.max(0, Math.floor((new Date(expiresAt).getTime() - now.getTime()) / 1000));

/** A session as a refresh answers it: with its remaining lifetime, by which the checkout schedules the next refresh. */
export type RefreshedCheckoutSession = CheckoutSession & { expiresInSeconds: number };

/** Where the hosted checkout page lives for a platform origin; the token is appended. */
export const checkoutUrlPrefix = (baseUrl: string) => `${baseUrl}/checkout/c/`;

export const hashCheckoutToken = (secrets: Pick<Secrets, 'hmac'>, token: string) => secrets.hmac(TOKEN_HASH_PURPOSE, token);

const insertSession = writeBehind((db, row: CheckoutSessionsTable) => db.insertInto('checkoutSessions').values(row));

/** Mints a session for a loan; the raw token exists only in the return value. */
export async function mintCheckoutSession(
  db: Executor,
  options: {
    secrets: Pick<Secrets, 'hmac'>;
    lifetime: SessionLifetime;
    baseUrl: string;
    loan: LoansTable;
    source: CheckoutSession['source'];
    now: Date;
    /** The partner's language for this borrower (`locale` of `POST /v1/loans/{id}/checkout-sessions`). */
    locale?: Locale | null;
  },
): Promise<MintedCheckoutSession> {
  const { loan, now } = options;
  if (CLOSED_LOAN_STATES.includes(loan.status)) {
    throw new AppError('invalid_loan_state', `The loan is ${loan.status}; there is nothing for the borrower to check out.`);
  }
  const token = `cs_${loan.mode}_${randomToken(40)}`;
  const maxExpiresAt = new Date(now.getTime() + options.lifetime.maxLifetimeMinutes * 60_000).toISOString();
  const at = now.toISOString();
  const row: CheckoutSessionsTable = {
    id: newId(),
    organisationId: loan.organisationId,
    mode: loan.mode,
    loanId: loan.id,
    borrowerId: loan.borrowerId,
    tokenHash: hashCheckoutToken(options.secrets, token),
    source: options.source,
    expiresAt: new Date(now.getTime() + options.lifetime.ttlMinutes * 60_000).toISOString(),
    maxExpiresAt,
    revokedAt: null,
    otpVerifiedAt: null,
    otpLastSentAt: null,
    bankCode: null,
    bankName: null,
    accountNumber: null,
    accountName: null,
    bankCapturedAt: null,
    accountNameMatch: null,
    accountNameMatchScore: null,
    accountNameOnRecord: null,
    accountNameConfirmedAt: null,
    partnerLocale: options.locale ?? null,
    locale: null,
    createdAt: at,
    updatedAt: at,
  };
  await insertSession(db, row);
  return { ...toCheckoutSession(row), token, url: `${checkoutUrlPrefix(options.baseUrl)}${token}` };
}

/**
 * The session behind `applicationUrl`, minted when an offer issues. Returns the loan columns that
 * rebuild the URL on read: the prefix, and the token sealed under the master key.
 */
export async function mintApplicationSession(
  db: Executor,
  options: { secrets: Pick<Secrets, 'hmac' | 'encrypt'>; lifetime: SessionLifetime; baseUrl: string; loan: LoansTable; now: Date },
): Promise<Pick<LoansTable, 'applicationUrl' | 'applicationTokenSealed'>> {
  const minted = await mintCheckoutSession(db, { ...options, source: 'offer_issued' });
  return { applicationUrl: checkoutUrlPrefix(options.baseUrl), applicationTokenSealed: sealApplicationToken(options.secrets, minted.token) };
}

/**
 * The live session a token names. Unknown → 401 UNAUTHENTICATED; revoked or expired → their own 401 codes.
 * With `allowExpired` an expired (never a revoked or unknown) session is returned too: only the
 * routes an ended session may call (`expiredCheckoutSession` access) get one.
 */
export async function resolveCheckoutToken(
  db: Executor,
  secrets: Pick<Secrets, 'hmac'>,
  token: string,
  now: Date,
  options: { allowExpired?: boolean } = {},
): Promise<CheckoutSessionsTable> {
  const row = CHECKOUT_TOKEN_PATTERN.test(token)
    ? await db.selectFrom('checkoutSessions').selectAll().where('tokenHash', '=', hashCheckoutToken(secrets, token)).executeTakeFirst()
    : undefined;
  if (!row) throw new AppError('UNAUTHENTICATED', 'Unknown checkout session: the link is wrong or incomplete. Ask the lender for a new one.');
  if (row.revokedAt) {
    // "Ask the lender for a new one" names the lender and how to reach it (its public face, as the page shows before the code).
    const lender = await lenderContact(db, { organisationId: row.organisationId, mode: row.mode });
    throw new AppError('checkout_session_revoked', 'This checkout link has been withdrawn by the lender. Ask them for a new one.', undefined, { lender });
  }
  if (!options.allowExpired && row.expiresAt <= now.toISOString()) throw new AppError('checkout_session_expired', 'This checkout link has expired. Ask the lender for a new one.');
  return row;
}

/** When the link behind a loan's `applicationUrl` stops working: its session's expiry and absolute cap (null without one). */
export async function applicationSessionExpiry(
  db: Executor,
  secrets: Pick<Secrets, 'hmac' | 'decrypt'>,
  loan: Pick<LoansTable, 'id' | 'applicationTokenSealed'>,
): Promise<{ expiresAt: string; maxExpiresAt: string; revokedAt: string | null } | null> {
  const token = applicationTokenOf(loan, secrets);
  if (token === null) return null;
  const row = await db
    .selectFrom('checkoutSessions')
    .select(['expiresAt', 'maxExpiresAt', 'revokedAt'])
    .where('tokenHash', '=', hashCheckoutToken(secrets, token))
    .where('loanId', '=', loan.id)
    .executeTakeFirst();
  return row ?? null;
}

export async function getSessionRow(db: Executor, scope: Pick<CheckoutScope, 'sessionId'>): Promise<CheckoutSessionsTable> {
  return db.selectFrom('checkoutSessions').selectAll().where('id', '=', scope.sessionId).executeTakeFirstOrThrow();
}

/**
 * Extends a live session by its lifetime from now, never past its absolute cap (set at minting).
 * One conditional UPDATE: a session revoked or expired meanwhile is not revived.
 */
export async function refreshCheckoutSession(db: Executor, scope: CheckoutScope, lifetime: SessionLifetime, now: Date): Promise<RefreshedCheckoutSession> {
  const row = await getSessionRow(db, scope);
  const wanted = new Date(now.getTime() + lifetime.ttlMinutes * 60_000).toISOString();
  const capped = wanted < row.maxExpiresAt ? wanted : row.maxExpiresAt;
  // Never shortens: a session minted for longer than the TTL (a patient-financing application link) keeps its expiry.
  const expiresAt = capped > row.expiresAt ? capped : row.expiresAt;
  const at = now.toISOString();
  const moved = await db
    .updateTable('checkoutSessions')
    .set({ expiresAt, updatedAt: at })
    .where('id', '=', row.id)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', at)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw new AppError('checkout_session_expired', 'This checkout link has expired. Ask the lender for a new one.');
  return { ...toCheckoutSession({ ...row, expiresAt, updatedAt: at }), expiresInSeconds: secondsUntil(expiresAt, now) };
}

/** The lender withdraws a session. Revoking a revoked session changes nothing. */
export async function revokeCheckoutSession(db: Executor, scope: Scope, sessionId: string, now: Date): Promise<CheckoutSession> {
  const row = await findOwned(db, 'checkoutSessions', scope, sessionId, 'checkout session');
  if (row.revokedAt) return toCheckoutSession(row);
  const at = now.toISOString();
  await db.updateTable('checkoutSessions').set({ revokedAt: at, updatedAt: at }).where('id', '=', row.id).where('revokedAt', 'is', null).execute();
  return toCheckoutSession({ ...row, revokedAt: at });
}

export function requireOtpVerified(session: CheckoutSessionsTable): void {
  if (!session.otpVerifiedAt) {
    throw new AppError('checkout_otp_required', 'Verify the borrower\'s phone first: POST /v1/checkout/otp/send, then /v1/checkout/otp/verify.');
  }
}
