/**
 * The checkout server's only way to the platform: HTTP to its documented routes. Checkout calls
 * carry the borrower's session token (`/v1/checkout/*`); minting a session carries the partner's
 * key pair, which never leaves this server.
 */

/** One answer of the platform, its status and envelope as they came. */
export interface PlatformAnswer {
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | undefined;
}

/** One call to the platform with a session token. */
/** `acceptLanguage`: the browser's header, passed on so the platform can text the borrower in their language. */
export type PlatformCall = (method: 'GET' | 'POST', route: string, token: string, body?: unknown, idempotencyKey?: string, acceptLanguage?: string) => Promise<PlatformAnswer>;

export interface MintedSession {
  id: string;
  loanId: string;
  token: string;
  url: string;
  expiresAt: string;
  maxExpiresAt: string;
}

export interface PlatformClient {
  call: PlatformCall;
  /** `POST /v1/loans/{id}/checkout-sessions` with the key pair. */
  mintSession(loanId: string): Promise<MintedSession>;
}

const TIMEOUT_MS = 15_000;

/** What the browser is told when the platform cannot be reached (or answers with something that is not JSON). */
const UNREACHABLE: PlatformAnswer = {
  status: 502,
  body: { status: 502, success: false, message: 'The lending service could not be reached; it is safe to retry.', error: 'platform_unavailable' },
  retryAfter: undefined,
};

export function createPlatformClient(options: { apiBaseUrl: string; publicKey?: string; secretKey?: string; fetch?: typeof fetch }): PlatformClient {
  const apiBase = options.apiBaseUrl.replace(/\/$/, '');
  const doFetch = options.fetch ?? fetch;

  const call: PlatformCall = async (method, route, token, body, idempotencyKey, acceptLanguage) => {
    const headers: Record<string, string> = { authorization: `CheckoutSession ${token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    if (acceptLanguage) headers['accept-language'] = acceptLanguage.slice(0, 200);
    try {
      const res = await doFetch(`${apiBase}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(TIMEOUT_MS) });
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text) as Record<string, unknown>, retryAfter: res.headers.get('retry-after') ?? undefined };
    } catch {
      return { ...UNREACHABLE, body: { ...UNREACHABLE.body } };
    }
  };

  async function mintSession(loanId: string): Promise<MintedSession> {
    if (!options.publicKey || !options.secretKey) throw new Error('createSession needs the partner key pair (publicKey, secretKey)');
    const res = await doFetch(`${apiBase}/v1/loans/${encodeURIComponent(loanId)}/checkout-sessions`, {
      method: 'POST',
      headers: { 'x-api-public-key': options.publicKey, 'x-api-secret-key': options.secretKey, accept: 'application/json' },
    });
    const body = (await res.json()) as { data?: MintedSession; message?: string };
    if (res.status !== 201 || !body.data) throw new Error(`could not mint a checkout session (${res.status}): ${body.message ?? ''}`);
    return body.data;
  }

  return { call, mintSession };
}
