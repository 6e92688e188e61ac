import type { Request, Response } from 'express';
import { z } from 'zod';
import { readCookie } from '../../../shared/read-cookie';
import { AppError } from '../../domain/errors';
import type { RequestOrigin } from '../../domain/access/realm';
import type { SecondFactorPending } from '../../domain/access/session-gate';
import { PASSKEY_RULES } from '../../domain/access/passkeys';
import { csrfTokenFor, csrfTokenMatches, SESSION_ABSOLUTE_MS } from '../../domain/dashboard/sessions';
import type { StaffServices, StaffSignedIn } from '../../domain/ops/staff-accounts';
import type { StaffActor } from '../../domain/ops/four-eyes';
import { lookupStaffSession, type StaffSession } from '../../domain/ops/staff-sessions';
import { requireStaffPermission, type StaffAction } from '../../domain/ops/staff-permissions';
import type { Platform } from '../../platform';
import { successBody } from '../envelope';

/** The console's session cookie: httpOnly, SameSite=Lax, `Secure` when the public origin is https, scoped to /ops. */
export const OPS_COOKIE = 'ops_session';
/** The pending "password right, passkey still to come" step (httpOnly, SameSite=Strict, /ops, 5 minutes). */
export const OPS_SECOND_FACTOR_COOKIE = 'ops_second_factor';
export const CSRF_HEADER = 'x-csrf-token';

export interface StaffCaller {
  session: StaffSession;
  token: string;
  actor: StaffActor;
}

/**
 * What every console route uses: the staff session from the `ops_session` cookie and nothing else (a dashboard
 * cookie or an API key is not looked at: 401 `session_required`), the CSRF token on changes, the role's permission.
 * An enrolment session (an invitation accepted where a passkey is asked, none registered yet) may only register
 * its passkey: anything else answers 403 `dashboard_passkey_needed`.
 */
export function opsKit(platform: Platform) {
  const services: StaffServices = { db: platform.db, clock: platform.clock, baseUrl: platform.baseUrl, passkeyAlways: platform.config.OPS_PASSKEY_REQUIRED ?? platform.config.APP_ENV === 'production' };
  const origin = (req: Request): RequestOrigin => ({ ip: req.ip ?? req.socket.remoteAddress ?? null, userAgent: req.get('user-agent') ?? null });
  const secure = (req: Request) => platform.baseUrl.startsWith('https:') || req.secure;

  async function session(req: Request, options: { csrf: boolean; enrolment?: boolean }): Promise<StaffCaller> {
    const token = readCookie(req.get('cookie'), OPS_COOKIE);
    const found = token ? await lookupStaffSession(platform.db, token, platform.clock.now(), { passkeyAlways: services.passkeyAlways }) : undefined;
    if (!token || !found) throw new AppError('session_required', 'Sign in to the operations console.');
    if (options.csrf && !csrfTokenMatches(token, req.get(CSRF_HEADER))) {
      throw new AppError('csrf_token_invalid', 'Missing or wrong X-CSRF-Token header: read it from GET /ops/api/session.');
    }
    const enrolling = !found.passkeyVerified && (services.passkeyAlways || (await requiresOwnPasskey(found.userId)));
    if (enrolling && !options.enrolment) throw new AppError('dashboard_passkey_needed', 'Register your passkey first: the console asks one of every staff member.');
    return { session: found, token, actor: { staffId: found.userId, email: found.email, role: found.role, origin: origin(req) } };
  }

  async function requiresOwnPasskey(userId: string): Promise<boolean> {
    const account = await platform.db.selectFrom('staffAccounts').select('requirePasskey').where('id', '=', userId).executeTakeFirst();
    return Boolean(account?.requirePasskey);
  }

  return {
    platform,
    services,
    origin,
    secure,
    session,
    /** A signed-in staff member allowed to do `action`; GET/HEAD need no CSRF token. */
    async caller(req: Request, action: StaffAction): Promise<StaffCaller> {
      const state = req.method !== 'GET' && req.method !== 'HEAD';
      const found = await session(req, { csrf: state });
      requireStaffPermission(found.session, action);
      return found;
    },
    parse<T extends z.ZodType>(schema: T, value: unknown, where: 'body' | 'query' | 'path' = 'body'): z.output<T> {
      const parsed = schema.safeParse(value ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new AppError('invalid_request', `${[where, ...issue.path.map(String)].join('.')}: ${issue.message}`, undefined, where === 'body' && issue.path.length ? { field: issue.path.map(String).join('.') } : undefined);
      }
      return parsed.data;
    },
    ok: (res: Response, status: number, message: string, data?: unknown) => void res.status(status).json(successBody(status, message, data)),
    page: (res: Response, message: string, page: { data: unknown[]; nextCursor: string | null }) => void res.status(200).json({ ...successBody(200, message, page.data), nextCursor: page.nextCursor }),
    /** Answers a sign-in: the session cookie and its CSRF token, or only the pending passkey step's cookie and options. */
    signedIn(req: Request, res: Response, opened: StaffSignedIn | SecondFactorPending, message: string): void {
      if ('secondFactor' in opened) {
        res.cookie(OPS_SECOND_FACTOR_COOKIE, opened.pendingToken, { httpOnly: true, secure: secure(req), sameSite: 'strict', path: '/ops', maxAge: PASSKEY_RULES.secondFactorLifetimeMs });
        res.status(200).json(successBody(200, 'Now confirm with your passkey.', { secondFactor: 'passkey', options: opened.options }));
        return;
      }
      res.cookie(OPS_COOKIE, opened.token, { httpOnly: true, secure: secure(req), sameSite: 'lax', path: '/ops', maxAge: SESSION_ABSOLUTE_MS });
      res.status(200).json(successBody(200, message, { csrfToken: csrfTokenFor(opened.token), expiresAt: opened.expiresAt, enrolment: opened.enrolment }));
    },
    clearSession(req: Request, res: Response): void {
      res.clearCookie(OPS_COOKIE, { httpOnly: true, secure: secure(req), sameSite: 'lax', path: '/ops' });
    },
  };
}

export type OpsKit = ReturnType<typeof opsKit>;
