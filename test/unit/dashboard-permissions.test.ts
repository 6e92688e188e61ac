import { describe, expect, it } from 'vitest';
import { can, DASHBOARD_ACTIONS, PERMISSIONS, requirePermission } from '../../server/platform/domain/dashboard/permissions';

describe('the dashboard permission matrix', () => {
  it('owners and admins may do everything; an analyst only reads, and never keys, team or the audit log', () => {
    for (const action of DASHBOARD_ACTIONS) {
      expect(can('owner', action)).toBe(true);
      expect(can('admin', action)).toBe(true);
    }
    for (const action of PERMISSIONS.analyst) expect(action.endsWith('.read')).toBe(true);
    for (const action of ['keys.read', 'keys.manage', 'team.read', 'team.manage', 'audit.read'] as const) expect(can('analyst', action)).toBe(false);
  });

  it('a developer runs the integration (keys, webhooks, checkout) but neither moves money nor manages the team', () => {
    for (const action of ['keys.manage', 'webhooks.manage', 'checkout.manage', 'loans.read'] as const) expect(can('developer', action)).toBe(true);
    for (const action of ['pool.fund', 'loans.act', 'products.manage', 'team.manage', 'audit.read'] as const) expect(can('developer', action)).toBe(false);
  });

  it('a refusal is 403 dashboard_permission_denied naming the action and the role', () => {
    expect(() => requirePermission({ role: 'analyst' }, 'keys.read')).toThrow(
      expect.objectContaining({ code: 'dashboard_permission_denied', status: 403, data: { action: 'keys.read', role: 'analyst' } }),
    );
    expect(() => requirePermission({ role: 'owner' }, 'keys.read')).not.toThrow();
  });
});
