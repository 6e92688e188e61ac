import crypto from 'node:crypto';
import type { Executor } from '../../db/database';
import { fromJson } from '../../db/database';
import type { PasskeyChallengesTable, UserPasskeysTable } from '../../db/schema';
import { AppError } from '../errors';
import { getSessionRow, requireOtpVerified, type CheckoutScope } from '../checkout/checkout-session';

/** One-time WebAuthn challenges live this long (the browser's own prompt times out after 60 s). */
export const PASSKEY_RULES = { challengeLifetimeMs: 5 * 60_000 } as const;

/** A passkey as the checkout server sees it: the public parts it needs to verify an assertion as relying party. */
export interface Passkey {
  id: string;
  credentialId: string;
  rpId: string;
  /** COSE public key, base64url. Public by nature: it only verifies. */
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  createdAt: string;
  lastUsedAt: string | null;
}

export const toPasskey = (row: UserPasskeysTable): Passkey => ({
  id: row.id,
  credentialId: row.credentialId,
  rpId: row.rpId,
  publicKey: row.publicKey,
  counter: row.counter,
  transports: fromJson<string[]>(row.transports) ?? [],
  deviceType: row.deviceType,
  backedUp: Boolean(row.backedUp),
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
});

/** The platform user a verified checkout session acts for (the OTP claimed the borrower for that user). */
export async function sessionUser(db: Executor, scope: CheckoutScope): Promise<{ userId: string; firstName: string; lastName: string; phone: string }> {
  requireOtpVerified(await getSessionRow(db, scope));
  const borrower = await db.selectFrom('borrowers').select(['userId', 'firstName', 'lastName', 'phone']).where('id', '=', scope.borrowerId).executeTakeFirstOrThrow();
  if (!borrower.userId) throw new AppError('checkout_otp_required', 'Verify the borrower\'s phone first: the passkey belongs to the verified phone\'s user.');
  return { userId: borrower.userId, firstName: borrower.firstName, lastName: borrower.lastName, phone: borrower.phone };
}

export async function listUserPasskeys(db: Executor, userId: string, rpId?: string): Promise<UserPasskeysTable[]> {
  let query = db.selectFrom('userPasskeys').selectAll().where('userId', '=', userId);
  if (rpId) query = query.where('rpId', '=', rpId);
  return query.orderBy('createdAt').orderBy('id').execute();
}

/** 32 random bytes, base64url: the one-time part of every challenge. */
export const newNonce = () => crypto.randomBytes(32).toString('base64url');

/**
 * Uses a challenge once: one conditional UPDATE (`consumed_at IS NULL AND expires_at > now`), so
 * two concurrent requests with the same nonce cannot both pass, in any number of processes.
 */
export async function consumeChallenge(db: Executor, row: PasskeyChallengesTable, now: Date): Promise<void> {
  const at = now.toISOString();
  const used = await db
    .updateTable('passkeyChallenges')
    .set({ consumedAt: at })
    .where('id', '=', row.id)
    .where('consumedAt', 'is', null)
    .where('expiresAt', '>', at)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) throw challengeUsed();
}

const challengeUsed = () => new AppError('passkey_challenge_used', 'This passkey challenge has been used already; ask for a new one.');

/** Refuses a challenge that is used or expired (checked again, atomically, when it is consumed). */
export function requireLiveChallenge(row: PasskeyChallengesTable, now: Date): void {
  if (row.consumedAt) throw challengeUsed();
  if (row.expiresAt <= now.toISOString()) throw new AppError('passkey_challenge_expired', 'This passkey challenge has expired; ask for a new one.');
}

/** The RP's view of a failed WebAuthn verification: one code, the library's reason in the message. */
export function verificationFailed(reason: unknown): AppError {
  const why = reason instanceof Error ? reason.message : String(reason);
  return new AppError('passkey_verification_failed', `The passkey response did not verify: ${why.slice(0, 200)}`);
}

/** How a letter names a credential: the first 8 bytes of SHA-256 over its raw id, as hex in groups of four. */
export function credentialFingerprint(credentialId: string): string {
  const hex = crypto.createHash('sha256').update(Buffer.from(credentialId, 'base64url')).digest('hex').slice(0, 16).toUpperCase();
  return hex.match(/.{4}/g)!.join(' ');
}
