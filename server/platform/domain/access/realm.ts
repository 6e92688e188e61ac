import type { Executor } from '../../db/database';
import type { DashboardChallengePurpose } from '../../db/schema';

/** Where a request came from, written with every audit row (the dashboard's and the console's). */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

/**
 * One population of people who sign in: `partner` (organisation dashboard members) or `staff` (the service's own
 * operations staff). The access module (`passkeys.ts`, `session-gate.ts`) is written once against this description;
 * each realm keeps its own tables, so a partner's session, passkey or challenge never opens the console, nor a staff
 * one the dashboard. The staff tables have the dashboard tables' columns (migration 0050): `tables` names them with
 * the dashboard's types so one query serves both.
 */
export interface AccessRealm {
  name: 'partner' | 'staff';
  /** The relying party name shown by the authenticator. */
  rpName: string;
  tables: { users: 'dashboardUsers'; passkeys: 'dashboardPasskeys'; sessions: 'dashboardSessions' };
  /** The challenge purposes of this realm's ceremonies (a challenge of one realm is never accepted by the other). */
  purposes: { registration: DashboardChallengePurpose; signIn: DashboardChallengePurpose; secondFactor: DashboardChallengePurpose };
  /** The key an e-mail's sign-in failures are counted under in the shared throttle. */
  throttleKey(email: string): string;
  /** Whether a password alone is not enough: the passkey step follows (the account's choice, or the realm's rule). */
  requiresPasskey(db: Executor, userId: string): Promise<boolean>;
  /** Whether the account may turn "a passkey after the password" off (staff in the production profile may not). */
  mayDropPasskey: boolean;
  /** Where a passwordless sign-in opens a session: the scope id (an organisation), null for none, undefined to refuse. */
  defaultScope(db: Executor, userId: string): Promise<string | null | undefined>;
  createSession(
    tx: Executor,
    options: { userId: string; scopeId: string | null; now: Date; ip: string | null; userAgent: string | null; passkeyVerified: boolean },
  ): Promise<{ token: string; sessionId: string; expiresAt: string }>;
  audit(tx: Executor, entry: { userId: string | null; scopeId: string | null; action: string; target: string | null; origin: RequestOrigin; now: Date }): Promise<void>;
}

/** A signed-in person as the access module needs it (the dashboard's and the console's sessions both carry this). */
export interface AccessSession {
  sessionId: string;
  userId: string;
  email: string;
  /** The organisation of a dashboard session; null for staff. */
  scopeId: string | null;
}
