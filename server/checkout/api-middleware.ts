import express, { type NextFunction, type Request, type Response } from 'express';
import { readCookie } from '../shared/read-cookie';
import { embeddingCors, SESSION_HEADER } from './embedding-cors';
import type { PlatformCall } from './platform-client';

/** The JSON envelope of a refusal by the checkout server itself. */
export function fail(res: Response, status: number, error: string, message: string): void {
  res.status(status).json({ status, success: false, message, error });
}

/** `allowedOrigins` is configuration: checked once, when the router is created. */
export function checkOrigins(origins: string[]): Set<string> {
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

export interface ApiMiddlewareOptions {
  platform: PlatformCall;
  cookieName: string;
  allowedOrigins: ReadonlySet<string>;
  organisationOrigins: boolean;
}

/**
 * What runs before every JSON endpoint, in order: CORS for pages of other origins that embed the
 * checkout (`embedding-cors.ts`, decided before anything runs); `no-store`; POSTs must be JSON
 * (with SameSite=Lax that keeps other sites from posting with the cookie); the body parser; the
 * session credential into `res.locals.token` — the `Authorization: CheckoutSession` header
 * (embedded), or the httpOnly cookie (hosted; never for a cross-origin call).
 */
export function apiMiddleware(options: ApiMiddlewareOptions): express.Router {
  const router = express.Router();
  router.use(
    embeddingCors({
      allowedOrigins: options.allowedOrigins,
      organisationOrigins: options.organisationOrigins,
      settings: (token) => options.platform('GET', '/v1/checkout/settings', token),
    }),
  );
  router.use((req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    if (req.method === 'POST' && !req.is('application/json')) return fail(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
    next();
  });
  router.use(express.json({ limit: '16kb', strict: true }));
  router.use((req: Request, res: Response, next: NextFunction) => {
    const header = req.get('authorization');
    const fromHeader = header === undefined ? undefined : SESSION_HEADER.exec(header)?.[1];
    if (header !== undefined && !fromHeader) return fail(res, 401, 'checkout_session_missing', 'The Authorization header must be CheckoutSession <token>.');
    const token = fromHeader ?? (res.locals.crossOrigin ? undefined : readCookie(req.headers.cookie, options.cookieName));
    if (!token) return fail(res, 401, 'checkout_session_missing', 'No checkout session: open the link the lender sent you.');
    res.locals.token = token;
    next();
  });
  return router;
}
