import type { DashboardRole } from '../../db/schema';
import type { Dialect } from '../../db/database';
import { AppError } from '../errors';
import { newId } from '../ids';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from './audit';
import { dashboardLink, sendAfterCommit, type DashboardServices } from './dashboard-services';
import { hashPassword, verifyPassword } from './password-hash';
import { checkPassword } from './password-policy';
import { hashToken, newSecretToken, normaliseEmail } from './secret-token';
import { openDashboardSession, type SecondFactorPending, type SignedIn } from './session-gate';
import { reserveSignInAttempt, signInAttemptSucceeded } from './sign-in-throttle';
import { requireOwnerFor, type TeamActor } from './team';

/**
 * Invitations by e-mail. An owner or admin invites an address with a role; the e-mail carries a one-time
 * link `/dashboard/accept-invitation?token=…` (only the token's SHA-256 is stored) that works for 7 days. Accepting:
 * - an address that already has an account signs in with its password on the same form (same throttle and lockout
 *   as the sign-in page, same answer for a wrong password);
 * - a new person chooses a password (same rules as sign-up); the link proves the mailbox, so the e-mail is verified.
 * Either way the membership is added and the person is signed in to the inviting organisation through the session gate:
 * an account that asks a passkey after the password gets the passkey step, not a session (the invitation link and
 * the password are not a passkey). Inviting an address again
 * replaces its pending invitation (the old link stops working). Only an owner invites an owner.
 */
export const INVITATION_LIFETIME_MS = 7 * 24 * 3600_000;

