import { AppError } from '../errors';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from './audit';
import { dashboardLink, sendAfterCommit, type DashboardServices } from './dashboard-services';
import { consumeEmailToken, issueEmailToken } from './email-tokens';
import { hashPassword } from './password-hash';
import { checkPassword } from './password-policy';
import { hashToken, normaliseEmail } from './secret-token';
import { revokeAllSessions } from './sessions';
import { clearSignInFailures } from './sign-in-throttle';

/** Sends a reset link when the e-mail has an account; the caller gets the same answer either way. */
export async function requestPasswordReset(services: DashboardServices, options: { email: string; origin: RequestOrigin }): Promise<void> {
  const email = normaliseEmail(options.email);
  const now = services.clock.now();
  const user = await services.db.selectFrom('dashboardUsers').select('id').where('email', '=', email).executeTakeFirst();
  if (!user) return;
  const token = await inUnitOfWork(services.db, async (tx) => {
    await writeAudit(tx, { userId: user.id, organisationId: null, action: 'password_reset_requested', target: `user:${user.id}`, origin: options.origin, now });
    return issueEmailToken(tx, user.id, 'reset_password', now);
  });
  sendAfterCommit(services, {
    to: email,
    subject: 'Reset your dashboard password',
    text: `Choose a new password:\n\n${dashboardLink(services, 'reset-password', token)}\n\nThe link works for one hour. If you did not ask for this, ignore this message: your password is unchanged.`,
  });
}

/**
 * Sets a new password from a reset (or set-password) link: the link proves the mailbox, so the e-mail counts as
 * verified; every session of the user ends and the sign-in lockout clears. A rejected password changes nothing
 * and leaves the link usable.
 */
export async function resetPassword(services: Pick<DashboardServices, 'db' | 'clock'>, options: { token: string; password: string; origin: RequestOrigin }): Promise<void> {
  const now = services.clock.now();
  const pending = await services.db
    .selectFrom('dashboardEmailTokens as t')
    .innerJoin('dashboardUsers as u', 'u.id', 't.userId')
    .select(['u.email'])
    .where('t.id', '=', hashToken(options.token))
    .executeTakeFirst();
  const verdict = checkPassword(options.password, { email: pending?.email });
  if (!verdict.ok) throw new AppError('password_rejected', verdict.message!, undefined, { problem: verdict.problem });
  const passwordHash = await hashPassword(options.password);
  await inUnitOfWork(services.db, async (tx) => {
    const userId = await consumeEmailToken(tx, options.token, 'reset_password', now);
    const user = await tx.selectFrom('dashboardUsers').select(['email', 'emailVerifiedAt']).where('id', '=', userId).executeTakeFirstOrThrow();
    await tx.updateTable('dashboardUsers').set({ passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now.toISOString() }).where('id', '=', userId).execute();
    await revokeAllSessions(tx, userId, now);
    await clearSignInFailures(tx, user.email);
    await writeAudit(tx, { userId, organisationId: null, action: 'password_reset', target: `user:${userId}`, origin: options.origin, now });
  });
}
