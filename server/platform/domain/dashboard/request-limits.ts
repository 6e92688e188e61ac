import type { Db } from '../../db/database';
import { AppError } from '../errors';
import { newId } from '../ids';

/**
 * Limits on the account requests anyone may make without signing in, each of which sends an e-mail or creates an
 * organisation: without them one address could mail-bomb any inbox or create organisations without end. Counted in
 * the database (`dashboard_request_hits`), so they hold across processes, over a sliding hour:
 * - a password-reset request: 5 per e-mail (known or not: the answer says nothing about whether an account exists)
 *   and 20 per address;
 * - a sign-up: 5 per e-mail and 20 per address (an office behind one NAT still signs up its people).
 * A refused request answers 429 `too_many_account_requests` with `Retry-After`, before any password is hashed.
 */
export const ACCOUNT_REQUEST_WINDOW_MS = 3600_000;
export const ACCOUNT_REQUEST_LIMITS = {
  password_reset: { perEmail: 5, perIp: 20 },
  sign_up: { perEmail: 5, perIp: 20 },
} as const;

export type AccountRequest = keyof typeof ACCOUNT_REQUEST_LIMITS;

/**
 * Counts one request of this kind for the e-mail and the address, or refuses it. Each hit is written (committed, on
 * the root handle) before the window is counted, so parallel requests in any number of processes cannot all pass a
 * count made before any of them was written; a refused request removes its hits (it asked for nothing), and hits
 * older than the window are deleted on the way.
 */
export async function countAccountRequest(db: Db, request: AccountRequest, who: { email: string; ip: string }, now: Date): Promise<void> {
  const limits = ACCOUNT_REQUEST_LIMITS[request];
  const at = now.toISOString();
  const since = new Date(now.getTime() - ACCOUNT_REQUEST_WINDOW_MS).toISOString();
  const keys = [
    { bucket: `${request}:email`, key: who.email, max: limits.perEmail },
    { bucket: `${request}:ip`, key: who.ip, max: limits.perIp },
  ];
  const rows = keys.map((k) => ({ id: newId(), bucket: k.bucket, key: k.key, at }));
  await db.insertInto('dashboardRequestHits').values(rows).execute();
  for (const k of keys) {
    await db.deleteFrom('dashboardRequestHits').where('bucket', '=', k.bucket).where('key', '=', k.key).where('at', '<=', since).execute();
    const row = await db
      .selectFrom('dashboardRequestHits')
      .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min('at').as('oldest')])
      .where('bucket', '=', k.bucket)
      .where('key', '=', k.key)
      .where('at', '>', since)
      .executeTakeFirstOrThrow();
    if (Number(row.count) > k.max) {
      await db.deleteFrom('dashboardRequestHits').where('id', 'in', rows.map((r) => r.id)).execute();
      const oldest = row.oldest ? Date.parse(String(row.oldest)) : now.getTime();
      const retryAfter = Math.max(1, Math.ceil((oldest + ACCOUNT_REQUEST_WINDOW_MS - now.getTime()) / 1000));
      throw new AppError('too_many_account_requests', `Too many requests like this one for this e-mail or from this address; try again in ${Math.ceil(retryAfter / 60)} minutes.`).withRetryAfter(
        retryAfter,
      );
    }
  }
}

/**
 * Deletes account-request counts and sign-in failures past their windows (they count for an hour and 15 minutes;
 * kept a day, for whoever looks into an incident). Answers how many went.
 */
export async function purgeAccountCounts(db: Db, now: Date): Promise<number> {
  const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
  const hits = await db.deleteFrom('dashboardRequestHits').where('at', '<', dayAgo).executeTakeFirst();
  const failures = await db.deleteFrom('dashboardLoginFailures').where('at', '<', dayAgo).executeTakeFirst();
  return Number(hits.numDeletedRows) + Number(failures.numDeletedRows);
}