export interface InvitationSummary {
  id: string;
  email: string;
  role: DashboardRole;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

const invalid = () => new AppError('invitation_invalid', 'This invitation is unknown, already used, revoked or expired. Ask the organisation for a new one.');

export async function inviteMember(services: DashboardServices, actor: TeamActor, options: { email: string; role: DashboardRole }): Promise<InvitationSummary> {
  const email = normaliseEmail(options.email);
  if (options.role === 'owner') requireOwnerFor(actor, 'invite an owner');
  const now = services.clock.now();
  const at = now.toISOString();
  const token = newSecretToken();
  const invitation = await inUnitOfWork(services.db, async (tx) => {
    const member = await tx
      .selectFrom('dashboardMemberships as m')
      .innerJoin('dashboardUsers as u', 'u.id', 'm.userId')
      .select('m.userId')
      .where('m.organisationId', '=', actor.organisationId)
      .where('u.email', '=', email)
      .executeTakeFirst();
    if (member) throw new AppError('already_member', 'This e-mail already belongs to a member of the organisation.');
    // A second invitation to the same address replaces the pending one.
    await tx
      .updateTable('dashboardInvitations')
      .set({ revokedAt: at })
      .where('organisationId', '=', actor.organisationId)
      .where('email', '=', email)
      .where('acceptedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .execute();
    const row = {
      id: newId(),
      tokenHash: hashToken(token),
      organisationId: actor.organisationId,
      email,
      role: options.role,
      invitedBy: actor.userId,
      expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS).toISOString(),
      acceptedAt: null,
      revokedAt: null,
      createdAt: at,
    };
    await tx.insertInto('dashboardInvitations').values(row).execute();
    await writeAudit(tx, { userId: actor.userId, organisationId: actor.organisationId, action: 'member_invited', target: `invitation:${row.id} ${email} ${options.role}`, origin: actor.origin, now });
    const organisation = await tx.selectFrom('organisations').select('name').where('id', '=', actor.organisationId).executeTakeFirstOrThrow();
    return { ...row, organisationName: organisation.name };
  });
  sendAfterCommit(services, {
    to: email,
    subject: `You are invited to ${invitation.organisationName}'s dashboard`,
    text:
      `You have been invited to join ${invitation.organisationName} on the dashboard as ${options.role}.\n\n` +
      `Accept the invitation:\n\n${dashboardLink(services, 'accept-invitation', token)}\n\n` +
      'The link works once, for 7 days. If you did not expect this, ignore this message.',
  });
  return { id: invitation.id, email, role: options.role, invitedBy: actor.userId, createdAt: at, expiresAt: invitation.expiresAt };
}

/** Pending invitations (not accepted, revoked or expired), newest first, keyset-paged on `(created_at, id)`. */
export async function listInvitations(
  services: Pick<DashboardServices, 'db'>,
  options: { organisationId: string; now: Date; limit: number; after?: { at: string; id: string } },
): Promise<InvitationSummary[]> {
  let select = services.db
    .selectFrom('dashboardInvitations')
    .select(['id', 'email', 'role', 'invitedBy', 'createdAt', 'expiresAt'])
    .where('organisationId', '=', options.organisationId)
    .where('acceptedAt', 'is', null)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', options.now.toISOString());
  const after = options.after;
  if (after) select = select.where((eb) => eb.or([eb('createdAt', '<', after.at), eb.and([eb('createdAt', '=', after.at), eb('id', '<', after.id)])]));
  return select.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

/** Revokes a pending invitation of the actor's organisation (404 otherwise); its link stops working at once. */
export async function revokeInvitation(services: Pick<DashboardServices, 'db' | 'clock'>, actor: TeamActor, invitationId: string): Promise<void> {
  const now = services.clock.now();
  await inUnitOfWork(services.db, async (tx) => {
    const invitation = await tx
      .selectFrom('dashboardInvitations')
      .select(['id', 'role', 'email'])
      .where('id', '=', invitationId)
      .where('organisationId', '=', actor.organisationId)
      .where('acceptedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
    if (!invitation) throw new AppError('NOT_FOUND', 'No such pending invitation in this organisation.');
    if (invitation.role === 'owner') requireOwnerFor(actor, 'revoke an owner’s invitation');
    await tx.updateTable('dashboardInvitations').set({ revokedAt: now.toISOString() }).where('id', '=', invitation.id).execute();
    await writeAudit(tx, { userId: actor.userId, organisationId: actor.organisationId, action: 'invitation_revoked', target: `invitation:${invitation.id} ${invitation.email}`, origin: actor.origin, now });
  });
}

async function pendingInvitation(services: Pick<DashboardServices, 'db'>, token: string, now: Date) {
  const row = await services.db
    .selectFrom('dashboardInvitations as i')
    .innerJoin('organisations as o', 'o.id', 'i.organisationId')
    .select(['i.id', 'i.email', 'i.role', 'i.organisationId', 'i.expiresAt', 'i.acceptedAt', 'i.revokedAt', 'o.name as organisationName'])
    .where('i.tokenHash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row || row.acceptedAt || row.revokedAt || row.expiresAt <= now.toISOString()) throw invalid();
  return row;
}

/** What the accept page shows before the person acts: the organisation, the role, the e-mail, and which form to show. */
export async function describeInvitation(
  services: Pick<DashboardServices, 'db' | 'clock'>,
  token: string,
): Promise<{ organisationName: string; email: string; role: DashboardRole; expiresAt: string; hasAccount: boolean }> {
  const invitation = await pendingInvitation(services, token, services.clock.now());
  const user = await services.db.selectFrom('dashboardUsers').select(['id', 'passwordHash']).where('email', '=', invitation.email).executeTakeFirst();
  return { organisationName: invitation.organisationName, email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt, hasAccount: Boolean(user?.passwordHash) };
}

/**
 * Accepts an invitation with the account's password (existing account) or a new one (new person), then signs the
 * person in through the session gate: a session, or the passkey step when the account asks one.
 */
export async function acceptInvitation(
  services: Pick<DashboardServices, 'db' | 'clock' | 'baseUrl'> & { dialect?: Dialect },
  options: { token: string; password: string; origin: RequestOrigin },
): Promise<SignedIn | SecondFactorPending> {
  const now = services.clock.now();
  const invitation = await pendingInvitation(services, options.token, now);
  const email = invitation.email;
  const user = await services.db.selectFrom('dashboardUsers').select(['id', 'passwordHash', 'emailVerifiedAt']).where('email', '=', email).executeTakeFirst();
  let newPasswordHash: string | undefined;
  if (user?.passwordHash) {
    // An account: its password, under the sign-in page's throttle (a link in a mailbox is not enough to join).
    const attempt = await reserveSignInAttempt(services.db, email, options.origin.ip ?? 'unknown', now);
    if (!(await verifyPassword(user.passwordHash, options.password))) {
      await writeAudit(services.db, { userId: user.id, organisationId: null, action: 'sign_in_failed', target: `user:${user.id}`, origin: options.origin, now });
      throw new AppError('invalid_credentials', 'The password is not right: use your existing dashboard password.');
    }
    await signInAttemptSucceeded(services.db, attempt);
  } else {
    const verdict = checkPassword(options.password, { email });
    if (!verdict.ok) throw new AppError('password_rejected', verdict.message!, undefined, { problem: verdict.problem });
    newPasswordHash = await hashPassword(options.password);
  }
  return inUnitOfWork(services.db, async (tx) => {
    const at = now.toISOString();
    const used = await tx
      .updateTable('dashboardInvitations')
      .set({ acceptedAt: at })
      .where('id', '=', invitation.id)
      .where('acceptedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', at)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw invalid();
    let userId = user?.id;
    if (!userId) {
      userId = newId();
      await tx.insertInto('dashboardUsers').values({ id: userId, email, passwordHash: newPasswordHash!, emailVerifiedAt: at, createdAt: at }).execute();
    } else if (newPasswordHash || !user?.emailVerifiedAt) {
      // A user row without a password (never finished setting one) takes the new one; the link verifies the e-mail.
      await tx.updateTable('dashboardUsers').set({ ...(newPasswordHash ? { passwordHash: newPasswordHash } : {}), emailVerifiedAt: user?.emailVerifiedAt ?? at }).where('id', '=', userId).execute();
    }
    const existing = await tx.selectFrom('dashboardMemberships').select('role').where('userId', '=', userId).where('organisationId', '=', invitation.organisationId).executeTakeFirst();
    if (!existing) {
      await tx.insertInto('dashboardMemberships').values({ userId, organisationId: invitation.organisationId, role: invitation.role, createdAt: at }).execute();
    }
    await writeAudit(tx, { userId, organisationId: invitation.organisationId, action: 'invitation_accepted', target: `invitation:${invitation.id} ${invitation.role}`, origin: options.origin, now });
    return openDashboardSession(services, tx, {
      user: { id: userId, email },
      organisationId: invitation.organisationId,
      proof: 'password',
      origin: options.origin,
      now,
      audit: { action: 'sign_in', target: `user:${userId} invitation` },
    });
  });
}
