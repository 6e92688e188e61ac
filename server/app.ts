import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import { publicBaseUrl } from './config';
import { AppError } from './platform/domain/errors';
import { isDatabaseUnavailable } from './platform/db/database';
import type { Platform } from './platform/platform';
import { authenticateMiddleware } from './platform/http/authenticate';
import { createBorrowerSignInRouter, signInRelayKey } from './platform/http/borrower-sign-in-router';
import { docsBaseMiddleware, errorBody, requestOrigin, sendError } from './platform/http/envelope';
import { ERROR_DOCS_PATH, renderErrorsPage } from './platform/http/error-docs';
import { buildOpenApiDocument } from './platform/http/openapi';
import { mountRoutes, type RouteSpec } from './platform/http/route';
import { createDashboardRouter } from './platform/http/dashboard-router';
import { createDashboardPages } from './dashboard/dashboard-pages';
import { createOpsRouter } from './platform/http/ops-router';
import { createOpsPages } from './ops/ops-pages';
import { requestIdOf, requestLog, requestLogger, requestLogMode } from './platform/http/request-log';
import { verifyOfferLetterLink } from './platform/domain/loans/offer-letter-link';
import { offerLetterLinkRefusal } from './platform/domain/checkout/offer-letter-link-refusal';
import { renderLinkRefusalPage, wantsPage } from './platform/http/link-refusal-page';
import { offerLetterPdf } from './platform/domain/loans/offer-letter-document';
import { createSandboxRailRouter } from './integrations/rails/sandbox-rail-router';
import { createPaystackWebhookRouter } from './platform/http/paystack-webhook-router';
import { createMonoWebhookRouter } from './platform/http/mono-webhook-router';
import { apiRoutes } from './platform/http/routes';
import { createSandboxSmsRouter } from './platform/http/sandbox-sms-router';
import { createSandboxInboxRouter } from './platform/http/sandbox-inbox-page';
import { createCheckoutRouter } from './checkout/create-checkout-router';
import { createDemoRouter, demoEnabled as isDemoEnabled } from '../demo/server/create-demo-router';
import { attachMeetingSignalling, createMeetingRouter } from './meeting/meeting-router';
import { renderPageShell } from './shared/page-shell';

function docsPage(): string {
  return renderPageShell({
    title: 'Lending Partner API reference',
    // No icon of our own: an empty one, so the browser does not ask for /favicon.ico (a 404 in the console).
    head: ['<link rel="icon" href="data:,">'],
    body: `  <div id="app"></div>
  <script src="/api-docs/assets/standalone.js"></script>
  <script src="/api-docs/assets/init.js"></script>`,
  });
}

/**
 * Scalar's options for a page that calls nothing outside this origin (its CSP allows only 'self'): no "Ask AI" agent
 * (it talks to Scalar's servers), no developer toolbar, no telemetry, no web fonts; the test-request client stays
 * (it calls this API, same origin).
 */
export const SCALAR_OPTIONS = {
  url: '/api-docs/lending-v1.json',
  withDefaultFonts: false,
  hideClientButton: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  telemetry: false,
} as const;

const DOCS_INIT = `Scalar.createApiReference('#app', ${JSON.stringify(SCALAR_OPTIONS)});`;

