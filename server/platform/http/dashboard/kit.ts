import type express from 'express';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { readCookie } from '../../../shared/read-cookie';
import type { Mode } from '../../domain/scope';
import { AppError } from '../../domain/errors';
import type { RequestOrigin } from '../../domain/dashboard/audit';
import { csrfTokenFor, csrfTokenMatches, lookupSession, SESSION_ABSOLUTE_MS, type DashboardSession } from '../../domain/dashboard/sessions';
import { DASHBOARD_PASSKEY_RULES, SECOND_FACTOR_COOKIE } from '../../domain/dashboard/passkeys';
import type { SecondFactorPending, SignedIn } from '../../domain/dashboard/session-gate';
import { requirePermission, type DashboardAction } from '../../domain/dashboard/permissions';
import { findOrganisation } from '../../domain/organisations/organisation';
import type { Platform } from '../../platform';
import { successBody } from '../envelope';

/** The dashboard's session cookie: httpOnly, SameSite=Lax, `Secure` when the public origin is https, scoped to /dashboard. */
export const DASHBOARD_COOKIE = 'dashboard_session';
/** The header every state-changing dashboard request carries once signed in (the value `GET /dashboard/api/session` answers). */
export const CSRF_HEADER = 'x-csrf-token';
/**
 * Which of the organisation's two worlds a dashboard request reads or changes: `test` (the default) or `live`. The
 * header wins; `?mode=` serves plain links (a CSV download). Live needs the organisation to be live-enabled.
 */
export const MODE_HEADER = 'x-dashboard-mode';

/** A signed-in dashboard request: the session (organisation and role come from it and nowhere else), the mode, where it came from. */
export interface DashboardCaller {
  session: DashboardSession;
  /** The cookie's token (only account routes need it). */
  token: string;
  mode: Mode;
  origin: RequestOrigin;
}

export interface DashboardKit {
  platform: Platform;
  /**
   * The signed-in caller allowed to do `action` (`null`: any signed-in member, e.g. their own passkeys). Checks, in
   * order: session (401 `session_required`), CSRF token on anything but GET/HEAD (403 `csrf_token_invalid`), the role
   * (403 `dashboard_permission_denied`), the mode (403 `LIVE_MODE_NOT_ENABLED`). Nothing is read or written before.
   */
  caller(req: Request, action: DashboardAction | null): Promise<DashboardCaller>;
  /** The session without permission or mode checks (account routes). */
  session(req: Request, options: { csrf: boolean }): Promise<{ session: DashboardSession; token: string }>;
  ok(res: Response, status: number, message: string, data?: unknown): void;
  /** A keyset page (`keyset.ts`): `data` is the rows, `nextCursor` beside it (null on the last page). */
  page(res: Response, message: string, page: { data: unknown[]; nextCursor: string | null }): void;
  /** Zod-parses a body or query; the first issue becomes 400 `invalid_request` naming `body.<path>` (or `query.<path>`). */
  parse<T extends z.ZodType>(schema: T, value: unknown, where?: 'body' | 'query'): z.output<T>;
  origin(req: Request): RequestOrigin;
  /**
   * Answers a sign-in of any path: the session cookie and its CSRF token, or — when the account asks a passkey after
   * the password — only the pending step's short-lived cookie and the options for `navigator.credentials.get()`.
   */
  signedIn(req: Request, res: Response, opened: SignedIn | SecondFactorPending, message: string): void;
}

/** One area of the dashboard (keys, products, …): registers its routes on the `/dashboard/api` router. */
export type DashboardArea = (router: express.Router, kit: DashboardKit) => void;

export function dashboardKit(platform: Platform): DashboardKit {
  const origin = (req: Request): RequestOrigin => ({ ip: req.ip ?? req.socket.remoteAddress ?? null, userAgent: req.get('user-agent') ?? null });

  const session: DashboardKit['session'] = async (req, options) => {
    const token = readCookie(req.get('cookie'), DASHBOARD_COOKIE);
    const found = token ? await lookupSession(platform.db, token, platform.clock.now()) : undefined;
    if (!token || !found) throw new AppError('session_required', 'Sign in to the dashboard.');
    if (options.csrf && !csrfTokenMatches(token, req.get(CSRF_HEADER))) {
      throw new AppError('csrf_token_invalid', 'Missing or wrong X-CSRF-Token header: read it from GET /dashboard/api/session.');
    }
    return { session: found, token };
  };

  const parse: DashboardKit['parse'] = (schema, value, where = 'body') => {
    const parsed = schema.safeParse(value ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      // `data.field` is the refused field's path in the body, so a form can show the message beside it.
      throw new AppError('invalid_request', `${[where, ...issue.path.map(String)].join('.')}: ${issue.message}`, undefined, where === 'body' && issue.path.length ? { field: issue.path.map(String).join('.') } : undefined);
    }
    return parsed.data;
  };

  const ModeValue = z.enum(['test', 'live']);
  const signedIn: DashboardKit['signedIn'] = (req, res, opened, message) => {
    const secure = platform.baseUrl.startsWith('https:') || req.secure;
    if ('secondFactor' in opened) {
      res.cookie(SECOND_FACTOR_COOKIE, opened.pendingToken, { httpOnly: true, secure, sameSite: 'strict', path: '/dashboard', maxAge: DASHBOARD_PASSKEY_RULES.secondFactorLifetimeMs });
      res.status(200).json(successBody(200, 'Now confirm with your passkey.', { secondFactor: 'passkey', options: opened.options }));
      return;
    }
    res.cookie(DASHBOARD_COOKIE, opened.token, { httpOnly: true, secure, sameSite: 'lax', path: '/dashboard', maxAge: SESSION_ABSOLUTE_MS });
    res.status(200).json(successBody(200, message, { csrfToken: csrfTokenFor(opened.token), organisationId: opened.organisationId, expiresAt: opened.expiresAt }));
  };
  return {
    platform,
    session,
    parse,
    origin,
    signedIn,
    ok: (res, status, message, data) => void res.status(status).json(successBody(status, message, data)),
    page: (res, message, page) => void res.status(200).json({ ...successBody(200, message, page.data), nextCursor: page.nextCursor }),
    async caller(req, action) {
      const state = req.method !== 'GET' && req.method !== 'HEAD';
      const { session: found, token } = await session(req, { csrf: state });
      if (action) requirePermission(found, action);
      const asked = req.get(MODE_HEADER) ?? (typeof req.query.mode === 'string' ? req.query.mode : undefined) ?? 'test';
      const mode = ModeValue.safeParse(asked);
      if (!mode.success) throw new AppError('invalid_request', `${MODE_HEADER}: must be test or live`);
      if (mode.data === 'live') {
        const organisation = await findOrganisation(platform.db, found.organisationId);
        if (!organisation?.liveEnabled) {
          throw new AppError('LIVE_MODE_NOT_ENABLED', 'Live mode is not enabled for this organisation yet (an operator enables it after its checks); use test mode meanwhile.');
        }
      }
      return { session: found, token, mode: mode.data, origin: origin(req) };
    },
  };
}
