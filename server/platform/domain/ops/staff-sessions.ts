import type { Executor } from '../../db/database';
import type { StaffRole } from '../../db/schema';
import { hashToken, newSecretToken } from '../dashboard/secret-token';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../dashboard/sessions';

/** `last_seen_at` is written at most once a minute per session. */
const TOUCH_EVERY_MS = 60_000;

/** A signed-in staff member. Same lifetimes as a dashboard session: 30 minutes idle, 12 hours at most. */
export interface StaffSession {
  sessionId: string;
  userId: string;
  email: string;
  role: StaffRole;
  /** Whether a passkey was verified (or registered) for this session. */
  passkeyVerified: boolean;
  createdAt: string;
  expiresAt: string;
}

/** Opens a staff session and answers the cookie's token (only its hash is stored). */
export async function createStaffSession(
  db: Executor,
  options: { userId: string; now: Date; ip: string | null; userAgent: string | null; passkeyVerified: boolean },
): Promise<{ token: string; sessionId: string; expiresAt: string }> {
  const token = newSecretToken();
  const at = options.now.toISOString();
  const expiresAt = new Date(options.now.getTime() + SESSION_ABSOLUTE_MS).toISOString();
  const sessionId = hashToken(token);
  await db
    .insertInto('staffSessions')
    .values({
      id: sessionId,
      userId: options.userId,
      createdAt: at,
      lastSeenAt: at,
      expiresAt,
      revokedAt: null,
      ip: options.ip?.slice(0, 100) ?? null,
      userAgent: options.userAgent?.slice(0, 500) ?? null,
      passkeyVerifiedAt: options.passkeyVerified ? at : null,
    })
    .execute();
  return { token, sessionId, expiresAt };
}

/**
 * The live staff session a cookie token names, or undefined (unknown, revoked, idle, expired, the account disabled,
 * or the account asks a passkey and none was verified for this session — except `enrolment`, a session opened by
 * accepting an invitation whose only use is to register the first passkey: `passkeyVerified` says which).
 */
export async function lookupStaffSession(db: Executor, token: string, now: Date, options: { passkeyAlways: boolean }): Promise<StaffSession | undefined> {
  const sessionId = hashToken(token);
  const row = await db
    .selectFrom('staffSessions as s')
    .innerJoin('staffAccounts as a', 'a.id', 's.userId')
    .select(['s.userId', 's.createdAt', 's.lastSeenAt', 's.expiresAt', 's.revokedAt', 's.passkeyVerifiedAt', 'a.role', 'a.email', 'a.requirePasskey', 'a.disabledAt'])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
  if (!row || row.revokedAt || row.disabledAt) return undefined;
  const nowMs = now.getTime();
  if (nowMs >= Date.parse(row.expiresAt)) return undefined;
  if (nowMs - Date.parse(row.lastSeenAt) >= SESSION_IDLE_MS) return undefined;
  // An account that asks a passkey (itself, or the production profile for everyone) and has one registered: a
  // session without a verified passkey is no session. Without any passkey yet it is an enrolment session.
  if ((row.requirePasskey || options.passkeyAlways) && !row.passkeyVerifiedAt) {
    const passkey = await db.selectFrom('staffPasskeys').select('id').where('userId', '=', row.userId).executeTakeFirst();
    if (passkey) return undefined;
  }
  if (nowMs - Date.parse(row.lastSeenAt) >= TOUCH_EVERY_MS) {
    await db.updateTable('staffSessions').set({ lastSeenAt: now.toISOString() }).where('id', '=', sessionId).execute();
  }
  return { sessionId, userId: row.userId, email: row.email, role: row.role, passkeyVerified: Boolean(row.passkeyVerifiedAt), createdAt: row.createdAt, expiresAt: row.expiresAt };
}

export async function revokeStaffSession(db: Executor, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('staffSessions').set({ revokedAt: now.toISOString() }).where('id', '=', sessionId).where('revokedAt', 'is', null).execute();
}
