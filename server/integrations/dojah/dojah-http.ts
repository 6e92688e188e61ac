import type { z } from 'zod';
import type { Mode } from '../../platform/db/schema';
import { ProviderError, ProviderHttp, type ProviderHttpOptions } from '../provider-http';

/**
 * The shared client for Dojah (https://docs.dojah.io): every Dojah adapter (BVN match, KYC, AML) goes
 * through one `DojahClient`, so they share one circuit breaker — when Dojah is down, it is down for all.
 *
 * Authentication (docs "Authentication"): two headers on every call, `AppId: <app id>` and
 * `Authorization: <secret key>` (the bare key, not `Bearer <key>`). Hosts: https://api.dojah.io (live)
 * and https://sandbox.dojah.io (sandbox keys only); `baseUrl` overrides both for the local fake.
 *
 * Errors (docs "Response codes"): a JSON body `{ "error": "<text>" }` with 400 (bad parameters, and on
 * the lookup endpoints also "… not found"), 401 (wrong AppId / key), 402 (balance too low), 404
 * (record or URL not found), 424 (Dojah's upstream — NIBSS, NIMC, … — failed), 429 (rate limit) and
 * 5xx. The provider's text is only inspected here, never copied into an error message: it may echo
 * the number that was looked up.
 */

export const DOJAH_LIVE_URL = 'https://api.dojah.io';
export const DOJAH_SANDBOX_URL = 'https://sandbox.dojah.io';

/** The shared client's timeout, retry and breaker settings, plus Dojah's credentials and mode. */
export interface DojahClientOptions extends Omit<ProviderHttpOptions, 'provider' | 'baseUrl' | 'headers'> {
  appId: string;
  secretKey: string;
  /**
   * The mode this client serves: a `live` client (live keys, api.dojah.io) refuses test-mode requests and
   * a `test` client (sandbox keys) refuses live ones, so a test application never costs a real lookup
   * and a live borrower is never "verified" by the sandbox.
   */
  mode: Mode;
  /** Defaults to api.dojah.io for `live` and sandbox.dojah.io for `test`. */
  baseUrl?: string;
}

/**
 * The adapter-level codes a Dojah refusal becomes (`ProviderError.code`). `dojah_not_found` is an answer
 * ("no such record"), the others mean Dojah could not or would not answer.
 */
export type DojahErrorCode =
  | 'dojah_not_found'
  | 'dojah_bad_request'
  | 'dojah_unauthorized'
  | 'dojah_payment_required'
  | 'dojah_upstream_failed'
  | 'dojah_rate_limited'
  | 'dojah_server_error'
  | `dojah_http_${number}`;

const DESCRIPTIONS: Record<string, string> = {
  dojah_not_found: 'the registry has no record for this number',
  dojah_http_404: 'Dojah does not know this URL (check DOJAH_BASE_URL)',
  dojah_bad_request: 'Dojah rejected the parameters (check the number format and the date of birth)',
  dojah_unauthorized: 'Dojah refused the credentials (check DOJAH_APP_ID and DOJAH_SECRET_KEY, and that they match the host)',
  dojah_payment_required: 'the Dojah wallet balance is too low; top it up on the Dojah dashboard',
  dojah_upstream_failed: "Dojah's upstream registry failed (424); the check could not be done now",
  dojah_rate_limited: 'Dojah rate limit reached; slow down',
  dojah_server_error: 'Dojah failed on its side',
};

/** Dojah's `{ error }` body → a fixed code and a description that never repeats the provider's text. */
export function dojahErrorOf(status: number, body: unknown): { code: DojahErrorCode; message: string } {
  const text = body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : '';
  // "BVN not found", "NIN not found", "vnin not found": an answer about the number. A bare 404 (say, a wrong
  // base URL) is not read as "no such person": it stays an error.
  const code: DojahErrorCode =
    (status === 400 || status === 404) && /(bvn|nin|record)[^.]*not\s*found/i.test(text)
      ? 'dojah_not_found'
      : status === 400
        ? 'dojah_bad_request'
        : status === 401 || status === 403
          ? 'dojah_unauthorized'
          : status === 402
            ? 'dojah_payment_required'
            : status === 424
                ? 'dojah_upstream_failed'
                : status === 429
                  ? 'dojah_rate_limited'
                  : status >= 500
                    ? 'dojah_server_error'
                    : `dojah_http_${status}`;
  return { code, message: DESCRIPTIONS[code] ?? `Dojah answered ${status}` };
}

/** Whether a thrown error is Dojah's "no such record" answer (400/404 "… not found"). */
export function isDojahNotFound(error: unknown): boolean {
  return error instanceof ProviderError && error.code === 'dojah_not_found';
}

/** Whether Dojah answered but could not check now (its upstream registry failed): not an outage of Dojah itself. */
export function isDojahUpstreamFailure(error: unknown): boolean {
  return error instanceof ProviderError && error.code === 'dojah_upstream_failed';
}

export class DojahClient {
  readonly mode: Mode;
  private readonly http: ProviderHttp;

  constructor(options: DojahClientOptions) {
    this.mode = options.mode;
    const { appId, secretKey, mode, baseUrl, ...resilience } = options;
    this.http = new ProviderHttp({
      ...resilience,
      provider: 'dojah',
      baseUrl: baseUrl ?? (mode === 'live' ? DOJAH_LIVE_URL : DOJAH_SANDBOX_URL),
      headers: () => ({ AppId: appId, Authorization: secretKey }),
    });
  }

  get circuitState(): ProviderHttp['circuitState'] {
    return this.http.circuitState;
  }

  /**
   * Refuses a request of the other mode. A wiring mistake, not a provider failure: a plain Error.
   * (Its message names the modes only, never the request.)
   */
  assertMode(mode: Mode): void {
    if (mode !== this.mode) throw new Error(`the ${this.mode}-mode Dojah client was given a ${mode}-mode request`);
  }

  /**
   * A Dojah lookup. Every call the adapters make is a read (a repeat costs a second lookup fee and
   * changes nothing), so all are sent as idempotent: retried with backoff on timeouts, 5xx and 429.
   * Identity numbers travel in the query string because that is how Dojah's GET lookups take them;
   * `ProviderHttp` never puts the URL into an error message.
   */
  get<T>(action: string, path: string, query: Record<string, string | undefined>, schema: z.ZodType<T>): Promise<T> {
    return this.http.request({ action, method: 'GET', path, query, schema, idempotent: true, errorOf: dojahErrorOf });
  }

  post<T>(action: string, path: string, body: unknown, schema: z.ZodType<T>): Promise<T> {
    return this.http.request({ action, method: 'POST', path, body, schema, idempotent: true, errorOf: dojahErrorOf });
  }
}

/** `YYYY-MM-DD` (the only date format Dojah's `dob` parameter takes), or undefined. */
export function isoDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  return /^\d{4}-\d{2}-\d{2}$/.test(trimmed) ? trimmed : undefined;
}
