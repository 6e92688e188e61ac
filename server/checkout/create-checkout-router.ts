import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import ipaddr from 'ipaddr.js';
import type { CheckoutTheme } from '../../widget/theme';
import { renderCheckoutPage, type PageState } from './page';
import { createPasskeyRoutes, passkeySignature, relyingPartyFor, type PasskeyOptions } from './passkeys';
import { embeddingCors, SESSION_HEADER } from './embedding-cors';
import { widgetFileRoutes } from './widget-files';

/**
 * The checkout server (BFF): an Express sub-application a partner mounts in its own app
 * (`app.use('/checkout', createCheckoutRouter({...}))`), and that `npm start` mounts at
 * `/checkout` against the local platform. It talks to the platform only over HTTP, through the
 * documented `/v1/checkout/*` routes with the borrower's session token (and, when given a key
 * pair, `POST /v1/loans/{id}/checkout-sessions` to mint sessions). The browser holds the token only
 * in an httpOnly cookie; keys never leave this server.
 *
 * It is a sub-application rather than a bare Router so it owns its `trust proxy` setting: the IP
 * it records as consent evidence must follow this deployment's proxy chain, whatever the host app
 * says. Without `trustProxy` it inherits the host app's setting.
 */
export interface CheckoutRouterOptions {
  /** The platform's origin, e.g. `https://api.lending.example` (no trailing slash needed). */
  apiBaseUrl: string;
  /** A partner key pair, kept server side; only needed for `createSession` (minting sessions for your own loans). */
  publicKey?: string;
  secretKey?: string;
  /**
   * Express `trust proxy` for this router: false (use the socket address), true (trust every
   * hop), a hop count, or addresses / CIDRs / `loopback` / `uniquelocal` of your own proxies.
   * It decides the IP recorded as consent evidence and (with `publicUrl`) whether the cookie is `Secure`.
   */
  trustProxy?: boolean | number | string | string[];
  /** Cookie that holds the session token (httpOnly, SameSite=Lax, path = the mount path). */
  cookieName?: string;
  /**
   * Public URL of the mount point (e.g. `https://shop.example/checkout`), used for the rail's return address; default: from the request.
   * When it is https the session cookie is always `Secure`, also when TLS ends at a proxy and the request reached this server over plain http.
   */
  publicUrl?: string;
  /**
   * The built widget bundle served at `/widget.js` (default: this package's `dist/widget/checkout.js`).
   * The build's content-hashed, precompressed copies next to it (`asset-manifest.json`) are served
   * under `/assets/` and picked by `Accept-Encoding`.
   */
  widgetFile?: string;
  /** Brand colour, radius and font of the hosted page (text contrast is kept AA whatever the colour). */
  theme?: CheckoutTheme;
  /** CSP `frame-ancestors` of the hosted page (default `'none'`). */
  frameAncestors?: string[];
  /**
   * Passkeys (WebAuthn; this router is the relying party): `rpId`, `rpName`, `origin`, each
   * defaulting from `publicUrl` or the request; `false` turns them off. Always optional for the borrower.
   */
  passkeys?: PasskeyOptions | false;
  /** For tests: the fetch implementation used to reach the platform. */
  fetch?: typeof fetch;
  /**
   * Embedding: the exact origins of your pages that embed `<lc-checkout>` (script tag or ES module)
   * and call this server cross-origin, e.g. `['https://shop.example']`. Requests from these origins get
   * CORS answers and must authenticate with `Authorization: CheckoutSession <token>` (never the cookie);
   * any other foreign origin gets 403 `origin_not_allowed` (readable by the page, so the widget can say
   * why). They are also the widget's `postMessage` targets, together with the organisation's
   * `allowedOrigins` (`PATCH /v1/checkout-settings`).
   */
  allowedOrigins?: string[];
  /**
   * Also answer CORS for the origins the session's organisation lists in its checkout settings
   * (`PATCH /v1/checkout-settings` `allowedOrigins`), looked up with the session token and cached
   * for a minute per session. The platform's own hosted checkout turns this on; a partner that
   * mounts its own router usually lists its pages in `allowedOrigins` instead. Default false.
   */
  organisationOrigins?: boolean;
  /** Overrides the organisation's `returnUrl` for the hosted page served by this router. */
  returnUrl?: string;
}