function errorHandler(platform: Platform) {
  // Express recognises error middleware by its four parameters.
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const log = requestLog(res, platform.logger);
    if (res.headersSent) {
      log.error({ err: error }, 'error after the response started');
      res.destroy();
      return;
    }
    if (error instanceof AppError) {
      if (error.status >= 500) log.error({ err: error, detail: error.detail }, error.message);
      if (error.retryAfterSeconds) res.setHeader('Retry-After', String(error.retryAfterSeconds));
      sendError(res, error.status, error.code, error.message, error.data);
      return;
    }
    const bodyError = error as { type?: string; status?: number; limit?: number };
    if (bodyError?.type === 'entity.too.large') {
      sendError(res, 413, 'PAYLOAD_TOO_LARGE', `Body larger than ${bodyError.limit} bytes.`);
      return;
    }
    if (bodyError?.type === 'entity.parse.failed') {
      sendError(res, 400, 'INVALID_JSON', 'The body is not valid JSON (send a JSON object).');
      return;
    }
    if (bodyError?.type === 'encoding.unsupported' || bodyError?.type === 'charset.unsupported') {
      sendError(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as UTF-8 application/json.');
      return;
    }
    if (bodyError?.status && bodyError.status >= 400 && bodyError.status < 500) {
      sendError(res, bodyError.status, 'invalid_request', 'The request could not be read.');
      return;
    }
    if (isDatabaseUnavailable(error)) {
      // The database restarting or unreachable: nothing of this request committed; retry shortly.
      log.warn({ err: error }, 'database unavailable');
      res.setHeader('Retry-After', '1');
      sendError(res, 503, 'SERVICE_UNAVAILABLE', 'The database is unavailable for a moment; nothing was changed. Retry shortly (same Idempotency-Key).', { reason: 'database_unavailable' });
      return;
    }
    const requestId = requestIdOf(res);
    log.error({ err: error }, 'unhandled error');
    res
      .status(500)
      .json(errorBody(res, 500, 'INTERNAL_ERROR', `Something went wrong on our side (request ${requestId}). It is safe to retry.`));
  };
}

/**
 * The OpenAPI document as JSON for a request: built on the first request (a few hundred milliseconds that a start need
 * not wait for), its server URL `fixedBase` (PUBLIC_BASE_URL) when configured, else the request's origin (a few origins
 * cached), else `fallback` for a Host that is not a plain host name.
 */
function apiDocumentFor(routes: RouteSpec[], fixedBase: string | undefined, fallback: string) {
  const PLACEHOLDER = 'https://server.invalid';
  let built: string | undefined;
  const template = () => (built ??= JSON.stringify(buildOpenApiDocument(routes, fixedBase ?? PLACEHOLDER)));
  if (fixedBase) return () => template();
  const byOrigin = new Map<string, string>();
  return (req: Request) => {
    const base = requestOrigin(req) ?? fallback;
    let json = byOrigin.get(base);
    if (json === undefined) {
      json = template().replaceAll(PLACEHOLDER, base);
      if (byOrigin.size >= 8) byOrigin.delete(byOrigin.keys().next().value!);
      byOrigin.set(base, json);
    }
    return json;
  };
}

/**
 * Liveness and readiness, on every role. `/healthz`: the process is up and not draining (no database
 * call: a database outage is not cured by restarting the process). `/readyz`: send traffic here —
 * the database answers and every known migration is applied; else 503 with `data.reason`
 * (`database_unavailable`, `migrations_pending`, `shutting_down`).
 */
function mountProbes(app: express.Express, platform: Platform, ready: () => boolean): void {
  const role = platform.config.PROCESS_ROLE;
  app.get('/healthz', (_req, res) => {
    if (!ready()) return sendError(res, 503, 'SERVICE_UNAVAILABLE', 'Shutting down.', { reason: 'shutting_down' });
    res.json({ status: 200, success: true, message: 'ok', data: { status: 'ok', database: platform.dialect, role } });
  });
  app.get('/readyz', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    if (!ready()) return sendError(res, 503, 'SERVICE_UNAVAILABLE', 'Shutting down.', { reason: 'shutting_down' });
    const readiness = await platform.readiness();
    if (!readiness.ready) {
      const { message, ...data } = readiness;
      return sendError(res, 503, 'SERVICE_UNAVAILABLE', message, data);
    }
    res.json({ status: 200, success: true, message: 'ready', data: { status: 'ready', database: platform.dialect, role } });
  });
}

export interface AppHandle {
  app: express.Express;
  routes: RouteSpec[];
  /** Flips /healthz to 503 while the process drains. */
  setReady(ready: boolean): void;
}

/**
 * Helmet's headers do not depend on the request, so they are captured once from helmet itself
 * (the source of truth for their values) and set by one middleware, instead of helmet's chain of
 * a dozen middlewares running on every request.
 */
function staticHeaders(middleware: (req: Request, res: Response, next: (error?: unknown) => void) => void) {
  const headers: [string, string | number | readonly string[]][] = [];
  let passed = false;
  const capture = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, value]);
      return capture;
    },
    removeHeader() {},
  };
  middleware({} as Request, capture as unknown as Response, (error) => {
    if (error) throw error;
    passed = true;
  });
  if (!passed) throw new Error('the header middleware did not complete synchronously');
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/**
 * @param options.baseUrl the public origin (links, OpenAPI servers);
 * @param options.internalUrl how this process reaches its own API (the mounted checkout server calls it over HTTP).
 */
