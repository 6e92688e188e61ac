import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { CheckoutTheme } from '../../../widget/theme';
import { readCookie } from '../../shared/read-cookie';
import { fail } from '../api-middleware';
import { hostedPageHeaders, mountPath } from '../hosted-page';
import { staticAssets } from '../static-assets';
import type { BorrowerCall } from './borrower-client';
import { renderMyLoanPage, type MyLoanPageState } from './my-loan-page';

/** `bs_test_…` / `bs_live_…` (the platform's `BORROWER_TOKEN_PATTERN`): anything else is never put in the cookie. */
const TOKEN = /^bs_(test|live)_[0-9A-Za-z]{40}$/;
/** A path under `/v1/borrower` the page may reach: plain segments only (no `..`, no encoded slashes). */
const FORWARD_PATH = /^(\/[A-Za-z0-9_-]{1,64}){1,8}$/;
/** The browser names which of its sessions (one per lender) a call is for by this header: a handle, never the token. */
export const SESSION_HANDLE_HEADER = 'x-borrower-session';

/** The browser's name for a session: a hash of its token (the page never sees the token). */
export const sessionHandle = (token: string): string => crypto.createHash('sha256').update(token).digest('hex').slice(0, 16);

/**
 * The built page bundle this code was built with: `dist/my-loan/` beside the built server or package entry; run from
 * source, the project's `dist/my-loan/` (`npm run build:my-loan`, `widget/my-loan/vite.config.ts`).
 */
export function defaultMyLoanFile(): string {
  const besideBuild = fileURLToPath(new URL('../my-loan/my-loan.js', import.meta.url));
  return fs.existsSync(besideBuild) ? besideBuild : path.resolve('dist/my-loan/my-loan.js');
}

export interface MyLoanRoutesOptions {
  borrower: BorrowerCall;
  /** Holds the borrower's session tokens (HttpOnly, SameSite=Lax, path `<mount>/my-loan`, Secure when https). */
  cookieName: string;
  bundleFile: string;
  publicUrl?: string;
  theme?: CheckoutTheme;
  frameAncestors?: string[];
  /** With it, sign-in calls name the browser's address to the platform (see `CheckoutRouterOptions.signInRelayKey`). */
  signInRelayKey?: string;
}

/**
 * The borrower's own loan page, `<mount>/my-loan` (docs/borrower-loans.md, "The page"):
 * - `GET /` the page (`<lc-my-loan>`, `widget/my-loan/`), with the checkout's hosted-page headers and policy;
 * - `GET /s/<token>` a session the partner minted (`POST /v1/loans/{id}/borrower-sessions`) moved into the cookie;
 * - `/api/*` JSON: `sign-in/send`, `sign-in/verify` (the tokens go into the cookie, the page gets handles),
 *   `sessions` (each signed-in lender and its loans), `sign-out` (every session revoked, the cookie cleared), and any
 *   other GET or POST forwarded to `/v1/borrower/*` with the session the `X-Borrower-Session` handle names.
 * The tokens live only in the cookie: no token in the page, its script, its storage or its address bar.
 */