export interface MintedSession {
  id: string;
  loanId: string;
  token: string;
  url: string;
  expiresAt: string;
  maxExpiresAt: string;
}

export type CheckoutRouter = express.Express & {
  /**
   * Mints a session for one of your loans with the configured key pair (server side). Send the
   * borrower to `<your mount path>/c/<token>`, or to `url` (the platform's own hosted page).
   */
  createSession(loanId: string): Promise<MintedSession>;
};

const TOKEN = /^cs_(test|live)_[0-9A-Za-z]{40}$/;

/**
 * The widget this code was built with: `dist/widget/` beside the built server (`dist/server/main.js`)
 * or package entry (`dist/checkout-server/index.js`); run from source, the project's `dist/widget/`.
 */
function defaultWidgetFile(): string {
  const besideBuild = fileURLToPath(new URL('../widget/checkout.js', import.meta.url));
  return fs.existsSync(besideBuild) ? besideBuild : path.resolve('dist/widget/checkout.js');
}


function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** The client IP as Express derived it under this router's trust rules; IPv4-mapped IPv6 shown as IPv4. */
export function clientIp(req: Request): string {
  const raw = req.ip ?? req.socket.remoteAddress ?? '';
  if (!ipaddr.isValid(raw)) return '0.0.0.0';
  const parsed = ipaddr.parse(raw);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address().toString() : parsed.toString();
}

/** Router options are configuration: checked once, when the router is created. */
function checkOrigins(origins: string[]): Set<string> {
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      /* reported below */
    }
    if (!parsed || parsed.origin !== origin || !/^https?:$/.test(parsed.protocol) || parsed.hostname.includes('*')) {
      throw new Error(`createCheckoutRouter: allowedOrigins entry "${origin}" is not an exact origin such as https://shop.example`);
    }
  }
  return new Set(origins);
}

const pick = (body: unknown, keys: string[]) => {
  const source = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
};

function fail(res: Response, status: number, error: string, message: string): void {
  res.status(status).json({ status, success: false, message, error });
}