export function createApp(platform: Platform, options: { baseUrl: string; internalUrl?: string }): AppHandle {
  const app = express();
  let ready = true;
  app.set('etag', false);
  app.set('trust proxy', false);
  app.disable('x-powered-by');

  app.use(requestLogger(platform.logger, { mode: requestLogMode(platform.config), summaryEveryMs: platform.config.LOG_REQUEST_SUMMARY_SECONDS * 1000 }));
  app.use(docsBaseMiddleware(platform.config.PUBLIC_BASE_URL, () => platform.baseUrl));
  app.use(staticHeaders(helmet({ contentSecurityPolicy: { directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] } } })));

  mountProbes(app, platform, () => ready);

  const routes = apiRoutes;
  // The document's server is PUBLIC_BASE_URL, or else the origin the reader reached (never a guessed localhost port).
  const documentFor = apiDocumentFor(routes, platform.config.PUBLIC_BASE_URL ? options.baseUrl : undefined, options.baseUrl);
  const require = createRequire(import.meta.url);
  const scalarBundle = path.join(path.dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');
  const docsCsp = helmet.contentSecurityPolicy({
    directives: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:'],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'worker-src': ["'self'", 'blob:'],
    },
  });
  app.get('/api-docs/lending-v1.json', (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.type('application/json').send(documentFor(req));
  });
  app.get('/api-docs', docsCsp, (_req, res) => {
    res.type('html').send(docsPage());
  });
  app.get('/api-docs/assets/standalone.js', (_req, res) => res.sendFile(scalarBundle, { maxAge: '1d' }));
  // The error reference every error answer's docUrl points into (docs/errors.md, rendered from the same table).
  app.get(ERROR_DOCS_PATH, (_req, res) => {
    const page = renderErrorsPage();
    res.setHeader('Content-Security-Policy', page.csp);
    res.type('html').send(page.html);
  });
  app.get('/api-docs/assets/init.js', (_req, res) => res.type('application/javascript').send(DOCS_INIT));

  // Signed offer-letter links: no API key, the signature is the authorisation.
  app.get('/offer-letters/:file', async (req, res) => {
    const match = /^([0-9a-f-]{36})\.pdf$/.exec(req.params.file);
    const link = { loanId: match?.[1] ?? '', documentReference: String(req.query.ref ?? ''), expires: String(req.query.expires ?? ''), signature: String(req.query.signature ?? '') };
    if (!match || !verifyOfferLetterLink(platform.secrets, link, platform.clock.now())) {
      // A browser that landed on the link gets a page in the borrower's words with a way forward; API clients the JSON error.
      if (wantsPage(req)) {
        const refusal = await offerLetterLinkRefusal(platform.db, platform.secrets, link, req.get('accept-language'));
        const page = renderLinkRefusalPage(refusal, platform.config.CHECKOUT_PLATFORM_NAME);
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('Content-Security-Policy', page.csp);
        res.status(403).type('html').send(page.html);
        return;
      }
      throw new AppError('LINK_INVALID', 'This offer-letter link is invalid or has expired; request a new one.');
    }
    const loan = await platform.db.selectFrom('loans').selectAll().where('id', '=', link.loanId).executeTakeFirst();
    const pdf = loan && (await offerLetterPdf(platform.db, loan, link.documentReference, {
      coolingOffDays: platform.config.COOLING_OFF_DAYS,
      complaintsEmail: platform.config.COMPLAINTS_EMAIL,
    }));
    if (!pdf) throw new AppError('NOT_FOUND', 'No such offer letter.');
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('Content-Disposition', `inline; filename="offer-${link.documentReference}.pdf"`);
    res.type('application/pdf').send(pdf);
  });

  // The sales demo needs the sandbox organisation and routes; it shows the checkout (and the rail's page) in a same-origin frame.
  const demoEnabled = isDemoEnabled(platform.config);
  const framedByDemo = demoEnabled ? ["'self'"] : undefined;
  if (platform.config.SANDBOX_ROUTES_ENABLED) {
    // The sandbox payment-rail provider (test mode's stand-in for the direct-debit providers).
    app.use(
      '/sandbox/rails',
      createSandboxRailRouter(
        { db: platform.db, clock: platform.clock, confirmationLagMs: platform.config.RAIL_CONFIRMATION_LAG_MS, chargeLagMs: platform.config.RAIL_CHARGE_LAG_MS, baseUrl: () => platform.baseUrl },
        { frameAncestors: framedByDemo },
      ),
    );
    // The sandbox SMS inbox (test-mode messages only).
    app.use('/sandbox/sms', createSandboxSmsRouter(platform));
    // The sandbox inbox page: e-mail and texts for a developer on this machine (loopback only: the e-mails hold sign-in links).
    app.use(['/sandbox/mail', '/sandbox/inbox'], createSandboxInboxRouter(platform));
  }

  // Paystack's signed push notifications for the live direct debit (raw body: the signature covers the exact bytes).
  if (platform.config.PAYSTACK_SECRET_KEY) app.use('/webhooks/paystack', createPaystackWebhookRouter(platform, { secretKey: platform.config.PAYSTACK_SECRET_KEY }));
  // Mono's push notifications for the live rail_b direct debit (the shared secret header is checked before anything is read).
  if (platform.config.MONO_SECRET_KEY && platform.config.MONO_WEBHOOK_SECRET) app.use('/webhooks/mono', createMonoWebhookRouter(platform, { webhookSecret: platform.config.MONO_WEBHOOK_SECRET }));

  // The hosted checkout: the same checkout server a partner can mount, talking to this process over HTTP with session tokens.
  app.use(
    '/checkout',
    createCheckoutRouter({
      apiBaseUrl: options.internalUrl ?? options.baseUrl,
      // The public origin, when configured: the rail's return address, and an https one makes the cookie Secure behind a TLS proxy.
      ...(platform.config.PUBLIC_BASE_URL ? { publicUrl: `${options.baseUrl}/checkout` } : {}),
      trustProxy: platform.config.CHECKOUT_TRUST_PROXY,
      passkeys: platform.config.CHECKOUT_PASSKEYS_ENABLED && {
        origin: platform.config.CHECKOUT_PASSKEY_ORIGIN ?? options.baseUrl,
        rpId: platform.config.CHECKOUT_PASSKEY_RP_ID,
        rpName: platform.config.CHECKOUT_PASSKEY_RP_NAME,
      },
      frameAncestors: framedByDemo,
      // Partner pages embed this hosted checkout with the script tag: CORS for each organisation's own allowedOrigins.
      organisationOrigins: true,
      // The loan page's sign-ins count against each borrower's address, not this mount's (borrower-sign-in-router.ts).
      signInRelayKey: signInRelayKey(platform),
    }),
  );
  if (demoEnabled) app.use('/demo', createDemoRouter({ platform, apiBaseUrl: options.internalUrl ?? options.baseUrl }));

  // The lending API under /v1; patient financing (spec B's `{sdk_base_url}`, /api/v1/sdk…) and telemedicine
  // (spec A, /api/v1/appointment…) under /api/v1: one middleware chain each, so a request is metered once.
  // The organisation dashboard's account and session routes (cookie session, never an API key).
  app.use('/dashboard/api', createDashboardRouter(platform));
  // Its pages: one shell for every path under /dashboard, and the app's bundle (dist/dashboard).
  app.use(createDashboardPages());
  // The service's own operations console: its own staff session (never a dashboard session or an API key).
  app.use('/ops/api', createOpsRouter(platform));
  app.use(createOpsPages());
  // The borrower's sign-in by phone: no credential yet, so before the API's authentication.
  app.use('/v1/borrower/sign-in', createBorrowerSignInRouter(platform));
  app.use('/v1', apiRouter(platform, '/v1', routes.filter((r) => r.path.startsWith('/v1/'))));
  app.use('/api/v1', apiRouter(platform, '/api/v1', routes.filter((r) => r.path.startsWith('/api/v1/'))));
  // The telemedicine meeting pages and their signed files.
  app.use(createMeetingRouter(platform));

  app.use((req, res) => sendError(res, 404, 'NOT_FOUND', `No route ${req.method} ${req.path}.`));
  app.use(errorHandler(platform));
  return { app, routes, setReady: (value) => void (ready = value) };
}

