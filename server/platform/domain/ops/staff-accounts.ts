import type { StaffRole } from '../../db/schema';
import { AppError } from '../errors';
import { newId } from '../ids';
import { inUnitOfWork } from '../unit-of-work';
import { openSessionThroughGate, type GateOpened, type SecondFactorPending } from '../access/session-gate';
import type { RequestOrigin } from '../access/realm';
import type { DashboardServices } from '../dashboard/dashboard-services';
import { hashPassword, verifyPassword } from '../dashboard/password-hash';
import { checkPassword } from '../dashboard/password-policy';
import { hashToken, newSecretToken, normaliseEmail } from '../dashboard/secret-token';
import { reserveSignInAttempt, signInAttemptSucceeded } from '../dashboard/sign-in-throttle';
import { CLI_ORIGIN, writeStaffAudit } from './staff-audit';
import { staffRealm } from './staff-realm';

/** What the staff use cases run with: the platform's services and whether the production profile asks a passkey of everyone. */
export type StaffServices = Pick<DashboardServices, 'db' | 'clock' | 'baseUrl'> & { passkeyAlways: boolean };

/** An invitation link works once, for 3 days (shorter than a partner's: it opens the service's own console). */
export const STAFF_INVITATION_LIFETIME_MS = 3 * 24 * 3600_000;

const invalid = () => new AppError('invitation_invalid', 'This invitation is unknown, already used, revoked or expired. Ask an admin for a new one.');

/**
 * `admin staff invite --email E --role R`: a one-time link `/ops/accept-invitation?token=…` (only the token's SHA-256
 * is stored) that lets the person choose a password. Inviting an address again replaces its pending invitation; an
 * address that already has an active account is refused (`staff_exists`).
 */
export async function inviteStaff(
  services: StaffServices,
  options: { email: string; role: StaffRole; invitedBy: { staffId: string | null; origin: RequestOrigin } },
): Promise<{ id: string; email: string; role: StaffRole; expiresAt: string; link: string }> {
  const email = normaliseEmail(options.email);
  const now = services.clock.now();
  const at = now.toISOString();
  const token = newSecretToken();
  const row = await inUnitOfWork(services.db, async (tx) => {
    const account = await tx.selectFrom('staffAccounts').select(['id', 'passwordHash', 'disabledAt']).where('email', '=', email).executeTakeFirst();
    if (account?.passwordHash && !account.disabledAt) throw new AppError('staff_exists', `${email} already has a staff account.`);
    await tx.updateTable('staffInvitations').set({ revokedAt: at }).where('email', '=', email).where('acceptedAt', 'is', null).where('revokedAt', 'is', null).execute();
    const invitation = {
      id: newId(),
      tokenHash: hashToken(token),
      email,
      role: options.role,
      invitedBy: options.invitedBy.staffId ?? 'cli',
      expiresAt: new Date(now.getTime() + STAFF_INVITATION_LIFETIME_MS).toISOString(),
      acceptedAt: null,
      revokedAt: null,
      createdAt: at,
    };
    await tx.insertInto('staffInvitations').values(invitation).execute();
    await writeStaffAudit(tx, { staffId: options.invitedBy.staffId, action: 'staff_invited', target: `invitation:${invitation.id} ${email} ${options.role}`, origin: options.invitedBy.origin, now });
    return invitation;
  });
  const link = `${services.baseUrl.replace(/\/$/, '')}/ops/accept-invitation?token=${encodeURIComponent(token)}`;
  return { id: row.id, email, role: options.role, expiresAt: row.expiresAt, link };
}

async function pendingInvitation(services: Pick<StaffServices, 'db'>, token: string, now: Date) {
  const row = await services.db.selectFrom('staffInvitations').selectAll().where('tokenHash', '=', hashToken(token)).executeTakeFirst();
  if (!row || row.acceptedAt || row.revokedAt || row.expiresAt <= now.toISOString()) throw invalid();
  return row;
}

export async function describeStaffInvitation(services: Pick<StaffServices, 'db' | 'clock'>, token: string): Promise<{ email: string; role: StaffRole; expiresAt: string }> {
  const row = await pendingInvitation(services, token, services.clock.now());
  return { email: row.email, role: row.role, expiresAt: row.expiresAt };
}

/** A staff session was opened; `enrolment` when its only use is registering the first passkey (the production profile). */
export type StaffSignedIn = GateOpened & { enrolment: boolean };

/**
 * Accepts an invitation: the person chooses a password (the dashboard's rules), the account is created (or re-enabled
 * with the invited role) and a session opens. Where a passkey is asked (the production profile, or the account's
 * choice) and none is registered yet, the session is an enrolment session: the console lets it register a passkey
 * and nothing else, and the registration verifies it.
 */
