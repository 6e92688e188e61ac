import express, { type Request } from 'express';
import { z } from 'zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { readCookie } from '../../shared/read-cookie';
import { AppError } from '../domain/errors';
import * as access from '../domain/access/passkeys';
import { openPasskeySession } from '../domain/access/session-gate';
import { PASSWORD_MAX_LENGTH } from '../domain/dashboard/password-policy';
import { csrfTokenFor, } from '../domain/dashboard/sessions';
import { acceptStaffInvitation, describeStaffInvitation, signInStaff, type StaffSignedIn } from '../domain/ops/staff-accounts';
import { writeStaffAudit } from '../domain/ops/staff-audit';
import { accessSessionOfStaff, staffRealm } from '../domain/ops/staff-realm';
import { revokeStaffSession } from '../domain/ops/staff-sessions';
import { inUnitOfWork } from '../domain/unit-of-work';
import type { Platform } from '../platform';
import { opsKit, OPS_SECOND_FACTOR_COOKIE } from './ops/kit';
import { opsWorkRoutes } from './ops/work';
import { opsChargeRoutes } from './ops/charges';
import { insurancePolicyBodyParser, opsInsurancePolicyRoutes } from './ops/insurance-policies';
import { opsSettlementRoutes } from './ops/settlements';
import { opsLiveReadinessRoutes } from './ops/live-readiness';

const Email = z.string().trim().min(3).max(254).pipe(z.email());
const Password = z.string().min(1).max(PASSWORD_MAX_LENGTH * 4);
const Token = z.string().min(16).max(200);
const Credential = z.object({
  id: z.string().min(1).max(1400),
  rawId: z.string().min(1).max(1400),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().min(1).max(4000) }),
  authenticatorAttachment: z.string().max(40).optional(),
  clientExtensionResults: z.looseObject({}).optional().default({}),
});

/** A page served by this host is same-origin too (as the dashboard's router). */
function sameHost(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}

/**
 * The operations console's API (`/ops/api/…`), for the service's own staff only. Its session is the `ops_session`
 * cookie (path /ops): a dashboard session, a partner's API key or any other credential opens nothing here, and a
 * staff session opens nothing on the dashboard or the API. CSRF as the dashboard: JSON bodies only, a foreign
 * `Origin` refused, `X-CSRF-Token` on every change once signed in.
 */
