import type { DashboardRole } from '../../server/shared/dashboard-permissions';
import { signedInOwner, uniqueEmail } from './dashboard';
import type { TestApp } from './harness';

/**
 * A signed-in dashboard member of an existing organisation (a tenant made by `createTenant`, with API keys for
 * booking appointments or initiating financing), with `role`: signs up (which makes a new organisation), then moves
 * the membership and the session to `organisationId`, as an accepted invitation would.
 */
export async function memberOf(app: TestApp, organisationId: string, role: DashboardRole = 'owner', tag = 'member') {
  const member = await signedInOwner(app, uniqueEmail(tag));
  const user = await app.platform.db.selectFrom('dashboardUsers').select('id').where('email', '=', member.email.toLowerCase()).executeTakeFirstOrThrow();
  await app.platform.db.updateTable('dashboardMemberships').set({ organisationId, role }).where('userId', '=', user.id).execute();
  await app.platform.db.updateTable('dashboardSessions').set({ organisationId }).where('userId', '=', user.id).execute();
  return Object.assign(member, { organisationId, userId: user.id });
}

/** Changes a member's role in place (the session keeps working with the new role). */
export async function setRole(app: TestApp, userId: string, role: DashboardRole): Promise<void> {
  await app.platform.db.updateTable('dashboardMemberships').set({ role }).where('userId', '=', userId).execute();
}

/** Lets the organisation use live mode (what `admin org enable-live` does). */
export async function enableLive(app: TestApp, organisationId: string): Promise<void> {
  await app.platform.db.updateTable('organisations').set({ liveEnabled: true }).where('id', '=', organisationId).execute();
}
