import type { Db } from '../../db/database';
import { AppError } from '../errors';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit } from './audit';
import { revokeAllSessions } from './sessions';
import { normaliseEmail } from './secret-token';

/**
 * Support's way back for a member who asked for a passkey after the password and lost every passkey (`admin user
 * reset-second-factor --email E`, after support has checked who is asking): the switch goes off, every session of
 * the user ends, one audit row per organisation of the user records it. The passkeys stay registered (a found laptop
 * still works); the password is unchanged — a forgotten one goes through the e-mailed reset as usual.
 */
export async function resetSecondFactor(db: Db, options: { email: string; now: Date }): Promise<{ userId: string; email: string; changed: boolean; sessionsEnded: number }> {
  const email = normaliseEmail(options.email);
  return inUnitOfWork(db, async (tx) => {
    const user = await tx.selectFrom('dashboardUsers').select(['id', 'requirePasskey']).where('email', '=', email).executeTakeFirst();
    if (!user) throw new AppError('NOT_FOUND', `no dashboard user with the e-mail ${email}`);
    if (!user.requirePasskey) return { userId: user.id, email, changed: false, sessionsEnded: 0 };
    await tx.updateTable('dashboardUsers').set({ requirePasskey: false }).where('id', '=', user.id).execute();
    const sessionsEnded = await revokeAllSessions(tx, user.id, options.now);
    const memberships = await tx.selectFrom('dashboardMemberships').select('organisationId').where('userId', '=', user.id).execute();
    for (const { organisationId } of memberships) {
      await writeAudit(tx, {
        userId: user.id,
        organisationId,
        action: 'passkey_second_factor_disabled',
        target: `user:${user.id} by operator`,
        origin: { ip: null, userAgent: 'operator CLI' },
        now: options.now,
      });
    }
    return { userId: user.id, email, changed: true, sessionsEnded };
  });
}
