import crypto from 'node:crypto';
import type { Executor } from '../../db/database';
import type { DashboardRole } from '../../db/schema';
import { hashToken, newSecretToken } from './secret-token';

/** A session ends after 30 minutes without a request, and 12 hours after sign-in whatever happens. */
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 3600_000;
/** `last_seen_at` is written at most once a minute per session (a dashboard page fires several requests at once). */
const TOUCH_EVERY_MS = 60_000;

export interface DashboardSession {
  sessionId: string;
  userId: string;
  email: string;
  organisationId: string;
  role: DashboardRole;
  createdAt: string;
  expiresAt: string;
}

/** Opens a session and answers the cookie's token (only its hash is stored). */
export async function createSession(
  db: Executor,
  options: { userId: string; organisationId: string; now: Date; ip: string | null; userAgent: string | null; passkeyVerified: boolean },
): Promise<{ token: string; sessionId: string; expiresAt: string }> {
  const token = newSecretToken();
  const at = options.now.toISOString();
  const expiresAt = new Date(options.now.getTime() + SESSION_ABSOLUTE_MS).toISOString();
  const sessionId = hashToken(token);
  await db
    .insertInto('dashboardSessions')
    .values({
      id: sessionId,
      userId: options.userId,
      organisationId: options.organisationId,
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
 * The live session a cookie token names, or undefined (unknown, revoked, idle 30 minutes, past 12 hours, the
 * membership it was opened under is gone, or the user asks a passkey after the password and none was verified for this
 * session). The organisation comes from the session row and nowhere else.
 */
export async function lookupSession(db: Executor, token: string, now: Date): Promise<DashboardSession | undefined> {
  const sessionId = hashToken(token);
  const row = await db
    .selectFrom('dashboardSessions as s')
    .innerJoin('dashboardMemberships as m', (j) => j.onRef('m.userId', '=', 's.userId').onRef('m.organisationId', '=', 's.organisationId'))
    .innerJoin('dashboardUsers as u', 'u.id', 's.userId')
    .select(['s.userId', 's.organisationId', 's.createdAt', 's.lastSeenAt', 's.expiresAt', 's.revokedAt', 's.passkeyVerifiedAt', 'm.role', 'u.email', 'u.requirePasskey'])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
  if (!row || row.revokedAt) return undefined;
  if (row.requirePasskey && !row.passkeyVerifiedAt) return undefined;
  const nowMs = now.getTime();
  if (nowMs >= Date.parse(row.expiresAt)) return undefined;
  if (nowMs - Date.parse(row.lastSeenAt) >= SESSION_IDLE_MS) return undefined;
  if (nowMs - Date.parse(row.lastSeenAt) >= TOUCH_EVERY_MS) {
    await db.updateTable('dashboardSessions').set({ lastSeenAt: now.toISOString() }).where('id', '=', sessionId).execute();
  }
  return { sessionId, userId: row.userId, email: row.email, organisationId: row.organisationId, role: row.role, createdAt: row.createdAt, expiresAt: row.expiresAt };
}

/**
 * The session's CSRF token: an HMAC of the cookie's token, so it needs no storage, changes with every session, and a
 * page on another origin cannot compute it (it cannot read the httpOnly cookie). The dashboard sends it back in the
 * `X-CSRF-Token` header on every state-changing request.
 */
export function csrfTokenFor(sessionToken: string): string {
  return crypto.createHmac('sha256', sessionToken).update('dashboard-csrf-v1').digest('base64url');
}

export function csrfTokenMatches(sessionToken: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(csrfTokenFor(sessionToken));
  const given = Buffer.from(presented);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

export async function revokeSession(db: Executor, sessionId: string, now: Date): Promise<void> {
  await db.updateTable('dashboardSessions').set({ revokedAt: now.toISOString() }).where('id', '=', sessionId).where('revokedAt', 'is', null).execute();
}

/** Revokes every session of the user (all organisations, all devices): "sign out everywhere", and after a password reset. */
export async function revokeAllSessions(db: Executor, userId: string, now: Date): Promise<number> {
  const result = await db.updateTable('dashboardSessions').set({ revokedAt: now.toISOString() }).where('userId', '=', userId).where('revokedAt', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}