/** Authentication, usage, rate limits and JSON parsing, then the routes under `prefix`. */
function apiRouter(platform: Platform, prefix: string, routes: RouteSpec[]): express.Router {
  const api = express.Router();
  api.use(authenticateMiddleware(platform.authenticator));
  api.use((_req, res, next) => {
    const auth = res.locals.auth;
    res.on('finish', () => platform.usage.record(auth.organisationId, auth.mode, res.statusCode));
    next();
  });
  api.use(platform.rateLimits.middleware());
  const parseJson = express.json({ limit: platform.config.BODY_LIMIT_BYTES, strict: true });
  // One layer for the body. A request with neither Content-Length nor Transfer-Encoding (every GET) has nothing
  // the parser would read (its own test, type-is's hasBody), so it goes straight on.
  api.use((req, res, next) => {
    const length = req.headers['content-length'];
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if (length === undefined && !chunked) return next();
    if ((Number(length ?? 0) > 0 || chunked) && !req.is('application/json')) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
    }
    parseJson(req, res, next);
  });
  mountRoutes(api, prefix, routes, platform);
  api.use((req) => {
    throw new AppError('NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}.`);
  });
  return api;
}

export interface WebServer {
  server: http.Server;
  url: string;
  port: number;
  app: AppHandle;
  /** Stops accepting connections, lets in-flight requests finish (up to the grace period), then closes. */
  stop(): Promise<void>;
}

