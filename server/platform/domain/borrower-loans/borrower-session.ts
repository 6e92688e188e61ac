import type { Executor } from '../../db/database';
import type { BorrowerSessionsTable, LoansTable } from '../../db/schema';
import { AppError } from '../errors';
import { findOwned } from '../find-owned';
import { newId } from '../ids';
import { randomToken, type Secrets } from '../secrets';
import type { Scope } from '../scope';
import { loanPhone } from '../checkout/otp';
import { LENT_STATES } from './borrower-phone';

/** Keyed-hash purpose of borrower-session tokens (only the hash is stored). */
const TOKEN_HASH_PURPOSE = 'borrower-session-token';

/** `bs_test_` / `bs_live_` + 40 base62 characters (~238 bits). The prefix names the mode, like API keys and checkout sessions. */
export const BORROWER_TOKEN_PATTERN = /^bs_(test|live)_[0-9A-Za-z]{40}$/;

/** How long a borrower session lives: the partner may ask for less or more at minting, within these bounds. */
export const BORROWER_SESSION_RULES = { defaultTtlMinutes: 60, minTtlMinutes: 5, maxTtlMinutes: 24 * 60 } as const;

/** What a borrower-session credential reaches: the loans of the borrowers with this phone, at one lender, in one mode. */
export interface BorrowerScope extends Scope {
  sessionId: string;
  phone: string;
}

/** The public BorrowerSession resource (the token is shown once, at minting or sign-in). */
export interface BorrowerSession {
  id: string;
  /** The loan the partner minted it for; null for a sign-in (the session reaches every loan of the phone at this lender). */
  loanId: string | null;
  source: BorrowerSessionsTable['source'];
  expiresAt: string;
  revokedAt: string | null;
  createdAt: string;
}

export interface MintedBorrowerSession extends BorrowerSession {
  /** The credential (`Authorization: BorrowerSession <token>`). Shown once. */
  token: string;
}

export const toBorrowerSession = (row: BorrowerSessionsTable): BorrowerSession => ({
  id: row.id,
  loanId: row.loanId,
  source: row.source,
  expiresAt: row.expiresAt,
  revokedAt: row.revokedAt,
  createdAt: row.createdAt,
});

export const hashBorrowerToken = (secrets: Pick<Secrets, 'hmac'>, token: string) => secrets.hmac(TOKEN_HASH_PURPOSE, token);


/** Stores a new session; the raw token exists only in the return value. */
export async function insertBorrowerSession(
  db: Executor,
  options: { secrets: Pick<Secrets, 'hmac'>; scope: Scope; phone: string; loanId: string | null; source: BorrowerSessionsTable['source']; ttlMinutes: number; now: Date },
): Promise<MintedBorrowerSession> {
  const token = `bs_${options.scope.mode}_${randomToken(40)}`;
  const at = options.now.toISOString();
  const expiresAt = new Date(options.now.getTime() + options.ttlMinutes * 60_000).toISOString();
  const row: BorrowerSessionsTable = {
    id: newId(),
    organisationId: options.scope.organisationId,
    mode: options.scope.mode,
    phone: options.phone,
    loanId: options.loanId,
    tokenHash: hashBorrowerToken(options.secrets, token),
    source: options.source,
    expiresAt,
    maxExpiresAt: expiresAt,
    revokedAt: null,
    createdAt: at,
    updatedAt: at,
  };
  await db.insertInto('borrowerSessions').values(row).execute();
  return { ...toBorrowerSession(row), token };
}

/**
 * The partner's backend mints a session for a lent loan's borrower: it reaches that borrower's loans with this lender
 * (every loan of the phone on record), never another lender's. A loan not yet lent: 409 `invalid_loan_state` (the
 * checkout session is the credential until then).
 */
export async function mintBorrowerSession(
  db: Executor,
  options: { secrets: Pick<Secrets, 'hmac'>; loan: LoansTable; ttlMinutes?: number; now: Date },
): Promise<MintedBorrowerSession> {
  const { loan } = options;
  if (!LENT_STATES.includes(loan.status)) {
    throw new AppError('invalid_loan_state', `The loan is ${loan.status}: a borrower session is for a loan that has been lent; until then the checkout session is the borrower's credential.`);
  }
  const phone = await loanPhone(db, loan.id);
  if (!phone) throw new AppError('borrower_phone_invalid', 'The phone number on record for this loan is not a valid mobile number; correct the borrower\'s phone first.');
  return insertBorrowerSession(db, {
    secrets: options.secrets,
    scope: { organisationId: loan.organisationId, mode: loan.mode },
    phone,
    loanId: loan.id,
    source: 'partner',
    ttlMinutes: options.ttlMinutes ?? BORROWER_SESSION_RULES.defaultTtlMinutes,
    now: options.now,
  });
}

/** The live session a token names: unknown → 401 `UNAUTHENTICATED`, revoked or expired → 401 `borrower_session_ended`. */
export async function resolveBorrowerToken(db: Executor, secrets: Pick<Secrets, 'hmac'>, token: string, now: Date): Promise<BorrowerSessionsTable> {
  const row = BORROWER_TOKEN_PATTERN.test(token)
    ? await db.selectFrom('borrowerSessions').selectAll().where('tokenHash', '=', hashBorrowerToken(secrets, token)).executeTakeFirst()
    : undefined;
  if (!row) throw new AppError('UNAUTHENTICATED', 'Unknown borrower session: sign in again with your phone number.');
  if (row.revokedAt || row.expiresAt <= now.toISOString()) {
    throw new AppError('borrower_session_ended', 'This session has ended: sign in again with your phone number.');
  }
  return row;
}

/** The lender (or the borrower, signing out) withdraws a session. Revoking a revoked session changes nothing. */
export async function revokeBorrowerSession(db: Executor, scope: Scope, sessionId: string, now: Date): Promise<BorrowerSession> {
  const row = await findOwned(db, 'borrowerSessions', scope, sessionId, 'borrower session');
  if (row.revokedAt) return toBorrowerSession(row);
  const at = now.toISOString();
  await db.updateTable('borrowerSessions').set({ revokedAt: at, updatedAt: at }).where('id', '=', row.id).where('revokedAt', 'is', null).execute();
  return toBorrowerSession({ ...row, revokedAt: at });
}
