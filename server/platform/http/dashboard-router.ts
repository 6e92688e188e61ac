import express, { type Request, type Response } from 'express';
import { z } from 'zod';
import { AppError } from '../domain/errors';
import { findOrganisation } from '../domain/organisations/organisation';
import { PASSWORD_MAX_LENGTH } from '../domain/dashboard/password-policy';
import { requestPasswordReset, resetPassword } from '../domain/dashboard/reset-password';
import { csrfTokenFor } from '../domain/dashboard/sessions';
import { signIn } from '../domain/dashboard/sign-in';
import { signOut, signOutEverywhere } from '../domain/dashboard/sign-out';
import { signUp } from '../domain/dashboard/sign-up';
import { verifyEmail } from '../domain/dashboard/verify-email';
import type { Platform } from '../platform';
import { DASHBOARD_COOKIE, dashboardKit, type DashboardArea } from './dashboard/kit';
import { keysRoutes } from './dashboard/keys';
import { teamRoutes } from './dashboard/team';
import { passkeysRoutes } from './dashboard/passkeys';
import { productsRoutes } from './dashboard/products';
import { poolRoutes } from './dashboard/pool';
import { loansRoutes } from './dashboard/loans';
import { reviewsRoutes } from './dashboard/reviews';
import { webhooksRoutes } from './dashboard/webhooks';
import { checkoutRoutes } from './dashboard/checkout';
import { settlementsRoutes } from './dashboard/settlements';
import { usageRoutes } from './dashboard/usage';
import { appointmentsRoutes } from './dashboard/appointments';
import { financingRoutes } from './dashboard/financing';
import { auditRoutes } from './dashboard/audit';
import { overviewRoutes } from './dashboard/overview';
import { organisationRoutes } from './dashboard/organisation';

const DASHBOARD_AREAS: DashboardArea[] = [
  keysRoutes,
  teamRoutes,
  passkeysRoutes,
  productsRoutes,
  poolRoutes,
  loansRoutes,
  reviewsRoutes,
  webhooksRoutes,
  checkoutRoutes,
  settlementsRoutes,
  usageRoutes,
  appointmentsRoutes,
  financingRoutes,
  auditRoutes,
  overviewRoutes,
  organisationRoutes,
];

export { DASHBOARD_COOKIE, CSRF_HEADER } from './dashboard/kit';

const Email = z.string().trim().min(3).max(254).pipe(z.email());
// The policy (length, common list) is checked by the domain; the schema only bounds the input.
const Password = z.string().min(1).max(PASSWORD_MAX_LENGTH * 4);
const Token = z.string().min(16).max(200);

/** A page served by this host (e.g. reached as 127.0.0.1 while PUBLIC_BASE_URL says localhost) is same-origin too. */
function sameHost(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}

/**
 * Account and session routes of the organisation dashboard (`/dashboard/api/…`). Never an API key: the browser holds
 * only the session cookie. CSRF defence:
 * - every POST must be `application/json` (a cross-site form cannot send it without a CORS preflight, which this
 *   router never answers), and a browser's `Origin`, when sent, must be the public origin or this request's host;
 * - once signed in, every state-changing request also carries `X-CSRF-Token`, an HMAC of the session token
 *   (`csrfTokenFor`), compared in constant time.
 */
export function createDashboardRouter(platform: Platform): express.Router {
  const router = express.Router();
  const secureCookie = (req: Request) => platform.baseUrl.startsWith('https:') || req.secure;
  const publicOrigin = () => new URL(platform.baseUrl).origin;

  router.use((req, _res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (!req.is('application/json')) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
      const origin = req.get('origin');
      if (origin !== undefined && origin !== publicOrigin() && !sameHost(origin, req.get('host'))) {
        throw new AppError('csrf_token_invalid', 'This request came from another site.');
      }
    }
    next();
  });
  router.use(express.json({ limit: 16 * 1024, strict: true }));

  const kit = dashboardKit(platform);
  const { parse, ok } = kit;
  const originOf = kit.origin;
  const sessionOf = kit.session;
  const clearCookie = (req: Request, res: Response) =>
    res.clearCookie(DASHBOARD_COOKIE, { httpOnly: true, secure: secureCookie(req), sameSite: 'lax', path: '/dashboard' });

  router.post('/sign-up', async (req, res) => {
    const body = parse(z.object({ email: Email, password: Password, organisationName: z.string().trim().min(1).max(150) }).strict(), req.body);
    await signUp(platform, { ...body, origin: originOf(req) });
    ok(res, 202, 'Check your inbox: we sent a link to verify your e-mail.');
  });

  router.post('/verify-email', async (req, res) => {
    const body = parse(z.object({ token: Token }).strict(), req.body);
    await verifyEmail(platform, { token: body.token, origin: originOf(req) });
    ok(res, 200, 'E-mail verified: you can sign in.');
  });

  router.post('/sign-in', async (req, res) => {
    const body = parse(z.object({ email: Email, password: Password }).strict(), req.body);
    // Password right and a passkey still to come: no session cookie, only the pending step's (passkeys.ts).
    kit.signedIn(req, res, await signIn(platform, { ...body, origin: originOf(req) }), 'Signed in.');
  });

  router.post('/password-reset/request', async (req, res) => {
    const body = parse(z.object({ email: Email }).strict(), req.body);
    await requestPasswordReset(platform, { email: body.email, origin: originOf(req) });
    ok(res, 202, 'If this e-mail has an account, we sent it a link to choose a new password.');
  });

  router.post('/password-reset', async (req, res) => {
    const body = parse(z.object({ token: Token, password: Password }).strict(), req.body);
    const { firstPassword } = await resetPassword(platform, { ...body, origin: originOf(req) });
    clearCookie(req, res);
    ok(res, 200, firstPassword ? 'Password set: sign in with it.' : 'Password changed: sign in with the new one. Every other session has ended.', { firstPassword });
  });

  router.get('/session', async (req, res) => {
    const { session, token } = await sessionOf(req, { csrf: false });
    const organisation = await findOrganisation(platform.db, session.organisationId);
    ok(res, 200, 'Signed in.', {
      user: { id: session.userId, email: session.email },
      role: session.role,
      organisation: organisation && { id: organisation.id, name: organisation.name, liveEnabled: organisation.liveEnabled },
      csrfToken: csrfTokenFor(token),
      expiresAt: session.expiresAt,
    });
  });

  router.post('/sign-out', async (req, res) => {
    const { session } = await sessionOf(req, { csrf: true });
    await signOut(platform, session, originOf(req));
    clearCookie(req, res);
    ok(res, 200, 'Signed out.');
  });

  router.post('/sign-out-everywhere', async (req, res) => {
    const { session } = await sessionOf(req, { csrf: true });
    const ended = await signOutEverywhere(platform, session, originOf(req));
    clearCookie(req, res);
    ok(res, 200, 'Signed out on every device.', { sessionsEnded: ended });
  });

  // The pages' areas, one file each under ./dashboard/ (every route checks its permission with kit.caller).
  for (const area of DASHBOARD_AREAS) area(router, kit);

  router.use((req) => {
    throw new AppError('NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}.`);
  });
  return router;
}