export async function acceptStaffInvitation(services: StaffServices, options: { token: string; password: string; origin: RequestOrigin }): Promise<StaffSignedIn> {
  const now = services.clock.now();
  const invitation = await pendingInvitation(services, options.token, now);
  const verdict = checkPassword(options.password, { email: invitation.email });
  if (!verdict.ok) throw new AppError('password_rejected', verdict.message!, undefined, { problem: verdict.problem });
  const passwordHash = await hashPassword(options.password);
  const realm = staffRealm(services);
  return inUnitOfWork(services.db, async (tx) => {
    const at = now.toISOString();
    const used = await tx
      .updateTable('staffInvitations')
      .set({ acceptedAt: at })
      .where('id', '=', invitation.id)
      .where('acceptedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', at)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw invalid();
    const existing = await tx.selectFrom('staffAccounts').select('id').where('email', '=', invitation.email).executeTakeFirst();
    let userId = existing?.id;
    if (userId) {
      await tx.updateTable('staffAccounts').set({ passwordHash, role: invitation.role, emailVerifiedAt: at, disabledAt: null }).where('id', '=', userId).execute();
    } else {
      userId = newId();
      await tx
        .insertInto('staffAccounts')
        .values({ id: userId, email: invitation.email, role: invitation.role, passwordHash, emailVerifiedAt: at, invitedBy: invitation.invitedBy, disabledAt: null, createdAt: at })
        .execute();
    }
    await writeStaffAudit(tx, { staffId: userId, action: 'invitation_accepted', target: `invitation:${invitation.id} ${invitation.role}`, origin: options.origin, now });
    const hasPasskey = await tx.selectFrom('staffPasskeys').select('id').where('userId', '=', userId).executeTakeFirst();
    if (!hasPasskey && (await realm.requiresPasskey(tx, userId))) {
      const session = await realm.createSession(tx, { userId, scopeId: null, now, passkeyVerified: false, ...options.origin });
      await writeStaffAudit(tx, { staffId: userId, action: 'sign_in', target: `user:${userId} invitation (passkey enrolment)`, origin: options.origin, now });
      return { token: session.token, expiresAt: session.expiresAt, userId, scopeId: null, enrolment: true };
    }
    const opened = await openSessionThroughGate(realm, services, tx, {
      user: { id: userId, email: invitation.email },
      scopeId: null,
      proof: 'password',
      origin: options.origin,
      now,
      audit: { action: 'sign_in', target: `user:${userId} invitation` },
    });
    // A re-invited account with passkeys: the invitation resets the password, the passkey is still asked at sign-in.
    if ('secondFactor' in opened) throw new AppError('invitation_invalid', 'Your account asks a passkey: sign in with your new password and your passkey.');
    return { ...opened, enrolment: false };
  });
}

const refused = () => new AppError('invalid_credentials', 'The e-mail or password is not right.');

/**
 * E-mail + password sign-in to the console, under the dashboard's throttle (counted under `staff:<e-mail>`): the
 * attempt is counted before the password is verified; an unknown e-mail costs the same. Opens through the session
 * gate: where a passkey is asked, the pending passkey step instead of a session. A staff member who must show a
 * passkey but never registered one is refused (`dashboard_passkey_needed`): an admin sends a new invitation.
 */
export async function signInStaff(services: StaffServices, options: { email: string; password: string; origin: RequestOrigin }): Promise<StaffSignedIn | SecondFactorPending> {
  const email = normaliseEmail(options.email);
  const now = services.clock.now();
  const realm = staffRealm(services);
  const attempt = await reserveSignInAttempt(services.db, realm.throttleKey(email), options.origin.ip ?? 'unknown', now);
  const account = await services.db.selectFrom('staffAccounts').selectAll().where('email', '=', email).executeTakeFirst();
  const passwordOk = await verifyPassword(account?.passwordHash, options.password);
  if (!account || !passwordOk || account.disabledAt) {
    await writeStaffAudit(services.db, { staffId: account?.id ?? null, action: 'sign_in_failed', target: account ? `user:${account.id}` : null, origin: options.origin, now });
    throw refused();
  }
  await signInAttemptSucceeded(services.db, attempt);
  const opened = await inUnitOfWork(services.db, (tx) =>
    openSessionThroughGate(realm, services, tx, { user: account, scopeId: null, proof: 'password', origin: options.origin, now, audit: { action: 'sign_in', target: `user:${account.id}` } }),
  );
  return 'secondFactor' in opened ? opened : { ...opened, enrolment: false };
}

/** The staff account a CLI command names with `--staff E` (an active account; 404 otherwise). */
export async function staffByEmail(services: Pick<StaffServices, 'db'>, email: string): Promise<{ id: string; email: string; role: StaffRole }> {
  const account = await services.db.selectFrom('staffAccounts').select(['id', 'email', 'role', 'disabledAt', 'passwordHash']).where('email', '=', normaliseEmail(email)).executeTakeFirst();
  if (!account || account.disabledAt || !account.passwordHash) throw new AppError('NOT_FOUND', `no active staff account ${normaliseEmail(email)} (admin staff invite, then accept the link)`);
  return { id: account.id, email: account.email, role: account.role };
}

export { CLI_ORIGIN };
