import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from './audit';
import type { DashboardServices } from './dashboard-services';
import { revokeAllSessions, revokeSession, type DashboardSession } from './sessions';

/** Ends this session. */
export async function signOut(services: Pick<DashboardServices, 'db' | 'clock'>, session: DashboardSession, origin: RequestOrigin): Promise<void> {
  const now = services.clock.now();
  await inUnitOfWork(services.db, async (tx) => {
    await revokeSession(tx, session.sessionId, now);
    await writeAudit(tx, { userId: session.userId, organisationId: session.organisationId, action: 'sign_out', target: `user:${session.userId}`, origin, now });
  });
}

/** Ends every session of the user, on every device and in every organisation. */
export async function signOutEverywhere(services: Pick<DashboardServices, 'db' | 'clock'>, session: DashboardSession, origin: RequestOrigin): Promise<number> {
  const now = services.clock.now();
  return inUnitOfWork(services.db, async (tx) => {
    const ended = await revokeAllSessions(tx, session.userId, now);
    await writeAudit(tx, { userId: session.userId, organisationId: session.organisationId, action: 'sign_out_everywhere', target: `user:${session.userId}`, origin, now });
    return ended;
  });
}
