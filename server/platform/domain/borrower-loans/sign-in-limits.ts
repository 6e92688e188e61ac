import type { Db } from '../../db/database';
import { AppError } from '../errors';

/**
 * The borrower's sign-in per client address: `POST /v1/borrower/sign-in/send` and `/verify` need no credential, so
 * beside the OTP's per-phone rules (a code every 30 s, 5 an hour) each address has a budget per clock hour (fixed
 * window, as the per-phone count): without it one address could walk through phone numbers, texting codes to
 * strangers, or spread guesses over many phones. Counted in the database (`borrower_sign_in_ip_windows`), so the
 * budget holds across processes; one conditional upsert takes a slot, so parallel requests cannot all pass one count.
 * Over it: 429 `borrower_sign_in_rate_limited` with `Retry-After` (the end of the hour), before any code is sent or
 * checked. The address is the one the platform's HTTP server sees (the socket's; `trust proxy` is off).
 */
export type SignInAction = 'send' | 'verify';

export interface SignInIpLimits {
  send: number;
  verify: number;
}

const HOUR_MS = 3_600_000;

/** IPv4-mapped IPv6 (`::ffff:127.0.0.1`) counts as its IPv4 address. */
export const normaliseIp = (ip: string) => (ip.toLowerCase().startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip);

export async function takeSignInSlot(db: Db, request: { ip: string; action: SignInAction; limits: SignInIpLimits; now: Date }): Promise<void> {
  const max = request.limits[request.action];
  const hour = new Date(Math.floor(request.now.getTime() / HOUR_MS) * HOUR_MS);
  const taken = await db
    .insertInto('borrowerSignInIpWindows')
    .values({ ip: normaliseIp(request.ip), action: request.action, windowStart: hour.toISOString(), requestCount: 1 })
    .onConflict((oc) =>
      oc
        .columns(['ip', 'action', 'windowStart'])
        .doUpdateSet((eb) => ({ requestCount: eb('borrowerSignInIpWindows.requestCount', '+', 1) }))
        .where('borrowerSignInIpWindows.requestCount', '<', max),
    )
    .returning('requestCount')
    .executeTakeFirst();
  if (!taken) {
    const wait = Math.max(1, Math.ceil((hour.getTime() + HOUR_MS - request.now.getTime()) / 1000));
    throw new AppError(
      'borrower_sign_in_rate_limited',
      `Too many sign-in requests from this address this hour; try again in ${Math.ceil(wait / 60)} minutes.`,
    ).withRetryAfter(wait);
  }
}

/** Deletes the counts of hours past (they count for their hour only). */
export async function purgeSignInWindows(db: Db, now: Date): Promise<number> {
  const hourAgo = new Date(now.getTime() - HOUR_MS).toISOString();
  const result = await db.deleteFrom('borrowerSignInIpWindows').where('windowStart', '<', hourAgo).executeTakeFirst();
  return Number(result.numDeletedRows);
}
