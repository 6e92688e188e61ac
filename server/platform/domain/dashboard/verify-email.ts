import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from './audit';
import type { DashboardServices } from './dashboard-services';
import { consumeEmailToken } from './email-tokens';

/** Follows a verification link: marks the user's e-mail verified (once; the link is single-use). */
export async function verifyEmail(services: Pick<DashboardServices, 'db' | 'clock'>, options: { token: string; origin: RequestOrigin }): Promise<void> {
  const now = services.clock.now();
  await inUnitOfWork(services.db, async (tx) => {
    const userId = await consumeEmailToken(tx, options.token, 'verify_email', now);
    await tx.updateTable('dashboardUsers').set({ emailVerifiedAt: now.toISOString() }).where('id', '=', userId).where('emailVerifiedAt', 'is', null).execute();
    await writeAudit(tx, { userId, organisationId: null, action: 'email_verified', target: `user:${userId}`, origin: options.origin, now });
  });
}
