import { PostgresAdapter, sql } from 'kysely';
import type { Db, Executor } from '../../db/database';
import { AppError } from '../errors';
import { newId } from '../ids';
import { inUnitOfWork } from '../unit-of-work';

/**
 * Sign-in limits, counted over a sliding window from `dashboard_login_failures`:
 * - per e-mail (known or not, so the answer says nothing about whether an account exists): 10 wrong passwords in
 *   15 minutes lock it until the oldest failure leaves the window;
 * - per IP address: 100 failures in 15 minutes (an office behind one NAT still signs in; a sprayer does not).
 * A successful sign-in clears the e-mail's failures.
 *
 * A password attempt is counted before its password is verified (`reserveSignInAttempt`), one after another per
 * e-mail, so parallel attempts cannot all pass a check made before any of them failed: at most the limit of passwords
 * is ever verified per window, and a burst leaves the e-mail locked.
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

/**
 * Counts this attempt, then checks the limits, before the password is verified: in one transaction the attempt's row
 * is written and the window counted, attempts for one e-mail one after another (PostgreSQL: a transaction-scoped
 * advisory lock on the e-mail; SQLite has one writer at a time). So among parallel attempts, in any number of
 * processes, exactly the first up to the limit get their password verified and every later one sees the limit: it is
 * refused and its row rolled back (it verified nothing). The rows of verified attempts stay as failures when the
 * password turns out wrong, so the e-mail stays locked after a burst; `signInAttemptSucceeded` removes a row whose
 * password was right. (The per-address count is not serialised: parallel attempts from one address for different
 * e-mails may pass it by a few.)
 */
export async function reserveSignInAttempt(db: Db, email: string, ip: string, now: Date): Promise<string> {
  const id = newId();
  const since = new Date(now.getTime() - SIGN_IN_WINDOW_MS).toISOString();
  return inUnitOfWork(db, async (trx) => {
    if (trx.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_advisory_xact_lock(hashtextextended(${`sign-in:${email}`}, 0))`.execute(trx);
    await trx.insertInto('dashboardLoginFailures').values({ id, email, ip, at: now.toISOString() }).execute();
    for (const [column, value, max] of [['email', email, MAX_FAILURES_PER_ACCOUNT], ['ip', ip, MAX_FAILURES_PER_IP]] as const) {
      const { count, oldest } = await countSince(trx, column, value, since);
      if (count > max) {
        const retryMs = oldest ? Date.parse(oldest) + SIGN_IN_WINDOW_MS - now.getTime() : SIGN_IN_WINDOW_MS;
        // Thrown inside the transaction: this attempt's row goes with it.
        throw new AppError('too_many_sign_in_attempts', 'Too many failed sign-ins. Wait a few minutes, or reset your password.').withRetryAfter(Math.max(1, retryMs / 1000));
      }
    }
    return id;
  });
}

/** The reserved attempt's password was right: it is not a failure. */
export async function signInAttemptSucceeded(db: Executor, attemptId: string): Promise<void> {
  await db.deleteFrom('dashboardLoginFailures').where('id', '=', attemptId).execute();
}

export async function recordSignInFailure(db: Executor, email: string, ip: string, now: Date): Promise<void> {
  await db.insertInto('dashboardLoginFailures').values({ id: newId(), email, ip, at: now.toISOString() }).execute();
}

export async function clearSignInFailures(db: Executor, email: string): Promise<void> {
  await db.deleteFrom('dashboardLoginFailures').where('email', '=', email).execute();
}
