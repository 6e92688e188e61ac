import type { Executor } from '../../db/database';
import type { DashboardServices } from '../dashboard/dashboard-services';
import { clearSignInFailures } from '../dashboard/sign-in-throttle';
import { beginSecondFactor, refusedPasskey } from './passkeys';
import type { AccessRealm, RequestOrigin } from './realm';

/** A session was opened: the cookie's token and what the answer tells the browser. */
export interface GateOpened {
  token: string;
  expiresAt: string;
  userId: string;
  scopeId: string | null;
}

/** The password was right, but a passkey must follow: no session until `completeSecondFactor` (passkeys.ts). */
export interface SecondFactorPending {
  secondFactor: 'passkey';
  /** For the short-lived httpOnly cookie that binds the passkey step to this browser. */
  pendingToken: string;
  /** For `navigator.credentials.get()`. */
  options: unknown;
}

/**
 * What the person proved on the way in: `password` (the password form, the invitation form) or `passkey` (a
 * passwordless passkey, or the passkey step after a password; a passkey with user verification is two factors).
 */
export type SignInProof = 'password' | 'passkey';

/**
 * The one way a session of either realm is opened. Every path that signs a person in ends here, so the second factor
 * applies whatever the path: a person who must show a passkey after the password and proved only the password gets
 * the pending passkey step instead of a session. The session records whether a passkey was verified for it, and
 * each realm's session look-up refuses a session without one while a passkey is asked, so a path that forgot this
 * gate would still grant nothing. Runs inside the caller's transaction; a successful sign-in clears the e-mail's
 * failures.
 */
export async function openSessionThroughGate(
  realm: AccessRealm,
  services: Pick<DashboardServices, 'baseUrl'>,
  tx: Executor,
  options: {
    user: { id: string; email: string };
    scopeId: string | null;
    proof: SignInProof;
    origin: RequestOrigin;
    now: Date;
    audit: { action: string; target: string };
  },
): Promise<GateOpened | SecondFactorPending> {
  const { user, scopeId, now, origin } = options;
  if (options.proof === 'password') {
    const pending = await beginSecondFactor(realm, services, tx, user, scopeId, now);
    if (pending) return { secondFactor: 'passkey', ...pending };
  }
  await clearSignInFailures(tx, realm.throttleKey(user.email));
  const session = await realm.createSession(tx, { userId: user.id, scopeId, now, passkeyVerified: options.proof === 'passkey', ...origin });
  await realm.audit(tx, { userId: user.id, scopeId, action: options.audit.action, target: options.audit.target, origin, now });
  return { token: session.token, expiresAt: session.expiresAt, userId: user.id, scopeId };
}

/** The gate for a verified passkey (it is two factors): always a session. */
export async function openPasskeySession(
  realm: AccessRealm,
  services: Pick<DashboardServices, 'baseUrl'>,
  tx: Executor,
  options: { user: { id: string; email: string }; scopeId: string | null; origin: RequestOrigin; now: Date; audit: { action: string; target: string } },
): Promise<GateOpened> {
  const opened = await openSessionThroughGate(realm, services, tx, { ...options, proof: 'passkey' });
  if ('secondFactor' in opened) throw refusedPasskey();
  return opened;
}
