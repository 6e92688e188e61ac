import type { StaffRole } from '../../db/schema';
import { AppError } from '../errors';

export const STAFF_ROLES = ['compliance', 'finance', 'support', 'admin'] as const satisfies readonly StaffRole[];

/**
 * What each staff role may do in the console. Reading the queues, the search and the audit log is every role's;
 * money (payouts, funding confirmations, write-offs) is finance's; reviews are compliance's; live enablement is an
 * admin's. An admin may do everything. Approving a proposal needs the permission of the action it proposes.
 */
export type StaffAction = 'read' | 'money' | 'reviews' | 'live_enablement' | 'webhooks';

const GRANTS: Record<StaffRole, readonly StaffAction[]> = {
  support: ['read', 'webhooks'],
  compliance: ['read', 'reviews'],
  finance: ['read', 'money'],
  admin: ['read', 'money', 'reviews', 'live_enablement', 'webhooks'],
};

export function staffMay(role: StaffRole, action: StaffAction): boolean {
  return GRANTS[role].includes(action);
}

/** 403 `staff_permission_denied` unless the role may do `action`; nothing is read or written before. */
export function requireStaffPermission(actor: { role: StaffRole }, action: StaffAction): void {
  if (!staffMay(actor.role, action)) {
    throw new AppError('staff_permission_denied', `Your role (${actor.role}) may not do this (${action}).`, undefined, { action, role: actor.role });
  }
}
