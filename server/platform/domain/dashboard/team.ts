import type { Db, Dialect, Tx } from '../../db/database';
import type { DashboardRole } from '../../db/schema';
import { AppError } from '../errors';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from './audit';

/**
 * Team use cases of the dashboard: members, role changes, removal, and the organisations a user belongs
 * to. Rules beyond the permission matrix (`team.manage`):
 * - only an owner makes, unmakes or removes an owner (403 `owner_required`);
 * - the last owner is never demoted or removed (409 `last_owner`): on PostgreSQL the organisation's row is locked
 *   first, so two owners demoting each other at once cannot both win (SQLite runs one writer at a time);
 * - removing a member ends their sessions in that organisation (their sessions elsewhere go on).
 */

export interface TeamActor {
  userId: string;
  organisationId: string;
  role: DashboardRole;
  origin: RequestOrigin;
}

export interface MemberSummary {
  userId: string;
  email: string;
  role: DashboardRole;
  joinedAt: string;
}

export async function listMembers(db: Db, options: { organisationId: string; limit: number; after?: { at: string; id: string } }): Promise<MemberSummary[]> {
  let select = db
    .selectFrom('dashboardMemberships as m')
    .innerJoin('dashboardUsers as u', 'u.id', 'm.userId')
    .select(['m.userId', 'u.email', 'm.role', 'm.createdAt as joinedAt'])
    .where('m.organisationId', '=', options.organisationId);
  const after = options.after;
  if (after) select = select.where((eb) => eb.or([eb('m.createdAt', '>', after.at), eb.and([eb('m.createdAt', '=', after.at), eb('m.userId', '>', after.id)])]));
  return select.orderBy('m.createdAt', 'asc').orderBy('m.userId', 'asc').limit(options.limit).execute();
}

/** Serialises owner changes of one organisation on PostgreSQL (a row lock on the organisation, held to commit). */
export async function lockOrganisation(tx: Tx, dialect: Dialect, organisationId: string): Promise<void> {
  if (dialect === 'postgres') await tx.selectFrom('organisations').select('id').where('id', '=', organisationId).forUpdate().execute();
}

async function memberOf(tx: Tx, organisationId: string, userId: string) {
  const member = await tx
    .selectFrom('dashboardMemberships as m')
    .innerJoin('dashboardUsers as u', 'u.id', 'm.userId')
    .select(['m.userId', 'm.role', 'u.email', 'm.createdAt'])
    .where('m.organisationId', '=', organisationId)
    .where('m.userId', '=', userId)
    .executeTakeFirst();
  // Another organisation's member (or nobody) does not exist here.
  if (!member) throw new AppError('NOT_FOUND', 'No such member in this organisation.');
  return member;
}

async function ownerCount(tx: Tx, organisationId: string): Promise<number> {
  const row = await tx
    .selectFrom('dashboardMemberships')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organisationId', '=', organisationId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function requireOwnerFor(actor: TeamActor, what: string): void {
  if (actor.role !== 'owner') throw new AppError('owner_required', `Only an owner may ${what}.`);
}

const lastOwner = () =>
  new AppError('last_owner', 'This is the organisation’s last owner: make another member an owner first.', undefined, { reason: 'last_owner' });

export async function changeMemberRole(
  services: { db: Db; dialect: Dialect; now: Date },
  actor: TeamActor,
  options: { userId: string; role: DashboardRole },
): Promise<MemberSummary> {
  const now = services.now;
  return inUnitOfWork(services.db, async (tx) => {
    await lockOrganisation(tx, services.dialect, actor.organisationId);
    const member = await memberOf(tx, actor.organisationId, options.userId);
    if (member.role === options.role) return { userId: member.userId, email: member.email, role: member.role, joinedAt: member.createdAt };
    if (member.role === 'owner' || options.role === 'owner') requireOwnerFor(actor, options.role === 'owner' ? 'make an owner' : 'change an owner’s role');
    if (member.role === 'owner' && (await ownerCount(tx, actor.organisationId)) <= 1) throw lastOwner();
    await tx.updateTable('dashboardMemberships').set({ role: options.role }).where('organisationId', '=', actor.organisationId).where('userId', '=', member.userId).execute();
    await writeAudit(tx, {
      userId: actor.userId,
      organisationId: actor.organisationId,
      action: 'member_role_changed',
      target: `user:${member.userId} ${member.role}→${options.role}`,
      origin: actor.origin,
      now,
    });
    return { userId: member.userId, email: member.email, role: options.role, joinedAt: member.createdAt };
  });
}

/** Removes a member (themselves included) and ends their sessions in this organisation. */
export async function removeMember(services: { db: Db; dialect: Dialect; now: Date }, actor: TeamActor, userId: string): Promise<{ sessionsEnded: number }> {
  const now = services.now;
  return inUnitOfWork(services.db, async (tx) => {
    await lockOrganisation(tx, services.dialect, actor.organisationId);
    const member = await memberOf(tx, actor.organisationId, userId);
    if (member.role === 'owner') {
      requireOwnerFor(actor, 'remove an owner');
      if ((await ownerCount(tx, actor.organisationId)) <= 1) throw lastOwner();
    }
    await tx.deleteFrom('dashboardMemberships').where('organisationId', '=', actor.organisationId).where('userId', '=', member.userId).execute();
    const ended = await tx
      .updateTable('dashboardSessions')
      .set({ revokedAt: now.toISOString() })
      .where('userId', '=', member.userId)
      .where('organisationId', '=', actor.organisationId)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
    await writeAudit(tx, { userId: actor.userId, organisationId: actor.organisationId, action: 'member_removed', target: `user:${member.userId} ${member.role}`, origin: actor.origin, now });
    return { sessionsEnded: Number(ended.numUpdatedRows) };
  });
}

export interface OrganisationChoice {
  id: string;
  name: string;
  role: DashboardRole;
  liveEnabled: boolean;
}

/** The organisations the user is a member of (a handful: not paged), oldest membership first. */
export async function listUserOrganisations(db: Db, userId: string): Promise<OrganisationChoice[]> {
  const rows = await db
    .selectFrom('dashboardMemberships as m')
    .innerJoin('organisations as o', 'o.id', 'm.organisationId')
    .select(['o.id', 'o.name', 'm.role', 'o.liveEnabled'])
    .where('m.userId', '=', userId)
    .orderBy('m.createdAt')
    .orderBy('m.organisationId')
    .limit(200)
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, role: row.role, liveEnabled: Boolean(row.liveEnabled) }));
}

/**
 * Moves the session to another organisation of the same user (404 when they are not a member there: another
 * organisation does not exist for them). The session's token, and so its CSRF token, stay the same.
 */
export async function switchOrganisation(
  services: { db: Db; now: Date },
  options: { sessionId: string; userId: string; fromOrganisationId: string; toOrganisationId: string; origin: RequestOrigin },
): Promise<void> {
  const now = services.now;
  await inUnitOfWork(services.db, async (tx) => {
    const membership = await tx
      .selectFrom('dashboardMemberships')
      .select('role')
      .where('userId', '=', options.userId)
      .where('organisationId', '=', options.toOrganisationId)
      .executeTakeFirst();
    if (!membership) throw new AppError('NOT_FOUND', 'No such organisation.');
    await tx.updateTable('dashboardSessions').set({ organisationId: options.toOrganisationId }).where('id', '=', options.sessionId).execute();
    await writeAudit(tx, {
      userId: options.userId,
      organisationId: options.toOrganisationId,
      action: 'organisation_switched',
      target: `organisation:${options.fromOrganisationId}→${options.toOrganisationId}`,
      origin: options.origin,
      now,
    });
  });
}
