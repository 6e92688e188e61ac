import type { AccessRealm, AccessSession } from '../access/realm';
import { writeStaffAudit, type StaffAuditAction } from './staff-audit';
import { createStaffSession, type StaffSession } from './staff-sessions';

/**
 * The operations console's realm of the access module (`domain/access`): staff accounts, sessions and passkeys in
 * the `staff_*` tables (apart from partner accounts), no organisation, audit rows in the staff audit log. In the
 * production profile (`passkeyAlways`) a passkey after the password is asked of every staff member and cannot be
 * switched off; elsewhere it is the account's choice, as on the dashboard.
 */
export function staffRealm(options: { passkeyAlways: boolean }): AccessRealm {
  return {
    name: 'staff',
    rpName: 'Operations console',
    // The staff tables have the dashboard tables' columns (migration 0050).
    tables: { users: 'staffAccounts' as 'dashboardUsers', passkeys: 'staffPasskeys' as 'dashboardPasskeys', sessions: 'staffSessions' as 'dashboardSessions' },
    purposes: { registration: 'staff_registration', signIn: 'staff_sign_in', secondFactor: 'staff_second_factor' },
    throttleKey: (email) => `staff:${email}`,
    mayDropPasskey: !options.passkeyAlways,
    async requiresPasskey(db, userId) {
      if (options.passkeyAlways) return true;
      const account = await db.selectFrom('staffAccounts').select('requirePasskey').where('id', '=', userId).executeTakeFirst();
      return Boolean(account?.requirePasskey);
    },
    async defaultScope(db, userId) {
      const account = await db.selectFrom('staffAccounts').select('disabledAt').where('id', '=', userId).executeTakeFirst();
      return account && !account.disabledAt ? null : undefined;
    },
    createSession: (tx, o) => createStaffSession(tx, { userId: o.userId, now: o.now, ip: o.ip, userAgent: o.userAgent, passkeyVerified: o.passkeyVerified }),
    audit: (tx, entry) => writeStaffAudit(tx, { staffId: entry.userId, action: entry.action as StaffAuditAction, target: entry.target, origin: entry.origin, now: entry.now }),
  };
}

export const accessSessionOfStaff = (session: StaffSession): AccessSession => ({ sessionId: session.sessionId, userId: session.userId, email: session.email, scopeId: null });
