import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import type { CheckoutTheme } from '../../widget/theme';
import { RETURNED_LOAN_PARAM } from '../shared/mandate-return';
import { readCookie } from '../shared/read-cookie';
import { checkoutPageCsp, renderCheckoutPage, type PageState } from './page';
import type { PlatformCall } from './platform-client';
import { widgetFileRoutes } from './widget-files';

const TOKEN = /^cs_(test|live)_[0-9A-Za-z]{40}$/;

/** Records where the checkout server is mounted, as the request reached it (nested routers see a longer `baseUrl`). */
export function rememberMountPath(req: Request, res: Response, next: NextFunction): void {
  res.locals.checkoutBase = req.baseUrl;
  next();
}

export const mountPath = (res: Response): string => res.locals.checkoutBase as string;

/** The mount point's public URL: `publicUrl` when configured, else as the request reached it. */
export const mountUrl = (req: Request, res: Response, publicUrl: string | undefined): string =>
  (publicUrl ?? `${req.protocol}://${req.get('host')}${mountPath(res)}`).replace(/\/$/, '');

/**
 * The widget this code was built with: `dist/widget/` beside the built server (`dist/server/main.js`)
 * or package entry (`dist/checkout-server/index.js`); run from source, the project's `dist/widget/`.
 */
export function defaultWidgetFile(): string {
  const besideBuild = fileURLToPath(new URL('../widget/checkout.js', import.meta.url));
  return fs.existsSync(besideBuild) ? besideBuild : path.resolve('dist/widget/checkout.js');
}

/**
 * The headers of a page this server hosts (the checkout's, the borrower's loan page): the checkout's content policy
 * (`testSession` lets a test-mode page reach the sandbox's pages), no referrer, and the opener kept — a partner page
 * may open it with window.open and listen for its events (postMessage goes only to allowed origins, and the
 * same-origin policy still applies).
 */
export function hostedPageHeaders(frameAncestors: string[] | undefined, testSession: (req: Request) => boolean): RequestHandler {
  const otherHeaders = helmet({ contentSecurityPolicy: false, referrerPolicy: { policy: 'no-referrer' }, crossOriginOpenerPolicy: { policy: 'unsafe-none' } });
  return (req, res, next) => {
    res.setHeader('Content-Security-Policy', checkoutPageCsp({ testSession: testSession(req), frameAncestors }));
    otherHeaders(req, res, next);
  };
}

export interface HostedPageOptions {
  platform: PlatformCall;
  cookieName: string;
  widgetFile: string;
  publicUrl?: string;
  theme?: CheckoutTheme;
  frameAncestors?: string[];
}

/** Status of the page for what the server saw: the widget shows the state either way. */
const PAGE_STATUS: Record<PageState, number> = { ready: 200, missing: 200, returned: 200, unavailable: 502, expired: 401, revoked: 401, unknown: 401 };

/**
 * The hosted page: `/c/<token>` (the link from the SMS or the partner) moves the token into an
 * httpOnly cookie; `/` serves the page with the state the server saw; the widget bundle, its
 * content-hashed copies and the locale files (`widget-files.ts`) are served beside it.
 */
export function hostedPageRoutes(options: HostedPageOptions): express.Router {
  const router = express.Router();
  const widgetFiles = widgetFileRoutes(options.widgetFile);
  const cookiePath = (res: Response) => `${mountPath(res)}/`;
  // Behind a TLS-terminating proxy `req.secure` is false unless trust proxy is set: an https public URL decides instead.
  const httpsPublicUrl = /^https:\/\//i.test(options.publicUrl ?? '');

  const pageHeaders = hostedPageHeaders(options.frameAncestors, (req) => readCookie(req.headers.cookie, options.cookieName)?.startsWith('cs_test_') ?? false);

  router.get('/c/:token', pageHeaders, (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = String(req.params.token);
    if (!TOKEN.test(token)) {
      // Not a token at all (cut short when copied, or made up): "not recognised", never "expired".
      res.status(404).type('html').send(renderCheckoutPage({ basePath: mountPath(res), state: 'unknown', theme: options.theme }));
      return;
    }
    res.cookie(options.cookieName, token, { httpOnly: true, secure: httpsPublicUrl || req.secure, sameSite: 'lax', path: cookiePath(res) });
    res.redirect(303, `${mountPath(res)}/`);
  });

  router.get('/', pageHeaders, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = readCookie(req.headers.cookie, options.cookieName);
    const seen = token ? await sessionState(options.platform, token) : undefined;
    let state: PageState = seen?.state ?? 'missing';
    if (req.query.return === 'mandate') {
      // Back from the bank: the cookie's session is shown only when it is the loan whose mandate was decided. The tab an
      // embedded checkout opened has no cookie, and a shared phone may hold another borrower's: both get "back from your bank".
      const returnedFor = req.query[RETURNED_LOAN_PARAM];
      if (!seen || seen.loanId === undefined || seen.loanId !== returnedFor) state = 'returned';
    }
    const hashedWidget = widgetFiles.hashedWidget();
    const widgetSrc = hashedWidget ? `${mountPath(res)}/assets/${hashedWidget}` : undefined;
    res.status(PAGE_STATUS[state]).type('html').send(renderCheckoutPage({ basePath: mountPath(res), state, theme: options.theme, widgetSrc }));
  });

  router.use(widgetFiles.router);
  return router;
}

/** Opening (or coming back to) the page counts as activity: it extends the session, within its cap. */
async function sessionState(platform: PlatformCall, token: string): Promise<{ state: PageState; loanId?: string }> {
  const answer = await platform('POST', '/v1/checkout/session/refresh', token, {});
  if (answer.status === 200) return { state: 'ready', loanId: (answer.body.data as { loanId?: string } | undefined)?.loanId };
  if (answer.body.error === 'checkout_session_revoked') return { state: 'revoked' };
  if (answer.body.error === 'UNAUTHENTICATED') return { state: 'unknown' };
  return { state: answer.status === 401 ? 'expired' : 'unavailable' };
}