export function createCheckoutRouter(options: CheckoutRouterOptions): CheckoutRouter {
  const apiBase = options.apiBaseUrl.replace(/\/$/, '');
  const cookieName = options.cookieName ?? 'lc_checkout';
  const doFetch = options.fetch ?? fetch;
  const widgetFile = options.widgetFile ?? defaultWidgetFile();
  const widgetFiles = widgetFileRoutes(widgetFile);
  const allowedOrigins = checkOrigins(options.allowedOrigins ?? []);
  const app = express() as CheckoutRouter;
  app.disable('x-powered-by');
  app.set('etag', false);
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);

  /** One call to the platform with the session token; the answer's status and envelope come back as they are. */
  async function platform(method: 'GET' | 'POST', route: string, token: string, body?: unknown, idempotencyKey?: string) {
    const headers: Record<string, string> = { authorization: `CheckoutSession ${token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    try {
      const res = await doFetch(`${apiBase}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(15_000) });
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text) as Record<string, unknown>, retryAfter: res.headers.get('retry-after') ?? undefined };
    } catch {
      return {
        status: 502,
        body: { status: 502, success: false, message: 'The lending service could not be reached; it is safe to retry.', error: 'platform_unavailable' },
        retryAfter: undefined,
      };
    }
  }

  // Where this router is mounted, as the request reached it (nested routers see a longer baseUrl).
  app.use((req, res, next) => {
    res.locals.checkoutBase = req.baseUrl;
    next();
  });
  const basePath = (res: Response) => res.locals.checkoutBase as string;
  const cookiePath = (res: Response) => `${basePath(res)}/`;
  // Behind a TLS-terminating proxy `req.secure` is false unless trust proxy is set: an https public URL decides instead.
  const httpsPublicUrl = /^https:\/\//i.test(options.publicUrl ?? '');
  const mountUrl = (req: Request, res: Response) => (options.publicUrl ?? `${req.protocol}://${req.get('host')}${basePath(res)}`).replace(/\/$/, '');

  const pageCsp = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'none'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        // The lender's logo (checkout settings: https; plain http only on loopback, only for a test-mode session).
        'img-src': ["'self'", 'data:', 'https:', (req) => (readCookie(req as Request, cookieName)?.startsWith('cs_test_') ? 'http://localhost:* http://127.0.0.1:*' : "'self'")],
        'font-src': ["'self'"],
        'connect-src': ["'self'"],
        'form-action': ["'self'"],
        'base-uri': ["'none'"],
        'frame-ancestors': options.frameAncestors?.length ? options.frameAncestors : ["'none'"],
      },
    },
    referrerPolicy: { policy: 'no-referrer' },
    // A partner page may open the hosted checkout with window.open and listen for its events: the page
    // keeps its opener (postMessage goes only to allowed origins, and the same-origin policy still applies).
    crossOriginOpenerPolicy: { policy: 'unsafe-none' },
  });

  // The link from the SMS or the partner: move the token into the cookie and out of the address bar.
  app.get('/c/:token', pageCsp, (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = String(req.params.token);
    if (!TOKEN.test(token)) {
      // Not a token at all (cut short when copied, or made up): "not recognised", never "expired".
      res.status(404).type('html').send(renderCheckoutPage({ basePath: basePath(res), state: 'unknown', theme: options.theme }));
      return;
    }
    res.cookie(cookieName, token, { httpOnly: true, secure: httpsPublicUrl || req.secure, sameSite: 'lax', path: cookiePath(res) });
    res.redirect(303, `${basePath(res)}/`);
  });

  app.get('/', pageCsp, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = readCookie(req, cookieName);
    // An embedded checkout opened the rail in its own tab: that tab lands here without a cookie.
    let state: PageState = req.query.return === 'mandate' ? 'returned' : 'missing';
    if (token) {
      // Opening (or coming back to) the page counts as activity: it extends the session, within its cap.
      const answer = await platform('POST', '/v1/checkout/session/refresh', token, {});
      state =
        answer.status === 200
          ? 'ready'
          : answer.body.error === 'checkout_session_revoked'
            ? 'revoked'
            : answer.body.error === 'UNAUTHENTICATED'
              ? 'unknown'
              : answer.status === 401
                ? 'expired'
                : 'unavailable';
    }
    const hashedWidget = widgetFiles.hashedWidget();
    const widgetSrc = hashedWidget ? `${basePath(res)}/assets/${hashedWidget}` : undefined;
    res.status(state === 'ready' || state === 'missing' || state === 'returned' ? 200 : state === 'unavailable' ? 502 : 401).type('html').send(renderCheckoutPage({ basePath: basePath(res), state, theme: options.theme, widgetSrc }));
  });

  // The widget bundle, its content-hashed copies and the locale files (precompressed, cached; see widget-files.ts).
  app.use(widgetFiles.router);

  // JSON endpoints for the components. POSTs must be JSON: with SameSite=Lax that keeps other sites from posting with the cookie.
  const api = express.Router();
  // CORS for pages of other origins that embed the checkout (see embeddingCors): decided before anything runs.
  api.use(
    embeddingCors({
      allowedOrigins,
      organisationOrigins: options.organisationOrigins ?? false,
      settings: (token) => platform('GET', '/v1/checkout/settings', token),
    }),
  );
  api.use((req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    if (req.method === 'POST' && !req.is('application/json')) return fail(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
    next();
  });
  api.use(express.json({ limit: '16kb', strict: true }));
  api.use((req, res, next) => {
    // Embedded: the token handed to LoanCheckout.mount() comes as a header; hosted: the httpOnly cookie.
    const header = req.get('authorization');
    const fromHeader = header === undefined ? undefined : SESSION_HEADER.exec(header)?.[1];
    if (header !== undefined && !fromHeader) return fail(res, 401, 'checkout_session_missing', 'The Authorization header must be CheckoutSession <token>.');
    const token = fromHeader ?? (res.locals.crossOrigin ? undefined : readCookie(req, cookieName));
    if (!token) return fail(res, 401, 'checkout_session_missing', 'No checkout session: open the link the lender sent you.');
    res.locals.token = token;
    next();
  });

  type Built = { body?: unknown; error?: [number, string, string] };
  type Build = (req: Request, res: Response) => Built | Promise<Built>;
  const forward = (method: 'GET' | 'POST', route: string | ((req: Request) => string), build: Build = () => ({})) =>
    async (req: Request, res: Response) => {
      const built = await build(req, res);
      if (built.error) return fail(res, ...built.error);
      const body = method === 'POST' ? (built.body ?? {}) : undefined;
      const path = typeof route === 'string' ? route : route(req);
      const answer = await platform(method, path, res.locals.token as string, body, req.get('idempotency-key') ?? undefined);
      if (answer.retryAfter) res.setHeader('Retry-After', answer.retryAfter);
      res.status(answer.status).json(answer.body);
    };

  const signature = (req: Request) => ({
    ...pick(req.body, ['signatureFullName', 'signatureEmail', 'documentReference']),
    // Evidence as this server saw the browser: never taken from the body.
    ipAddress: clientIp(req),
    userAgent: (req.get('user-agent') ?? 'unknown').slice(0, 400),
  });

  api.get('/state', forward('GET', '/v1/checkout/session'));
  // Where the widget may deliver events: the organisation's settings plus this router's own options.
  api.get('/settings', async (_req, res) => {
    const answer = await platform('GET', '/v1/checkout/settings', res.locals.token as string);
    const data = answer.body.data as { allowedOrigins: string[]; returnUrl: string | null } | undefined;
    if (answer.status === 200 && data) {
      data.allowedOrigins = [...new Set([...allowedOrigins, ...data.allowedOrigins])];
      data.returnUrl = options.returnUrl ?? data.returnUrl;
    }
    res.status(answer.status).json(answer.body);
  });
  api.post('/session/refresh', forward('POST', '/v1/checkout/session/refresh'));
  // An expired link: the lender's contact, and "text me a new link" (to the phone on record only; the platform rate-limits it).
  api.get('/session/renewal', forward('GET', '/v1/checkout/session/renewal'));
  api.post('/session/renew', forward('POST', '/v1/checkout/session/renew'));
  api.post('/otp/send', forward('POST', '/v1/checkout/otp/send'));
  api.post('/otp/verify', forward('POST', '/v1/checkout/otp/verify', (req) => ({ body: pick(req.body, ['code']) })));
  api.get('/banks', forward('GET', '/v1/checkout/banks'));
  api.post('/bank-account/resolve', forward('POST', '/v1/checkout/bank-account/resolve', (req) => ({ body: pick(req.body, ['bankCode', 'accountNumber']) })));
  api.post('/bank-account', forward('POST', '/v1/checkout/bank-account', (req) => ({ body: pick(req.body, ['bankCode', 'accountNumber', 'confirmNameMismatch']) })));
  api.post('/guarantors', forward('POST', '/v1/checkout/guarantors', (req) => ({ body: pick(req.body, ['fullName', 'phone', 'relationship']) })));
  api.post('/guarantors/resend', forward('POST', '/v1/checkout/guarantors/resend', (req) => ({ body: pick(req.body, ['guarantorId']) })));
  api.post('/guarantors/verify', forward('POST', '/v1/checkout/guarantors/verify', (req) => ({ body: pick(req.body, ['guarantorId', 'code']) })));
  // Only the documented query parameters go on to the platform.
  const merchantQuery = (req: Request) => {
    const params = new URLSearchParams();
    for (const key of ['q', 'page', 'limit']) if (typeof req.query[key] === 'string') params.set(key, req.query[key] as string);
    return `/v1/checkout/merchants${params.size ? `?${params}` : ''}`;
  };
  api.get('/merchants', forward('GET', merchantQuery));
  api.post('/merchant', forward('POST', '/v1/checkout/merchant', (req) => ({ body: pick(req.body, ['providerId']) })));
  api.post('/kyc', forward('POST', '/v1/checkout/kyc', (req) => ({ body: pick(req.body, ['bvn', 'nin', 'dateOfBirth', 'address']) })));
  const passkeyDeps = {
    platform,
    relyingParty: (req: Request, res: Response) => relyingPartyFor(options.passkeys, options.publicUrl ?? `${req.protocol}://${req.get('host')}`),
  };
  api.post(
    '/offer/accept',
    forward('POST', '/v1/checkout/accept', async (req, res) => {
      if ((req.body as { agreed?: unknown })?.agreed !== true) return { error: [400, 'agreement_required', 'Tick the box to agree to the offer before signing.'] };
      // Optional: a passkey over this offer, verified here (relying party) and again by the platform.
      const { passkey, error } = await passkeySignature(passkeyDeps, req, res, (req.body as { documentReference?: unknown }).documentReference);
      return error ? { error } : { body: { ...signature(req), ...pick(req.body, ['confirmSignatureName']), ...(passkey ? { passkey } : {}) } };
    }),
  );
  api.use(createPasskeyRoutes(passkeyDeps));
  api.post('/offer/decline', forward('POST', '/v1/checkout/decline', (req) => ({ body: { ...signature(req), ...pick(req.body, ['reason']) } })));
  api.post('/mandate', forward('POST', '/v1/checkout/mandate', (req, res) => ({ body: { ...pick(req.body, ['email']), callbackUrl: `${mountUrl(req, res)}/?return=mandate` } })));
  api.post('/mandate/activate', forward('POST', '/v1/checkout/mandate/activate'));
  // Patient financing: identity (then the service's decision) and the tenor choice.
  api.post(
    '/financing/identity',
    forward('POST', '/v1/checkout/financing/identity', (req) => ({ body: pick(req.body, ['fullName', 'bvn', 'dateOfBirth', 'declaredMonthlyIncomeKobo', 'email']) })),
  );
  api.post('/financing/tenor', forward('POST', '/v1/checkout/financing/tenor', (req) => ({ body: pick(req.body, ['tenorMonths']) })));
  api.use((req: Request, res: Response) => fail(res, 404, 'NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}.`));
  app.use('/api', api);

  app.use((error: { type?: string; status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    if (error?.type === 'entity.parse.failed') return fail(res, 400, 'INVALID_JSON', 'The body is not valid JSON.');
    if (error?.type === 'entity.too.large') return fail(res, 413, 'PAYLOAD_TOO_LARGE', 'Body too large.');
    fail(res, 500, 'INTERNAL_ERROR', 'Something went wrong in the checkout server; it is safe to retry.');
  });

  app.createSession = async (loanId: string) => {
    if (!options.publicKey || !options.secretKey) throw new Error('createSession needs the partner key pair (publicKey, secretKey)');
    const res = await doFetch(`${apiBase}/v1/loans/${encodeURIComponent(loanId)}/checkout-sessions`, {
      method: 'POST',
      headers: { 'x-api-public-key': options.publicKey, 'x-api-secret-key': options.secretKey, accept: 'application/json' },
    });
    const body = (await res.json()) as { data?: MintedSession; message?: string };
    if (res.status !== 201 || !body.data) throw new Error(`could not mint a checkout session (${res.status}): ${body.message ?? ''}`);
    return body.data;
  };
  return app;
}
