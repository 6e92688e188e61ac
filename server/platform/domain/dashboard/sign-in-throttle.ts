import type { Executor } from '../../db/database';
import { AppError } from '../errors';
import { newId } from '../ids';

/**
 * Sign-in limits, counted over a sliding window from `dashboard_login_failures`:
 * - per e-mail (known or not, so the answer says nothing about whether an account exists): 10 wrong passwords in
 *   15 minutes lock it until the oldest failure leaves the window;
 * - per IP address: 100 failures in 15 minutes (an office behind one NAT still signs in; a sprayer does not).
 * A successful sign-in clears the e-mail's failures.
 */
export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 10;
export const MAX_FAILURES_PER_IP = 100;

async function countSince(db: Executor, column: 'email' | 'ip', value: string, since: string): Promise<{ count: number; oldest: string | null }> {
  const row = await db
    .selectFrom('dashboardLoginFailures')
    .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min('at').as('oldest')])
    .where(column, '=', value)
    .where('at', '>', since)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: (row.oldest as string | null) ?? null };
}

/** Refuses the attempt (429 with Retry-After) before the password is looked at, when either limit is reached. */
export async function assertSignInAllowed(db: Executor, email: string, ip: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MS).toISOString();
  for (const [column, value, max] of [['email', email, MAX_FAILURES_PER_ACCOUNT], ['ip', ip, MAX_FAILURES_PER_IP]] as const) {
    const { count, oldest } = await countSince(db, column, value, since);
    if (count >= max) {
      const retryMs = oldest ? Date.parse(oldest) + SIGN_IN_WINDOW_MS - now.getTime() : SIGN_IN_WINDOW_MS;
      throw new AppError('too_many_sign_in_attempts', 'Too many failed sign-ins. Wait a few minutes, or reset your password.').withRetryAfter(retryMs / 1000);
    }
  }
}

export async function recordSignInFailure(db: Executor, email: string, ip: string, now: Date): Promise<void> {
  await db.insertInto('dashboardLoginFailures').values({ id: newId(), email, ip, at: now.toISOString() }).execute();
}

export async function clearSignInFailures(db: Executor, email: string): Promise<void> {
  await db.deleteFrom('dashboardLoginFailures').where('email', '=', email).execute();
}
