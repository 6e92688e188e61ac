import { LendingConnectionError, parseRetryAfterMs } from './errors.js';

/** How the client retries. Only requests safe to repeat are retried (see `isRepeatable`). */
export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 turns retries off). */
  maxAttempts?: number;
  /** The first backoff ceiling in ms (default 500); it doubles on every attempt. */
  baseDelayMs?: number;
  /** The largest backoff ceiling in ms (default 8000). */
  maxDelayMs?: number;
  /**
   * The longest `Retry-After` the client waits out, in ms (default 60 000). A longer one is not waited for: the
   * answer is raised at once as a `LendingApiError` carrying `retryAfterSeconds`.
   */
  maxRetryAfterMs?: number;
  /**
   * How long one attempt may wait for the answer's headers, in ms (default 30 000; 0 for no limit). An attempt that
   * times out counts as a network error: retried when the request is repeatable, else raised.
   */
  attemptTimeoutMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 3, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60_000, attemptTimeoutMs: 30_000 };

/** Statuses worth another attempt: rate limited, and server-side failures (501 Not Implemented will not change). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599 && status !== 501);
}

/**
 * A request is safe to repeat when repeating it cannot do the work twice: GET, HEAD, OPTIONS, PUT and DELETE by their
 * HTTP semantics, and any other method (POST, PATCH) only when it carries an `Idempotency-Key`, which makes the
 * platform answer a repeat from its stored first answer.
 */
export function isRepeatable(request: Request): boolean {
  if (['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'].includes(request.method)) return true;
  return Boolean(request.headers.get('idempotency-key'));
}

/**
 * Exponential backoff with full jitter: a uniformly random wait in [0, min(maxDelayMs, baseDelayMs × 2^(retry − 1))),
 * where `retry` counts from 1. Full jitter spreads the retries of many clients that failed together.
 */
export function backoffDelayMs(retry: number, options: Pick<Required<RetryOptions>, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Wraps `fetch` with the retry policy: network errors, 429 (waiting out `Retry-After` when given) and retryable 5xx
 * answers are tried again up to `maxAttempts`, only for repeatable requests. Every attempt sends the same request —
 * the same `Idempotency-Key` included — so the platform executes it at most once. An aborted request is never retried.
 */
export function retryingFetch(
  baseFetch: (request: Request) => Promise<Response>,
  options: RetryOptions | false | undefined,
  random: () => number = Math.random,
): (request: Request) => Promise<Response> {
  const policy = options === false ? { ...DEFAULT_RETRY, maxAttempts: 1 } : { ...DEFAULT_RETRY, ...options };
  const maxAttempts = Math.max(1, Math.floor(policy.maxAttempts));
  return async (request) => {
    const attempts = isRepeatable(request) ? maxAttempts : 1;
    // A body can be read once: keep an unread copy to clone for each attempt.
    const template = attempts > 1 ? request.clone() : request;
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt >= attempts;
      let response: Response;
      try {
        response = await withTimeout(last ? template : template.clone(), policy.attemptTimeoutMs, baseFetch);
      } catch (error) {
        if (request.signal?.aborted) throw error;
        if (last) {
          throw new LendingConnectionError(`${request.method} ${request.url} got no answer after ${attempt} attempt(s): ${describe(error)}`, { cause: error, attempts: attempt });
        }
        await sleep(backoffDelayMs(attempt, policy, random), request.signal);
        continue;
      }
      if (last || !isRetryableStatus(response.status)) return response;
      const retryAfter = parseRetryAfterMs(response.headers.get('retry-after'), Date.now());
      if (retryAfter !== undefined && retryAfter > policy.maxRetryAfterMs) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(retryAfter ?? backoffDelayMs(attempt, policy, random), request.signal);
    }
  };
}

/**
 * One attempt, abandoned after `timeoutMs` (the caller's own signal still aborts it). The timer covers the wait for
 * the answer's headers; reading the body is the caller's.
 */
async function withTimeout(request: Request, timeoutMs: number, baseFetch: (request: Request) => Promise<Response>): Promise<Response> {
  if (!(timeoutMs > 0)) return baseFetch(request);
  const controller = new AbortController();
  const onAbort = () => controller.abort(request.signal.reason);
  if (request.signal.aborted) onAbort();
  else request.signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    return await baseFetch(new Request(request, { signal: controller.signal }));
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener('abort', onAbort);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}
