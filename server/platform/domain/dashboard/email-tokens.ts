import type { Executor } from '../../db/database';
import type { DashboardEmailTokenPurpose } from '../../db/schema';
import { AppError } from '../errors';
import { hashToken, newSecretToken } from './secret-token';

/** How long a link works: verification a day, password reset an hour (a reset link is worth more to an attacker). */
export const EMAIL_TOKEN_LIFETIME_MS: Record<DashboardEmailTokenPurpose, number> = {
  verify_email: 24 * 3600_000,
  reset_password: 3600_000,
};

/** Issues a one-time link token; only its hash is stored. */
export async function issueEmailToken(db: Executor, userId: string, purpose: DashboardEmailTokenPurpose, now: Date, lifetimeMs = EMAIL_TOKEN_LIFETIME_MS[purpose]): Promise<string> {
  const token = newSecretToken();
  await db
    .insertInto('dashboardEmailTokens')
    .values({ id: hashToken(token), userId, purpose, expiresAt: new Date(now.getTime() + lifetimeMs).toISOString(), usedAt: null, createdAt: now.toISOString() })
    .execute();
  return token;
}

export const emailTokenInvalid = () => new AppError('email_token_invalid', 'This link is unknown, already used or expired. Ask for a new one.');

/** Ends every unused link of this purpose of the user (a newer link was sent, or one was used). */
export async function endEmailTokens(db: Executor, userId: string, purpose: DashboardEmailTokenPurpose, now: Date): Promise<void> {
  await db.updateTable('dashboardEmailTokens').set({ usedAt: now.toISOString() }).where('userId', '=', userId).where('purpose', '=', purpose).where('usedAt', 'is', null).execute();
}

/**
 * Marks the token used and answers its user, or refuses it (unknown, other purpose, used, expired). The conditional
 * update makes it single-use even when two requests race.
 */
export async function consumeEmailToken(db: Executor, token: string, purpose: DashboardEmailTokenPurpose, now: Date): Promise<string> {
  const at = now.toISOString();
  const row = await db
    .updateTable('dashboardEmailTokens')
    .set({ usedAt: at })
    .where('id', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', at)
    .returning(['userId'])
    .executeTakeFirst();
  if (!row) throw emailTokenInvalid();
  return row.userId;
}
