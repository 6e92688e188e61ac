import { can, type DashboardAction, type DashboardRole } from '../server/shared/dashboard-permissions';
import { api } from './api';

/** `GET /dashboard/api/session`: who is signed in, in which organisation, with which role. */
export interface SessionInfo {
  user: { id: string; email: string };
  role: DashboardRole;
  organisation: { id: string; name: string; liveEnabled: boolean };
  csrfToken: string;
  expiresAt: string;
}

let current: SessionInfo | undefined;

/** The signed-in session, or undefined (signed out). Pages read it; only the shell loads it. */
export const session = (): SessionInfo | undefined => current;

/** Whether the signed-in role may do `action` (the server checks again; this only hides what would be refused). */
export const allowed = (action: DashboardAction): boolean => current !== undefined && can(current.role, action);

export async function loadSession(): Promise<SessionInfo | undefined> {
  try {
    current = await api.get<SessionInfo>('/session');
    api.csrfToken = current.csrfToken;
    if (!current.organisation.liveEnabled && api.mode === 'live') api.setMode('test');
  } catch {
    current = undefined;
    api.csrfToken = undefined;
  }
  return current;
}

export function forgetSession(): void {
  current = undefined;
  api.csrfToken = undefined;
}
