import type { Request, Response } from 'express';
import { z } from 'zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { readCookie } from '../../../shared/read-cookie';
import {
  completeSecondFactor,
  DASHBOARD_PASSKEY_RULES,
  listPasskeys,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  registerPasskey,
  removePasskey,
  renamePasskey,
  requiresPasskey,
  SECOND_FACTOR_COOKIE,
  setRequirePasskey,
  signInWithPasskey,
  type PasskeySignedIn,
} from '../../domain/dashboard/passkeys';
import { listActiveSessions } from '../../domain/dashboard/account-sessions';
import { hashToken } from '../../domain/dashboard/secret-token';
import type { DashboardArea } from './kit';

/**
 * Passkeys of the signed-in user (register, list, rename, remove), the account's security settings (ask a passkey
 * after the password; the user's active sessions), and passkey sign-in: passwordless, or as the second step after the
 * password (`POST /sign-in` answered `{ secondFactor: 'passkey', options }` and set a pending cookie).
 *
 * These are the user's own, in every organisation and either mode: they need a session (and its CSRF token on
 * changes) but no role and no mode. Removing a passkey is behind the page's confirmation and the CSRF token (no
 * password re-entry: a passkey-only user has none to type).
 */
const Name = z.string().trim().min(1).max(DASHBOARD_PASSKEY_RULES.nameMaxLength);
/** The browser's `PublicKeyCredential.toJSON()`; @simplewebauthn verifies every field. */
const Credential = z.object({
  id: z.string().min(1).max(1400),
  rawId: z.string().min(1).max(1400),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().min(1).max(4000) }),
  authenticatorAttachment: z.string().max(40).optional(),
  clientExtensionResults: z.looseObject({}).optional().default({}),
});
const Id = z.string().min(1).max(1400);

export const passkeysRoutes: DashboardArea = (router, kit) => {
  const { platform } = kit;
  const secure = (req: Request) => platform.baseUrl.startsWith('https:') || req.secure;

  const signedIn = (req: Request, res: Response, opened: PasskeySignedIn) => kit.signedIn(req, res, opened, 'Signed in.');

  router.get('/passkeys', async (req, res) => {
    const { session } = await kit.session(req, { csrf: false });
    kit.ok(res, 200, 'Your passkeys.', { passkeys: await listPasskeys(platform.db, session.userId), requirePasskey: await requiresPasskey(platform.db, session.userId) });
  });

  router.post('/passkeys/registration-options', async (req, res) => {
    const { session } = await kit.session(req, { csrf: true });
    kit.parse(z.object({}).strict(), req.body);
    kit.ok(res, 200, 'Create the passkey in the browser, then send its answer to POST /passkeys.', await passkeyRegistrationOptions(platform, session));
  });

  router.post('/passkeys', async (req, res) => {
    const { session } = await kit.session(req, { csrf: true });
    const body = kit.parse(z.object({ response: Credential, name: Name.optional() }).strict(), req.body);
    const passkey = await registerPasskey(platform, session, { response: body.response as unknown as RegistrationResponseJSON, name: body.name }, kit.origin(req));
    kit.ok(res, 201, 'Passkey added.', passkey);
  });

  router.patch('/passkeys/:id', async (req, res) => {
    const { session } = await kit.session(req, { csrf: true });
    const id = kit.parse(Id, req.params.id);
    const body = kit.parse(z.object({ name: Name }).strict(), req.body);
    kit.ok(res, 200, 'Passkey renamed.', await renamePasskey(platform, session, id, body.name, kit.origin(req)));
  });

  router.delete('/passkeys/:id', async (req, res) => {
    const { session } = await kit.session(req, { csrf: true });
    const id = kit.parse(Id, req.params.id);
    await removePasskey(platform, session, id, kit.origin(req));
    kit.ok(res, 200, 'Passkey removed.');
  });

  router.patch('/account/security', async (req, res) => {
    const { session } = await kit.session(req, { csrf: true });
    const body = kit.parse(z.object({ requirePasskey: z.boolean() }).strict(), req.body);
    await setRequirePasskey(platform, session, body.requirePasskey, kit.origin(req));
    kit.ok(res, 200, body.requirePasskey ? 'A passkey is now asked after your password.' : 'Your password alone signs you in again.', { requirePasskey: body.requirePasskey });
  });

  router.get('/account/sessions', async (req, res) => {
    const { session, token } = await kit.session(req, { csrf: false });
    const current = hashToken(token);
    const sessions = await listActiveSessions(platform.db, session.userId, platform.clock.now());
    kit.ok(
      res,
      200,
      'Your active sessions.',
      sessions.map(({ id, ...rest }) => ({ ...rest, current: id === current })),
    );
  });

  router.post('/passkeys/sign-in/options', async (req, res) => {
    kit.parse(z.object({}).strict(), req.body);
    kit.ok(res, 200, 'Choose a passkey in the browser, then send its answer to POST /passkeys/sign-in/verify.', await passkeySignInOptions(platform, kit.origin(req)));
  });

  router.post('/passkeys/sign-in/verify', async (req, res) => {
    const body = kit.parse(z.object({ response: Credential }).strict(), req.body);
    signedIn(req, res, await signInWithPasskey(platform, { response: body.response as unknown as AuthenticationResponseJSON, origin: kit.origin(req) }));
  });

  router.post('/passkeys/second-factor/verify', async (req, res) => {
    const body = kit.parse(z.object({ response: Credential }).strict(), req.body);
    const pendingToken = readCookie(req.get('cookie'), SECOND_FACTOR_COOKIE);
    // Whatever the outcome, the pending step is over (its challenge is used): a new attempt starts with the password.
    res.clearCookie(SECOND_FACTOR_COOKIE, { httpOnly: true, secure: secure(req), sameSite: 'strict', path: '/dashboard' });
    signedIn(req, res, await completeSecondFactor(platform, { pendingToken, response: body.response as unknown as AuthenticationResponseJSON, origin: kit.origin(req) }));
  });
};
