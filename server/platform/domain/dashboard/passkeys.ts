import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Executor } from '../../db/database';
import * as access from '../access/passkeys';
import { openPasskeySession } from '../access/session-gate';
import { accessSessionOf, partnerRealm } from './access-realm';
import type { RequestOrigin } from './audit';
import type { DashboardServices } from './dashboard-services';
import type { DashboardSession } from './sessions';

/**
 * Passkeys of dashboard users: the access module's passkeys (`domain/access/passkeys.ts`) in the partner realm —
 * registration by a signed-in user, passwordless sign-in with a discoverable credential, and the passkey as a second
 * factor after the password. The relying party is the platform's public base URL (`PUBLIC_BASE_URL`).
 */
export const DASHBOARD_PASSKEY_RULES = access.PASSKEY_RULES;

type Services = Pick<DashboardServices, 'db' | 'clock' | 'baseUrl'>;

export type RelyingParty = access.RelyingParty;
export type DashboardPasskey = access.Passkey;

export const dashboardRelyingParty = (baseUrl: string): RelyingParty => access.relyingParty(baseUrl, partnerRealm.rpName);

export interface PasskeySignedIn {
  token: string;
  expiresAt: string;
  userId: string;
  organisationId: string;
}

export const listPasskeys = (db: Executor, userId: string) => access.listPasskeys(partnerRealm, db, userId);
export const requiresPasskey = (db: Executor, userId: string) => access.accountAsksPasskey(partnerRealm, db, userId);

export const passkeyRegistrationOptions = (services: Services, session: DashboardSession) => access.passkeyRegistrationOptions(partnerRealm, services, accessSessionOf(session));

export const registerPasskey = (services: Services, session: DashboardSession, input: { response: RegistrationResponseJSON; name?: string | undefined }, origin: RequestOrigin) =>
  access.registerPasskey(partnerRealm, services, accessSessionOf(session), input, origin);

export const renamePasskey = (services: Services, session: DashboardSession, id: string, name: string, origin: RequestOrigin) =>
  access.renamePasskey(partnerRealm, services, accessSessionOf(session), id, name, origin);

/** Removes one of the user's own passkeys; not the last one while a passkey is asked after the password. */
export const removePasskey = (services: Services, session: DashboardSession, id: string, origin: RequestOrigin) => access.removePasskey(partnerRealm, services, accessSessionOf(session), id, origin);

/** Switches "ask for a passkey after the password" on (needs a passkey) or off; see `access.setRequirePasskey`. */
export const setRequirePasskey = (services: Services, session: DashboardSession, on: boolean, origin: RequestOrigin) =>
  access.setRequirePasskey(partnerRealm, services, accessSessionOf(session), on, origin);

export const passkeySignInOptions = (services: Services, origin: RequestOrigin) => access.passkeySignInOptions(partnerRealm, services, origin);

/** A verified passkey opens a session in the organisation the gate names. */
const openSession =
  (services: Services): access.OpenVerifiedSession<PasskeySignedIn> =>
  async (tx, options) => {
    const opened = await openPasskeySession(partnerRealm, services, tx, options);
    return { token: opened.token, expiresAt: opened.expiresAt, userId: opened.userId, organisationId: opened.scopeId! };
  };

/** Passwordless sign-in: the assertion of a discoverable passkey against a `sign_in` challenge. Opens a session. */
export const signInWithPasskey = (services: Services, input: { response: AuthenticationResponseJSON; origin: RequestOrigin }) =>
  access.signInWithPasskey(partnerRealm, services, openSession(services), input);

/** The name of the short-lived cookie that carries a pending second-factor sign-in (httpOnly, path /dashboard). */
export const SECOND_FACTOR_COOKIE = 'dashboard_second_factor';

export const beginSecondFactor = (services: Pick<DashboardServices, 'baseUrl'>, tx: Executor, user: { id: string }, organisationId: string, now: Date) =>
  access.beginSecondFactor(partnerRealm, services, tx, user, organisationId, now);

/** The second step: the assertion must answer the challenge bound to this browser's pending sign-in, with one of that user's passkeys. */
export const completeSecondFactor = (services: Services, input: { pendingToken: string | undefined; response: AuthenticationResponseJSON; origin: RequestOrigin }) =>
  access.completeSecondFactor(partnerRealm, services, openSession(services), input);
