import type { AccessRealm, AccessSession } from '../access/realm';
import { writeAudit, type AuditAction } from './audit';
import { createSession, type DashboardSession } from './sessions';

/**
 * The organisation dashboard's realm of the access module (`domain/access`): its members, sessions and passkeys in
 * the `dashboard_*` tables, a passkey after the password when the member switched it on, sessions scoped to an
 * organisation (a passwordless sign-in opens the member's first one), audit rows in the organisation's log.
 */
export const partnerRealm: AccessRealm = {
  name: 'partner',
  rpName: 'Lending dashboard',
  tables: { users: 'dashboardUsers', passkeys: 'dashboardPasskeys', sessions: 'dashboardSessions' },
  purposes: { registration: 'registration', signIn: 'sign_in', secondFactor: 'second_factor' },
  throttleKey: (email) => email,
  mayDropPasskey: true,
  async requiresPasskey(db, userId) {
    const user = await db.selectFrom('dashboardUsers').select('requirePasskey').where('id', '=', userId).executeTakeFirst();
    return Boolean(user?.requirePasskey);
  },
  async defaultScope(db, userId) {
    const membership = await db.selectFrom('dashboardMemberships').select('organisationId').where('userId', '=', userId).orderBy('createdAt').orderBy('organisationId').executeTakeFirst();
    return membership?.organisationId;
  },
  createSession: (tx, options) => createSession(tx, { ...options, organisationId: options.scopeId! }),
  audit: (tx, entry) => writeAudit(tx, { userId: entry.userId, organisationId: entry.scopeId, action: entry.action as AuditAction, target: entry.target, origin: entry.origin, now: entry.now }),
};

export const accessSessionOf = (session: DashboardSession): AccessSession => ({ sessionId: session.sessionId, userId: session.userId, email: session.email, scopeId: session.organisationId });
