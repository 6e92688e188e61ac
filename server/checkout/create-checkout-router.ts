import express, { type NextFunction, type Request, type Response } from 'express';
import type { CheckoutTheme } from '../../widget/theme';
import { apiMiddleware, checkOrigins, fail } from './api-middleware';
import { FORWARD_TABLE, forwardRoutes } from './forward-table';
import { sandboxInboxProbe } from './sandbox-inbox';
import { defaultWidgetFile, hostedPageRoutes, mountUrl, rememberMountPath } from './hosted-page';
import { createPasskeyRoutes, passkeySignature, relyingPartyFor, type PasskeyOptions } from './passkeys';
import { createPlatformClient, type MintedSession, type PlatformCall } from './platform-client';
import { createBorrowerClient } from './my-loan/borrower-client';
import { defaultMyLoanFile, myLoanRoutes } from './my-loan/my-loan-router';

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
  /** Where browsers read the platform's error reference (`<docsBaseUrl>/docs/errors#<code>`, the `docUrl` of every error answer); default `apiBaseUrl`. */
  docsBaseUrl?: string;
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
  /** The borrower's loan page bundle served under `/my-loan` (default: this package's `dist/my-loan/my-loan.js`). */
  myLoanFile?: string;
  /** Cookie that holds the loan page's borrower sessions (httpOnly, SameSite=Lax, path `<mount>/my-loan`); default `lc_my_loan`. */
  myLoanCookieName?: string;
  /**
   * The platform's own checkout mount only: the key that lets the loan page's sign-in calls name the browser's address
   * (`X-Borrower-Client-Ip`), so the platform's per-address sign-in budget counts each borrower, not this server. A
   * partner's mount has none: its sign-ins count against its server's address.
   */
  signInRelayKey?: string;
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

export type { MintedSession };

export type CheckoutRouter = express.Express & {
  /**
   * Mints a session for one of your loans with the configured key pair (server side). Send the
   * borrower to `<your mount path>/c/<token>`, or to `url` (the platform's own hosted page).
   */
  createSession(loanId: string): Promise<MintedSession>;
};

/**
 * The parts, in the order a request meets them: the mount path remembered; the hosted page
 * (`hosted-page.ts`); under `/api` the middleware (`api-middleware.ts`), the forwarded endpoints
 * (`forward-table.ts`), the settings, the passkeys (`passkeys.ts`); one error answer.
 */
export function createCheckoutRouter(options: CheckoutRouterOptions): CheckoutRouter {
  const cookieName = options.cookieName ?? 'lc_checkout';
  const allowedOrigins = checkOrigins(options.allowedOrigins ?? []);
  const client = createPlatformClient(options);
  const platform = client.call;
  const app = express() as CheckoutRouter;
  app.disable('x-powered-by');
  app.set('etag', false);
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);

  app.use(rememberMountPath);
  app.use(linkErrorDocs((options.docsBaseUrl ?? options.apiBaseUrl).replace(/\/+$/, '')));
  app.use(
    hostedPageRoutes({
      platform,
      cookieName,
      widgetFile: options.widgetFile ?? defaultWidgetFile(),
      publicUrl: options.publicUrl,
      theme: options.theme,
      frameAncestors: options.frameAncestors,
    }),
  );

  // The borrower's own loan page after checkout (docs/borrower-loans.md): its own cookie, the platform's borrower routes.
  app.use(
    '/my-loan',
    myLoanRoutes({
      borrower: createBorrowerClient(options),
      cookieName: options.myLoanCookieName ?? 'lc_my_loan',
      signInRelayKey: options.signInRelayKey,
      bundleFile: options.myLoanFile ?? defaultMyLoanFile(),
      publicUrl: options.publicUrl,
      theme: options.theme,
      frameAncestors: options.frameAncestors,
    }),
  );

  const passkeys = {
    platform,
    relyingParty: (req: Request) => relyingPartyFor(options.passkeys, options.publicUrl ?? `${req.protocol}://${req.get('host')}`),
  };
  const api = express.Router();
  api.use(apiMiddleware({ platform, cookieName, allowedOrigins, organisationOrigins: options.organisationOrigins ?? false }));
  api.use(
    forwardRoutes(FORWARD_TABLE, platform, {
      mountUrl: (req, res) => mountUrl(req, res, options.publicUrl),
      sandboxInbox: sandboxInboxProbe(options.apiBaseUrl),
      acceptancePasskey: async (req, res) => {
        const { passkey, error } = await passkeySignature(passkeys, req, res, (req.body as { documentReference?: unknown }).documentReference);
        return error ?? (passkey ? { passkey } : {});
      },
    }),
  );
  api.get('/settings', settingsRoute(platform, allowedOrigins, options.returnUrl));
  api.use(createPasskeyRoutes(passkeys));
  api.use((req: Request, res: Response) => fail(res, 404, 'NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}.`));
  app.use('/api', api);

  app.use((error: { type?: string; status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    if (error?.type === 'entity.parse.failed') return fail(res, 400, 'INVALID_JSON', 'The body is not valid JSON.');
    if (error?.type === 'entity.too.large') return fail(res, 413, 'PAYLOAD_TOO_LARGE', 'Body too large.');
    fail(res, 500, 'INTERNAL_ERROR', 'Something went wrong in the checkout server; it is safe to retry.');
  });

  app.createSession = client.mintSession;
  return app;
}

/** Where the widget may deliver events: the organisation's settings plus this router's own options. */
function settingsRoute(platform: PlatformCall, allowedOrigins: ReadonlySet<string>, returnUrl: string | undefined) {
  return async (_req: Request, res: Response) => {
    const answer = await platform('GET', '/v1/checkout/settings', res.locals.token as string);
    const data = answer.body.data as { allowedOrigins: string[]; returnUrl: string | null } | undefined;
    if (answer.status === 200 && data) {
      data.allowedOrigins = [...new Set([...allowedOrigins, ...data.allowedOrigins])];
      data.returnUrl = returnUrl ?? data.returnUrl;
    }
    res.status(answer.status).json(answer.body);
  };
}

/**
 * Every error answer of the checkout server carries `docUrl`, the platform's entry for its code (as the platform's own
 * answers do): its own refusals (`fail`, the origin check, an unreachable platform) get one here; a platform answer it
 * passes on keeps the platform's. The base: the platform's choice when the platform mounts it, else `docsBaseUrl` or `apiBaseUrl`.
 */
function linkErrorDocs(docsBase: string): express.RequestHandler {
  return (_req, res, next) => {
    const json = res.json.bind(res);
    res.json = (body?: unknown) => {
      const error = body as { success?: unknown; error?: unknown; docUrl?: unknown } | undefined;
      if (error && error.success === false && typeof error.error === 'string' && error.docUrl === undefined) {
        // Mounted by the platform itself, the platform has already chosen the base (its public URL or the request's origin).
        const base = typeof res.locals.docsBase === 'string' && res.locals.docsBase ? res.locals.docsBase : docsBase;
        return json({ ...error, docUrl: `${base}/docs/errors#${error.error}` });
      }
      return json(body);
    };
    next();
  };
}

