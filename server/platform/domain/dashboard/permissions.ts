import { AppError } from '../errors';
import { can, type DashboardAction } from '../../../shared/dashboard-permissions';

export { can, DASHBOARD_ACTIONS, PERMISSIONS, type DashboardAction } from '../../../shared/dashboard-permissions';

/** 403 `dashboard_permission_denied` naming the action and the role, before anything is read or written. */
export function requirePermission(session: { role: Parameters<typeof can>[0] }, action: DashboardAction): void {
  if (!can(session.role, action)) {
    throw new AppError('dashboard_permission_denied', `Your role (${session.role}) may not do this (${action}); ask an owner or admin of the organisation.`, undefined, { action, role: session.role });
  }
}
