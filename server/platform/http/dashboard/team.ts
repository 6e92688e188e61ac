import type { Request, Response } from 'express';
import { z } from 'zod';
import { DASHBOARD_ROLES } from '../../../shared/dashboard-permissions';
import { PASSWORD_MAX_LENGTH } from '../../domain/dashboard/password-policy';
import { acceptInvitation, describeInvitation, inviteMember, listInvitations, revokeInvitation } from '../../domain/dashboard/invitations';
import { changeMemberRole, listMembers, listUserOrganisations, removeMember, switchOrganisation, type TeamActor } from '../../domain/dashboard/team';
import type { DashboardArea, DashboardCaller } from './kit';
import { PageQuery, decodeCursor, pageOf } from './keyset';

const Role = z.enum(DASHBOARD_ROLES);
const Id = z.string().min(1).max(64);
const Token = z.string().min(16).max(200);
const Email = z.string().trim().min(3).max(254).pipe(z.email());

const actorOf = (caller: DashboardCaller): TeamActor => ({ userId: caller.session.userId, organisationId: caller.session.organisationId, role: caller.session.role, origin: caller.origin });

/**
 * Team: members, invitations, roles (`team.read` / `team.manage`), accepting an invitation (public: the link's token
 * is the credential), and the organisations of the signed-in user with a switch between them (any member).
 */
export const teamRoutes: DashboardArea = (router, kit) => {
  const { platform } = kit;
  const services = () => ({ db: platform.db, dialect: platform.dialect, now: platform.clock.now() });

  router.get('/team/members', async (req, res) => {
    const caller = await kit.caller(req, 'team.read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const rows = await listMembers(platform.db, { organisationId: caller.session.organisationId, limit: query.limit + 1, after: decodeCursor(query.cursor) });
    kit.page(res, 'Members.', pageOf(rows, query.limit, (row) => ({ at: row.joinedAt, id: row.userId })));
  });

  router.patch('/team/members/:userId', async (req, res) => {
    const caller = await kit.caller(req, 'team.manage');
    const userId = kit.parse(Id, req.params.userId, 'query');
    const body = kit.parse(z.object({ role: Role }).strict(), req.body);
    const member = await changeMemberRole(services(), actorOf(caller), { userId, role: body.role });
    kit.ok(res, 200, 'Role changed.', member);
  });

  router.delete('/team/members/:userId', async (req, res) => {
    const caller = await kit.caller(req, 'team.manage');
    const userId = kit.parse(Id, req.params.userId, 'query');
    const removed = await removeMember(services(), actorOf(caller), userId);
    kit.ok(res, 200, 'Member removed: their sessions in this organisation have ended.', removed);
  });

  router.get('/team/invitations', async (req, res) => {
    const caller = await kit.caller(req, 'team.read');
    const query = kit.parse(PageQuery, req.query, 'query');
    const rows = await listInvitations(platform, { organisationId: caller.session.organisationId, now: platform.clock.now(), limit: query.limit + 1, after: decodeCursor(query.cursor) });
    kit.page(res, 'Pending invitations.', pageOf(rows, query.limit, (row) => ({ at: row.createdAt, id: row.id })));
  });

  router.post('/team/invitations', async (req, res) => {
    const caller = await kit.caller(req, 'team.manage');
    const body = kit.parse(z.object({ email: Email, role: Role }).strict(), req.body);
    const invitation = await inviteMember(platform, actorOf(caller), body);
    kit.ok(res, 201, `Invitation sent to ${invitation.email}.`, invitation);
  });

  router.delete('/team/invitations/:id', async (req, res) => {
    const caller = await kit.caller(req, 'team.manage');
    const id = kit.parse(Id, req.params.id, 'query');
    await revokeInvitation(platform, actorOf(caller), id);
    kit.ok(res, 200, 'Invitation revoked: its link no longer works.');
  });

  // Public: the invitation link's token is the credential (the router's JSON + Origin checks still apply).
  router.post('/invitations/describe', async (req, res) => {
    const body = kit.parse(z.object({ token: Token }).strict(), req.body);
    kit.ok(res, 200, 'Invitation.', await describeInvitation(platform, body.token));
  });

  router.post('/invitations/accept', async (req: Request, res: Response) => {
    const body = kit.parse(z.object({ token: Token, password: z.string().min(1).max(PASSWORD_MAX_LENGTH * 4) }).strict(), req.body);
    // An account that asks a passkey after the password gets the passkey step here too, not a session.
    kit.signedIn(req, res, await acceptInvitation(platform, { ...body, origin: kit.origin(req) }), 'Invitation accepted: you are signed in.');
  });

  router.get('/organisations', async (req, res) => {
    const caller = await kit.caller(req, null);
    const organisations = await listUserOrganisations(platform.db, caller.session.userId);
    kit.ok(res, 200, 'Your organisations.', organisations.map((o) => ({ ...o, current: o.id === caller.session.organisationId })));
  });

  router.post('/session/organisation', async (req, res) => {
    const caller = await kit.caller(req, null);
    const body = kit.parse(z.object({ organisationId: Id }).strict(), req.body);
    await switchOrganisation(
      { db: platform.db, now: platform.clock.now() },
      { sessionId: caller.session.sessionId, userId: caller.session.userId, fromOrganisationId: caller.session.organisationId, toOrganisationId: body.organisationId, origin: caller.origin },
    );
    kit.ok(res, 200, 'Organisation switched.', { organisationId: body.organisationId });
  });
};
