/**
 * When a failed webhook attempt is tried again. In the spirit of Svix and Stripe: seconds, then
 * minutes, then hours, over about three days. Attempt 1 is sent as soon as the event is fanned
 * out; after attempt n fails, attempt n + 1 waits RETRY_DELAYS_MS[n - 1] (± 20 % jitter, so that
 * many deliveries failing together do not come back together).
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  1 * HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
  12 * HOUR,
  16 * HOUR,
  24 * HOUR,
];

/** Attempts per delivery: the first and one per retry delay (13; the last about 2.8 days after the first). */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export const JITTER = 0.2;

/** The longest a receiver's `Retry-After` may push an attempt out. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/**
 * Delay before the next attempt after `attemptsThisRound` failed attempts (1-based), or
 * undefined when the attempts are used up. `random` is in [0, 1).
 */
export function retryDelayMs(attemptsThisRound: number, random: number = Math.random()): number | undefined {
  const base = RETRY_DELAYS_MS[attemptsThisRound - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random));
}

/**
 * A `Retry-After` header (delta seconds or an HTTP date) as a delay from `now`, clamped to
 * [1 s, 24 h]; undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * SECOND;
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(ms, SECOND), MAX_RETRY_AFTER_MS);
}