export function createOpsRouter(platform: Platform): express.Router {
  const router = express.Router();
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
  // The one larger body: a policy document, base64 (its own limit); every other body stays within 16 KB.
  router.use('/insurance-policies', insurancePolicyBodyParser(opsKit(platform)));
  router.use(express.json({ limit: 16 * 1024, strict: true }));

  const kit = opsKit(platform);
  const { services } = kit;
  const realm = staffRealm(services);
  const openSession: access.OpenVerifiedSession<StaffSignedIn> = async (tx, options) => ({ ...(await openPasskeySession(realm, services, tx, options)), enrolment: false });

  router.post('/sign-in', async (req, res) => {
    const body = kit.parse(z.object({ email: Email, password: Password }).strict(), req.body);
    kit.signedIn(req, res, await signInStaff(services, { ...body, origin: kit.origin(req) }), 'Signed in.');
  });

  router.post('/invitation', async (req, res) => {
    const body = kit.parse(z.object({ token: Token }).strict(), req.body);
    kit.ok(res, 200, 'The invitation.', await describeStaffInvitation(services, body.token));
  });

  router.post('/accept-invitation', async (req, res) => {
    const body = kit.parse(z.object({ token: Token, password: Password }).strict(), req.body);
    const opened = await acceptStaffInvitation(services, { ...body, origin: kit.origin(req) });
    kit.signedIn(req, res, opened, opened.enrolment ? 'Welcome: now register your passkey.' : 'Welcome: you are signed in.');
  });

  router.get('/session', async (req, res) => {
    const { session, token } = await kit.session(req, { csrf: false, enrolment: true });
    const enrolment = !session.passkeyVerified && (services.passkeyAlways || (await access.accountAsksPasskey(realm, platform.db, session.userId)));
    kit.ok(res, 200, 'Signed in.', { staff: { id: session.userId, email: session.email, role: session.role }, csrfToken: csrfTokenFor(token), expiresAt: session.expiresAt, enrolment });
  });

  router.post('/sign-out', async (req, res) => {
    const { session, actor } = await kit.session(req, { csrf: true, enrolment: true });
    const now = platform.clock.now();
    await inUnitOfWork(platform.db, async (tx) => {
      await revokeStaffSession(tx, session.sessionId, now);
      await writeStaffAudit(tx, { staffId: session.userId, action: 'sign_out', target: `user:${session.userId}`, origin: actor.origin, now });
    });
    kit.clearSession(req, res);
    kit.ok(res, 200, 'Signed out.');
  });

  router.get('/passkeys', async (req, res) => {
    const { session } = await kit.session(req, { csrf: false, enrolment: true });
    kit.ok(res, 200, 'Your passkeys.', { passkeys: await access.listPasskeys(realm, platform.db, session.userId), passkeyAlways: services.passkeyAlways });
  });

  router.post('/passkeys/registration-options', async (req, res) => {
    const { session } = await kit.session(req, { csrf: true, enrolment: true });
    kit.parse(z.object({}).strict(), req.body);
    kit.ok(res, 200, 'Create the passkey in the browser, then send its answer to POST /passkeys.', await access.passkeyRegistrationOptions(realm, services, accessSessionOfStaff(session)));
  });

  router.post('/passkeys', async (req, res) => {
    const { session, actor } = await kit.session(req, { csrf: true, enrolment: true });
    const body = kit.parse(z.object({ response: Credential, name: z.string().trim().min(1).max(access.PASSKEY_RULES.nameMaxLength).optional() }).strict(), req.body);
    const passkey = await access.registerPasskey(realm, services, accessSessionOfStaff(session), { response: body.response as unknown as RegistrationResponseJSON, name: body.name }, actor.origin);
    // A passkey made with user verification in this session verifies it (an enrolment session may act from now on).
    await access.markSessionPasskeyVerified(realm, platform.db, session.sessionId, platform.clock.now());
    kit.ok(res, 201, 'Passkey added.', passkey);
  });

  router.delete('/passkeys/:id', async (req, res) => {
    const { session, actor } = await kit.session(req, { csrf: true });
    const id = kit.parse(z.string().min(1).max(1400), req.params.id, 'path');
    await access.removePasskey(realm, services, accessSessionOfStaff(session), id, actor.origin);
    kit.ok(res, 200, 'Passkey removed.');
  });

  router.post('/passkeys/sign-in/options', async (req, res) => {
    kit.parse(z.object({}).strict(), req.body);
    kit.ok(res, 200, 'Choose a passkey in the browser, then send its answer to POST /passkeys/sign-in/verify.', await access.passkeySignInOptions(realm, services, kit.origin(req)));
  });

  router.post('/passkeys/sign-in/verify', async (req, res) => {
    const body = kit.parse(z.object({ response: Credential }).strict(), req.body);
    kit.signedIn(req, res, await access.signInWithPasskey(realm, services, openSession, { response: body.response as unknown as AuthenticationResponseJSON, origin: kit.origin(req) }), 'Signed in.');
  });

  router.post('/passkeys/second-factor/verify', async (req: Request, res) => {
    const body = kit.parse(z.object({ response: Credential }).strict(), req.body);
    const pendingToken = readCookie(req.get('cookie'), OPS_SECOND_FACTOR_COOKIE);
    res.clearCookie(OPS_SECOND_FACTOR_COOKIE, { httpOnly: true, secure: kit.secure(req), sameSite: 'strict', path: '/ops' });
    kit.signedIn(req, res, await access.completeSecondFactor(realm, services, openSession, { pendingToken, response: body.response as unknown as AuthenticationResponseJSON, origin: kit.origin(req) }), 'Signed in.');
  });

  opsWorkRoutes(router, kit);
  opsChargeRoutes(router, kit);
  opsInsurancePolicyRoutes(router, kit);
  opsSettlementRoutes(router, kit);
  opsLiveReadinessRoutes(router, kit);

  router.use((req) => {
    throw new AppError('NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}.`);
  });
  return router;
}