export function myLoanRoutes(options: MyLoanRoutesOptions): express.Router {
  const router = express.Router();
  const httpsPublicUrl = /^https:\/\//i.test(options.publicUrl ?? '');
  const cookiePath = (res: Response) => `${mountPath(res)}/my-loan`;
  const tokensOf = (req: Request) => (readCookie(req.headers.cookie, options.cookieName) ?? '').split('.').filter((t) => TOKEN.test(t));
  const setTokens = (req: Request, res: Response, tokens: string[]) => {
    const cookie = { httpOnly: true, secure: httpsPublicUrl || req.secure, sameSite: 'lax' as const, path: cookiePath(res) };
    if (tokens.length) res.cookie(options.cookieName, [...new Set(tokens)].join('.'), cookie);
    else res.clearCookie(options.cookieName, cookie);
  };
  const assets = staticAssets(path.dirname(options.bundleFile));
  const bundleName = path.basename(options.bundleFile);

  const headers = hostedPageHeaders(options.frameAncestors, (req) => tokensOf(req).some((t) => t.startsWith('bs_test_')));
  const pageHeaders = (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    headers(req, res, next);
  };
  const page = (req: Request, res: Response, status: number, state: MyLoanPageState) => {
    const tokens = tokensOf(req);
    const mode = req.query.mode === 'test' || (req.query.mode !== 'live' && tokens[0]?.startsWith('bs_test_')) ? 'test' : 'live';
    const hashed = assets.hashed(bundleName);
    res
      .status(status)
      .type('html')
      .send(renderMyLoanPage({ basePath: mountPath(res), state, mode, theme: options.theme, scriptSrc: `${mountPath(res)}/my-loan/${hashed ? `assets/${hashed}` : bundleName}` }));
  };

  router.get('/', pageHeaders, (req, res) => page(req, res, 200, tokensOf(req).length ? 'ready' : 'signed-out'));

  router.get('/s/:token', pageHeaders, (req, res) => {
    const token = String(req.params.token);
    // Cut short when copied, or made up: "not recognised", in the borrower's language (the page says it), never JSON.
    if (!TOKEN.test(token)) return page(req, res, 404, 'unknown');
    // The minted session joins the others (another lender's), replacing none; the token leaves the address bar.
    setTokens(req, res, [token, ...tokensOf(req)]);
    res.redirect(303, `${mountPath(res)}/my-loan/`);
  });

  // The page's bundle: the stable name short-cached, the content-hashed copies immutable, precompressed where built.
  router.get('/my-loan.js', (req, res) => {
    const hashed = assets.hashed(bundleName);
    if (hashed) return assets.send(req, res, hashed, 'short');
    if (!fs.existsSync(options.bundleFile)) return void res.status(404).type('application/javascript').send('// The loan page is not built yet (npm run build:my-loan).\n');
    res.sendFile(options.bundleFile, { maxAge: '5m', headers: { 'content-type': 'application/javascript; charset=utf-8' } });
  });
  router.get('/assets/:file', (req, res) => {
    const name = String(req.params.file);
    if (!assets.isHashed(name)) return fail(res, 404, 'NOT_FOUND', 'No such file (an older build\'s file is gone: reload the page).');
    assets.send(req, res, name, 'immutable');
  });

  router.use('/api', apiRoutes(options, tokensOf, setTokens));

  // Any other address under /my-loan that a browser opens: the page, saying it is not there, in the borrower's language.
  router.get(/.*/, pageHeaders, (req, res) => page(req, res, 404, 'not-found'));
  return router;
}

type TokensOf = (req: Request) => string[];
type SetTokens = (req: Request, res: Response, tokens: string[]) => void;

