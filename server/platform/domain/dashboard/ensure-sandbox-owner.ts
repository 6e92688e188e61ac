import type { Db } from '../../db/database';
import { newId } from '../ids';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit } from './audit';
import { issueEmailToken } from './email-tokens';
import { normaliseEmail } from './secret-token';

/** The sandbox owner's set-password link works for 7 days (a newcomer may start the server and come back later). */
export const SANDBOX_OWNER_LINK_MS = 7 * 24 * 3600_000;

/**
 * On a sandbox start: makes sure the sandbox organisation has an owner who can reach the dashboard. The first start
 * creates the user (e-mail verified: the operator chose it) with no password, and every start while the password is
 * still unset issues a fresh one-time set-password token (a reset token; `POST /dashboard/api/password-reset`).
 * Answers the token to print, or undefined once the owner has a password.
 */
export async function ensureSandboxOwner(
  db: Db,
  /** `by`: what the audit row names as the creator (default the sandbox bootstrap). */
  options: { organisationId: string; email: string; now: Date; by?: string },
): Promise<{ email: string; created: boolean; setPasswordToken: string } | undefined> {
  const email = normaliseEmail(options.email);
  return inUnitOfWork(db, async (tx) => {
    const owner = await tx
      .selectFrom('dashboardMemberships as m')
      .innerJoin('dashboardUsers as u', 'u.id', 'm.userId')
      .select(['u.id', 'u.email', 'u.passwordHash'])
      .where('m.organisationId', '=', options.organisationId)
      .where('m.role', '=', 'owner')
      .orderBy('m.createdAt')
      .executeTakeFirst();
    if (owner?.passwordHash) return undefined;
    const at = options.now.toISOString();
    let userId = owner?.id;
    if (!userId) {
      userId = newId();
      await tx.insertInto('dashboardUsers').values({ id: userId, email, passwordHash: null, emailVerifiedAt: at, createdAt: at }).execute();
      await tx.insertInto('dashboardMemberships').values({ userId, organisationId: options.organisationId, role: 'owner', createdAt: at }).execute();
      await writeAudit(tx, { userId, organisationId: options.organisationId, action: 'owner_created', target: `user:${userId}`, origin: { ip: null, userAgent: options.by ?? 'sandbox bootstrap' }, now: options.now });
    }
    const setPasswordToken = await issueEmailToken(tx, userId, 'reset_password', options.now, SANDBOX_OWNER_LINK_MS);
    return { email: owner?.email ?? email, created: !owner, setPasswordToken };
  });
}
