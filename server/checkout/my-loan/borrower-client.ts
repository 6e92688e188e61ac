import type { PlatformAnswer } from '../platform-client';

/**
 * The `/my-loan` page's way to the platform: HTTP to the documented borrower routes (`/v1/borrower/*`, see
 * docs/borrower-loans.md) with `Authorization: BorrowerSession <token>`, or no credential for the sign-in routes.
 * Same answer shape as the checkout's client (`platform-client.ts`): the platform's status and envelope as they came,
 * 502 `platform_unavailable` when it cannot be reached.
 */
export type BorrowerCall = (
  method: 'GET' | 'POST',
  route: string,
  token: string | undefined,
  body?: unknown,
  headers?: { idempotencyKey?: string; acceptLanguage?: string; relay?: { key: string; clientIp: string } },
) => Promise<PlatformAnswer>;

const TIMEOUT_MS = 15_000;

export function createBorrowerClient(options: { apiBaseUrl: string; fetch?: typeof fetch }): BorrowerCall {
  const apiBase = options.apiBaseUrl.replace(/\/$/, '');
  const doFetch = options.fetch ?? fetch;
  return async (method, route, token, body, extra = {}) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `BorrowerSession ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (extra.idempotencyKey) headers['idempotency-key'] = extra.idempotencyKey.slice(0, 255);
    if (extra.acceptLanguage) headers['accept-language'] = extra.acceptLanguage.slice(0, 200);
    if (extra.relay) {
      headers['x-checkout-relay'] = extra.relay.key;
      headers['x-borrower-client-ip'] = extra.relay.clientIp;
    }
    try {
      const res = await doFetch(`${apiBase}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(TIMEOUT_MS) });
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text) as Record<string, unknown>, retryAfter: res.headers.get('retry-after') ?? undefined };
    } catch {
      return {
        status: 502,
        body: { status: 502, success: false, message: 'The lending service could not be reached; it is safe to retry.', error: 'platform_unavailable' },
        retryAfter: undefined,
      };
    }
  };
}