function apiRoutes(options: MyLoanRoutesOptions, tokensOf: TokensOf, setTokens: SetTokens): express.Router {
  const api = express.Router();
  const { borrower } = options;
  const language = (req: Request) => ({ acceptLanguage: req.get('accept-language') ?? undefined });

  api.use((req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    // Same origin only: the cookie is the credential, so a page of another origin gets nothing (SameSite=Lax keeps
    // other sites' POSTs without it; this also refuses same-site neighbours).
    const origin = req.get('origin');
    if (origin !== undefined && !sameHost(origin, req, options.publicUrl)) return fail(res, 403, 'origin_not_allowed', 'The loan page answers only its own pages.');
    if (req.method === 'POST' && !req.is('application/json')) return fail(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
    next();
  });
  api.use(express.json({ limit: '16kb', strict: true }));

  const pick = (body: unknown, keys: readonly string[]) => {
    const source = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
  };
  const send = (res: Response, answer: { status: number; body: Record<string, unknown>; retryAfter?: string }) => {
    if (answer.retryAfter) res.setHeader('Retry-After', answer.retryAfter);
    res.status(answer.status).json(answer.body);
  };

  // The browser's address as this server sees it (its `trust proxy` setting), for the platform's per-address budget.
  const signIn = (req: Request) => ({ ...language(req), ...(options.signInRelayKey && req.ip ? { relay: { key: options.signInRelayKey, clientIp: req.ip } } : {}) });

  api.post('/sign-in/send', async (req, res) => {
    send(res, await borrower('POST', '/v1/borrower/sign-in/send', undefined, pick(req.body, ['phone', 'mode', 'organisation', 'locale']), signIn(req)));
  });

  // A verified code: the sessions' tokens go into the cookie (replacing any earlier sign-in on this browser); the page
  // gets each session without its token, named by its handle.
  api.post('/sign-in/verify', async (req, res) => {
    const answer = await borrower('POST', '/v1/borrower/sign-in/verify', undefined, pick(req.body, ['phone', 'code', 'mode', 'organisation']), signIn(req));
    const data = answer.body.data as { sessions?: Array<{ token: string } & Record<string, unknown>> } | undefined;
    if (answer.status !== 200 || !Array.isArray(data?.sessions)) return send(res, answer);
    const tokens = data.sessions.map((s) => s.token).filter((t) => TOKEN.test(t));
    setTokens(req, res, tokens);
    res.status(200).json({ ...answer.body, data: { sessions: data.sessions.map(({ token, ...session }) => ({ ...session, handle: sessionHandle(token) })) } });
  });

  // Every session this browser holds is revoked at the platform (best effort: an ended one is ended anyway); the cookie goes.
  api.post('/sign-out', async (req, res) => {
    const tokens = tokensOf(req);
    await Promise.all(tokens.map((token) => borrower('POST', '/v1/borrower/sign-out', token, {})));
    setTokens(req, res, []);
    res.status(200).json({ status: 200, success: true, message: 'Signed out', data: { signedOut: tokens.length } });
  });

  // The page's first read: each session still open, its lender and its loans. Ended sessions leave the cookie.
  api.get('/sessions', async (req, res) => {
    const tokens = tokensOf(req);
    if (!tokens.length) return fail(res, 401, 'borrower_session_missing', 'Not signed in: sign in with your phone number.');
    const read = await Promise.all(
      tokens.map(async (token) => {
        const list = await borrower('GET', '/v1/borrower/loans', token, undefined, language(req));
        if (list.status !== 200) return { token, answer: list };
        const loans = list.body.data as Array<{ id: string }>;
        // The lender's contact is on each loan; the newest one names it for the list.
        const first = loans[0] ? await borrower('GET', `/v1/borrower/loans/${encodeURIComponent(loans[0].id)}`, token, undefined, language(req)) : undefined;
        const lender = first?.status === 200 ? (first.body.data as { lender: unknown }).lender : null;
        return { token, answer: list, session: { handle: sessionHandle(token), mode: token.startsWith('bs_test_') ? 'test' : 'live', lender, loans } };
      }),
    );
    const unavailable = read.find((r) => r.answer.status >= 500);
    if (unavailable) return send(res, unavailable.answer);
    const open = read.filter((r) => r.answer.status === 200);
    if (open.length !== tokens.length) setTokens(req, res, open.map((r) => r.token));
    if (!open.length) return fail(res, 401, 'borrower_session_ended', 'You were signed out: sign in again with your phone number.');
    res.status(200).json({ status: 200, success: true, message: 'Your loans', data: { sessions: open.map((r) => r.session) } });
  });

  // Everything else: forwarded as it is to /v1/borrower/* with the session the handle names (the only one, when one).
  const forward = async (req: Request, res: Response) => {
    const route = req.path;
    if (!FORWARD_PATH.test(route) || route.startsWith('/sign-in')) return fail(res, 404, 'NOT_FOUND', `No route ${req.method} ${req.baseUrl}${route}.`);
    const tokens = tokensOf(req);
    const handle = req.get(SESSION_HANDLE_HEADER);
    const token = handle ? tokens.find((t) => sessionHandle(t) === handle) : tokens.length === 1 ? tokens[0] : undefined;
    if (!token) {
      return tokens.length > 1 && !handle
        ? fail(res, 400, 'invalid_request', `header.${SESSION_HANDLE_HEADER}: required when signed in with more than one lender.`)
        : fail(res, 401, 'borrower_session_missing', 'Not signed in: sign in with your phone number.');
    }
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    if (query.length > 1000) return fail(res, 414, 'invalid_request', 'The query is too long.');
    const answer = await borrower(req.method as 'GET' | 'POST', `/v1/borrower${route}${query}`, token, req.method === 'POST' ? (req.body ?? {}) : undefined, {
      idempotencyKey: req.get('idempotency-key') ?? undefined,
      ...language(req),
    });
    // The session ended at the platform: it leaves the cookie, so the page's next read asks to sign in.
    if (answer.status === 401 && answer.body.error === 'borrower_session_ended') setTokens(req, res, tokens.filter((t) => t !== token));
    send(res, answer);
  };
  api.get(/.*/, forward);
  api.post(/.*/, forward);
  api.use((req: Request, res: Response) => fail(res, 404, 'NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}.`));
  return api;
}

/** The calling page's origin is this server's host (as the request reached it, or the configured public URL's): TLS may end at a proxy, so the host decides, not the scheme. */
function sameHost(origin: string, req: Request, publicUrl: string | undefined): boolean {
  try {
    const host = new URL(origin).host;
    return host === req.get('host') || (publicUrl !== undefined && host === new URL(publicUrl).host);
  } catch {
    return false;
  }
}
