import { AppError } from '../errors';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from './audit';
import type { DashboardServices } from './dashboard-services';
import { beginSecondFactor } from './passkeys';
import { verifyPassword } from './password-hash';
import { normaliseEmail } from './secret-token';
import { createSession } from './sessions';
import { assertSignInAllowed, clearSignInFailures, recordSignInFailure } from './sign-in-throttle';

export interface SignInOptions {
  email: string;
  password: string;
  origin: RequestOrigin;
}

export interface SignedIn {
  token: string;
  expiresAt: string;
  userId: string;
  organisationId: string;
}

/** The password was right, but the user asks a passkey too: no session until `completeSecondFactor` (passkeys.ts). */
export interface SecondFactorPending {
  secondFactor: 'passkey';
  /** For the short-lived httpOnly cookie that binds the passkey step to this browser. */
  pendingToken: string;
  /** For `navigator.credentials.get()`. */
  options: unknown;
}

const refused = () => new AppError('invalid_credentials', 'The e-mail or password is not right.');

/**
 * E-mail + password sign-in. An unknown e-mail is verified against a dummy hash and counted like a wrong password,
 * so its answer, timing and lockout are those of a known one. The session opens in the user's first organisation.
 */
export async function signIn(services: Pick<DashboardServices, 'db' | 'clock' | 'baseUrl'>, options: SignInOptions): Promise<SignedIn | SecondFactorPending> {
  const email = normaliseEmail(options.email);
  const ip = options.origin.ip ?? 'unknown';
  const now = services.clock.now();
  await assertSignInAllowed(services.db, email, ip, now);
  const user = await services.db.selectFrom('dashboardUsers').selectAll().where('email', '=', email).executeTakeFirst();
  const passwordOk = await verifyPassword(user?.passwordHash, options.password);
  if (!user || !passwordOk) {
    await inUnitOfWork(services.db, async (tx) => {
      await recordSignInFailure(tx, email, ip, now);
      await writeAudit(tx, { userId: user?.id ?? null, organisationId: null, action: 'sign_in_failed', target: user ? `user:${user.id}` : null, origin: options.origin, now });
    });
    throw refused();
  }
  if (!user.emailVerifiedAt) throw new AppError('email_not_verified', 'Verify your e-mail first: follow the link we sent you.');
  const membership = await services.db
    .selectFrom('dashboardMemberships')
    .select('organisationId')
    .where('userId', '=', user.id)
    .orderBy('createdAt')
    .orderBy('organisationId')
    .executeTakeFirst();
  if (!membership) throw refused();
  return inUnitOfWork(services.db, async (tx): Promise<SignedIn | SecondFactorPending> => {
    const pending = await beginSecondFactor(services, tx, user, membership.organisationId, now);
    if (pending) return { secondFactor: 'passkey', ...pending };
    await clearSignInFailures(tx, email);
    const session = await createSession(tx, { userId: user.id, organisationId: membership.organisationId, now, ...options.origin });
    await writeAudit(tx, { userId: user.id, organisationId: membership.organisationId, action: 'sign_in', target: `user:${user.id}`, origin: options.origin, now });
    return { token: session.token, expiresAt: session.expiresAt, userId: user.id, organisationId: membership.organisationId };
  });
}