/**
 * The `worker` role's listener: /healthz and /readyz only (for the orchestrator's probes), 404 for
 * everything else; no API, no checkout, no meeting sockets.
 */
export async function startProbeServer(platform: Platform, listen: { port: number; host: string }): Promise<WebServer> {
  const app = express();
  let ready = true;
  app.set('etag', false);
  app.disable('x-powered-by');
  app.use(docsBaseMiddleware(platform.config.PUBLIC_BASE_URL, () => platform.baseUrl));
  mountProbes(app, platform, () => ready);
  // The sandbox rail provider (test-mode data only) is reached over HTTP at the process's base URL: without
  // PUBLIC_BASE_URL a worker's collector charges through its own listener, so it serves the stand-in too.
  if (platform.config.SANDBOX_ROUTES_ENABLED) {
    app.use('/sandbox/rails', createSandboxRailRouter({ db: platform.db, clock: platform.clock, confirmationLagMs: platform.config.RAIL_CONFIRMATION_LAG_MS, chargeLagMs: platform.config.RAIL_CHARGE_LAG_MS, baseUrl: () => platform.baseUrl }));
  }
  app.use((req, res) => sendError(res, 404, 'NOT_FOUND', `No route ${req.method} ${req.path} (worker process: /healthz and /readyz only).`));
  app.use(errorHandler(platform));
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  // Links a job hands out (rail return addresses) use PUBLIC_BASE_URL: set it on worker processes.
  platform.baseUrl = publicBaseUrl(platform.config, port);
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  const handle: AppHandle = { app, routes: [], setReady: (value) => void (ready = value) };
  return {
    server,
    port,
    url: `http://${host}:${port}`,
    app: handle,
    async stop() {
      ready = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

export async function startWebServer(platform: Platform, listen: { port: number; host: string }): Promise<WebServer> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  platform.baseUrl = publicBaseUrl(platform.config, port);
  const loopback = ['0.0.0.0', '::', '127.0.0.1', 'localhost'].includes(listen.host) ? (listen.host === '::' ? '[::1]' : '127.0.0.1') : listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  const handle = createApp(platform, { baseUrl: platform.baseUrl, internalUrl: `http://${loopback}:${port}` });
  server.on('request', handle.app);
  const signalling = attachMeetingSignalling(server, platform);
  server.keepAliveTimeout = 65_000;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    server,
    port,
    url: `http://${host}:${port}`,
    app: handle,
    async stop() {
      handle.setReady(false);
      signalling.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), platform.config.SHUTDOWN_GRACE_MS);
      await closed;
      clearTimeout(grace);
    },
  };
}
