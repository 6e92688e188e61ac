import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { BoundedMap } from '../shared/bounded-map';

/** `Authorization: CheckoutSession <token>`: how an embedded checkout authenticates (never a cookie cross-origin). */
export const SESSION_HEADER = /^CheckoutSession (cs_(?:test|live)_[0-9A-Za-z]{40})$/;

/** How long an organisation's allowed origins are trusted once looked up for a session (changes apply within this). */
export const ORGANISATION_ORIGINS_TTL_MS = 60_000;
/** A refused origin looks again after this long, so a page allowed a moment ago works on the borrower's retry. */
const REFUSED_RECHECK_MS = 5_000;
const CACHE_ENTRIES = 10_000;

type PlatformAnswer = { status: number; body: Record<string, unknown> };

export interface EmbeddingCorsOptions {
  /** The router's own `allowedOrigins` (exact origins, checked at start-up). */
  allowedOrigins: ReadonlySet<string>;
  /** Also allow the session's organisation's `allowedOrigins` (the platform's own hosted checkout). */
  organisationOrigins: boolean;
  /** `GET /v1/checkout/settings` on the platform with this session token. */
  settings(token: string): Promise<PlatformAnswer>;
  now?: () => number;
}

/**
 * CORS for pages that embed the checkout and call it from another origin.
 *
 * Preflights carry no credentials, so they cannot tell whose session a call is for: every
 * well-formed foreign `http(s)` origin gets one answered (nothing runs on a preflight), and the
 * decision is made on the real request, which carries the session token, before anything runs:
 * one of the router's `allowedOrigins`, or (with `organisationOrigins`) one of the session's
 * organisation's, looked up through the platform and cached per session. A refusal (403
 * `origin_not_allowed`) is readable by the page (`Access-Control-Allow-Origin` on it), so the widget
 * can name the setting to change instead of "could not reach the server". Same-host requests pass
 * untouched; opaque origins (`null`) get nothing. Sets `res.locals.crossOrigin` for allowed calls.
 */
export function embeddingCors(options: EmbeddingCorsOptions) {
  const now = options.now ?? Date.now;
  /** Per session, keyed by the token's hash (no token rests in memory). */
  const cache = new BoundedMap<string, { origins: string[]; fetchedAt: number }>(CACHE_ENTRIES);

  async function originAllowed(origin: string, authorization: string | undefined): Promise<boolean | PlatformAnswer> {
    if (options.allowedOrigins.has(origin)) return true;
    const token = authorization === undefined ? undefined : SESSION_HEADER.exec(authorization)?.[1];
    if (!options.organisationOrigins || !token) return false;
    const key = crypto.createHash('sha256').update(token).digest('base64url');
    const at = now();
    const known = cache.get(key);
    const age = known ? at - known.fetchedAt : Infinity;
    if (known && age < ORGANISATION_ORIGINS_TTL_MS && (known.origins.includes(origin) || age < REFUSED_RECHECK_MS)) return known.origins.includes(origin);
    const answer = await options.settings(token);
    if (answer.status !== 200) return answer;
    const origins = (answer.body.data as { allowedOrigins?: unknown } | undefined)?.allowedOrigins;
    if (!Array.isArray(origins)) return { status: 502, body: { status: 502, success: false, message: 'The lending service gave an unexpected answer; it is safe to retry.', error: 'platform_unavailable' } };
    cache.delete(key);
    cache.set(key, { origins: origins as string[], fetchedAt: at });
    return origins.includes(origin);
  }

  /** What a refused page is told: the setting that would let it in. */
  const refusal = (origin: string) =>
    `This page's origin (${origin}) may not call this checkout server: ` +
    (options.organisationOrigins
      ? `add it to the organisation's allowedOrigins (PATCH /v1/checkout-settings; it applies within a minute)${options.allowedOrigins.size ? ' or to the allowedOrigins option of createCheckoutRouter' : ''}.`
      : 'add it to the allowedOrigins option of createCheckoutRouter.');

  const refuse = (res: Response, message: string) => res.status(403).json({ status: 403, success: false, message, error: 'origin_not_allowed' });

  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const origin = req.get('origin');
    if (origin === undefined) return next();
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      /* "null" or garbage */
    }
    if (parsed?.host === req.get('host')) return next();
    if (!parsed || parsed.origin !== origin || !/^https?:$/.test(parsed.protocol)) {
      refuse(res, 'Calls from an opaque or malformed origin are not allowed.');
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', 'Retry-After');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
      res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type, idempotency-key');
      res.setHeader('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    const verdict = await originAllowed(origin, req.get('authorization'));
    if (verdict === true) {
      res.locals.crossOrigin = true;
      return next();
    }
    // A failed lookup (the session is over, the platform unreachable) is passed on as it came, readable.
    if (verdict !== false) res.status(verdict.status).json(verdict.body);
    else refuse(res, refusal(origin));
  };
}
