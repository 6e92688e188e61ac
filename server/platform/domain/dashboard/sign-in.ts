import { AppError } from '../errors';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from './audit';
import type { DashboardServices } from './dashboard-services';
import { verifyPassword } from './password-hash';
import { normaliseEmail } from './secret-token';
import { openDashboardSession, type SecondFactorPending, type SignedIn } from './session-gate';
import { reserveSignInAttempt, signInAttemptSucceeded } from './sign-in-throttle';

export interface SignInOptions {
  email: string;
  password: string;
  origin: RequestOrigin;
}

export type { SignedIn, SecondFactorPending } from './session-gate';

const refused = () => new AppError('invalid_credentials', 'The e-mail or password is not right.');

/**
 * E-mail + password sign-in. The attempt is counted before the password is verified (`reserveSignInAttempt`), so
 * parallel wrong passwords cannot get past the lockout. An unknown e-mail is verified against a dummy hash and counted
 * like a wrong password, so its answer, timing and lockout are those of a known one. The session opens in the user's
 * first organisation, through the session gate (which asks the passkey when the user wants one).
 */
export async function signIn(services: Pick<DashboardServices, 'db' | 'clock' | 'baseUrl'>, options: SignInOptions): Promise<SignedIn | SecondFactorPending> {
  const email = normaliseEmail(options.email);
  const ip = options.origin.ip ?? 'unknown';
  const now = services.clock.now();
  const attempt = await reserveSignInAttempt(services.db, email, ip, now);
  const user = await services.db.selectFrom('dashboardUsers').selectAll().where('email', '=', email).executeTakeFirst();
  const passwordOk = await verifyPassword(user?.passwordHash, options.password);
  if (!user || !passwordOk) {
    // The reserved attempt stays: it is the recorded failure.
    await writeAudit(services.db, { userId: user?.id ?? null, organisationId: null, action: 'sign_in_failed', target: user ? `user:${user.id}` : null, origin: options.origin, now });
    throw refused();
  }
  await signInAttemptSucceeded(services.db, attempt);
  if (!user.emailVerifiedAt) throw new AppError('email_not_verified', 'Verify your e-mail first: follow the link we sent you.');
  const membership = await services.db
    .selectFrom('dashboardMemberships')
    .select('organisationId')
    .where('userId', '=', user.id)
    .orderBy('createdAt')
    .orderBy('organisationId')
    .executeTakeFirst();
  if (!membership) throw refused();
  return inUnitOfWork(services.db, (tx) =>
    openDashboardSession(services, tx, {
      user,
      organisationId: membership.organisationId,
      proof: 'password',
      origin: options.origin,
      now,
      audit: { action: 'sign_in', target: `user:${user.id}` },
    }),
  );
}
