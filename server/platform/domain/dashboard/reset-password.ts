import { AppError } from '../errors';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from './audit';
import { dashboardLink, sendAfterCommit, type DashboardServices } from './dashboard-services';
import { consumeEmailToken, emailTokenInvalid, endEmailTokens, issueEmailToken } from './email-tokens';
import { hashPassword } from './password-hash';
import { checkPassword } from './password-policy';
import { countAccountRequest } from './request-limits';
import { hashToken, normaliseEmail } from './secret-token';
import { revokeAllSessions } from './sessions';
import { clearSignInFailures } from './sign-in-throttle';

/**
 * Sends a reset link when the e-mail has an account; the caller gets the same answer either way. Limited per e-mail
 * and per address (`request-limits.ts`, counted whether or not the account exists). The new link ends every earlier
 * one: only the newest link in the mailbox works.
 */
export async function requestPasswordReset(services: DashboardServices, options: { email: string; origin: RequestOrigin }): Promise<void> {
  const email = normaliseEmail(options.email);
  const now = services.clock.now();
  await countAccountRequest(services.db, 'password_reset', { email, ip: options.origin.ip ?? 'unknown' }, now);
  const user = await services.db.selectFrom('dashboardUsers').select('id').where('email', '=', email).executeTakeFirst();
  if (!user) return;
  const token = await inUnitOfWork(services.db, async (tx) => {
    await writeAudit(tx, { userId: user.id, organisationId: null, action: 'password_reset_requested', target: `user:${user.id}`, origin: options.origin, now });
    await endEmailTokens(tx, user.id, 'reset_password', now);
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
 * verified; every session of the user ends, every other reset link of the user stops working and the sign-in lockout
 * clears. The link is looked up before anything else (an unknown one costs no password hash). A rejected password
 * changes nothing and leaves the link usable. Answers whether this was the account's first password (an owner made by the
 * sandbox bootstrap or the operator sets theirs from such a link), so the page can say "set" rather than "changed".
 */
export async function resetPassword(services: Pick<DashboardServices, 'db' | 'clock'>, options: { token: string; password: string; origin: RequestOrigin }): Promise<{ firstPassword: boolean }> {
  const now = services.clock.now();
  const pending = await services.db
    .selectFrom('dashboardEmailTokens as t')
    .innerJoin('dashboardUsers as u', 'u.id', 't.userId')
    .select(['u.email'])
    .where('t.id', '=', hashToken(options.token))
    .where('t.purpose', '=', 'reset_password')
    .where('t.usedAt', 'is', null)
    .where('t.expiresAt', '>', now.toISOString())
    .executeTakeFirst();
  if (!pending) throw emailTokenInvalid();
  const verdict = checkPassword(options.password, { email: pending.email });
  if (!verdict.ok) throw new AppError('password_rejected', verdict.message!, undefined, { problem: verdict.problem });
  const passwordHash = await hashPassword(options.password);
  return inUnitOfWork(services.db, async (tx) => {
    const userId = await consumeEmailToken(tx, options.token, 'reset_password', now);
    const user = await tx.selectFrom('dashboardUsers').select(['email', 'emailVerifiedAt', 'passwordHash']).where('id', '=', userId).executeTakeFirstOrThrow();
    await tx.updateTable('dashboardUsers').set({ passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now.toISOString() }).where('id', '=', userId).execute();
    await revokeAllSessions(tx, userId, now);
    await endEmailTokens(tx, userId, 'reset_password', now);
    await clearSignInFailures(tx, user.email);
    await writeAudit(tx, { userId, organisationId: null, action: 'password_reset', target: `user:${userId}`, origin: options.origin, now });
    return { firstPassword: user.passwordHash === null };
  });
}
