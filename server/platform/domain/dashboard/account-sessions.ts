import type { Executor } from '../../db/database';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from './sessions';

export interface ActiveSession {
  /** The session row's id (the token's hash): compared with the caller's, never sent to the browser. */
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
}

/** The user's sessions still alive (not revoked, not idle 30 minutes, not past 12 hours), newest first, at most 50. */
export async function listActiveSessions(db: Executor, userId: string, now: Date): Promise<ActiveSession[]> {
  const at = now.toISOString();
  const idleSince = new Date(now.getTime() - SESSION_IDLE_MS).toISOString();
  const since = new Date(now.getTime() - SESSION_ABSOLUTE_MS).toISOString();
  return db
    .selectFrom('dashboardSessions')
    .select(['id', 'createdAt', 'lastSeenAt', 'expiresAt', 'ip', 'userAgent'])
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', at)
    .where('createdAt', '>', since)
    .where('lastSeenAt', '>', idleSince)
    .orderBy('createdAt', 'desc')
    .limit(50)
    .execute();
}
