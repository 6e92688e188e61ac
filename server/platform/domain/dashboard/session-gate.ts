import type { Executor } from '../../db/database';
import { openSessionThroughGate, type SecondFactorPending, type SignInProof } from '../access/session-gate';
import { partnerRealm } from './access-realm';
import type { AuditAction, RequestOrigin } from './audit';
import type { DashboardServices } from './dashboard-services';

export type { SecondFactorPending, SignInProof } from '../access/session-gate';

/** A session was opened: the cookie's token and what the answer tells the browser. */
export interface SignedIn {
  token: string;
  expiresAt: string;
  userId: string;
  organisationId: string;
}

/**
 * The one way a dashboard session is opened: the access module's gate (`domain/access/session-gate.ts`) in the
 * partner realm, in an organisation. A user who asks a passkey after the password and proved only the password gets
 * the pending passkey step instead of a session; `lookupSession` refuses a session without a verified passkey while
 * the user asks for one. Runs inside the caller's transaction.
 */
export async function openDashboardSession(
  services: Pick<DashboardServices, 'baseUrl'>,
  tx: Executor,
  options: {
    user: { id: string; email: string };
    organisationId: string;
    proof: SignInProof;
    origin: RequestOrigin;
    now: Date;
    audit: { action: AuditAction; target: string };
  },
): Promise<SignedIn | SecondFactorPending> {
  const opened = await openSessionThroughGate(partnerRealm, services, tx, { ...options, scopeId: options.organisationId });
  if ('secondFactor' in opened) return opened;
  return { token: opened.token, expiresAt: opened.expiresAt, userId: opened.userId, organisationId: options.organisationId };
}
