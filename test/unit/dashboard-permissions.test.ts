import { describe, expect, it } from 'vitest';
import { can, DASHBOARD_ACTIONS, PERMISSIONS, requirePermission } from '../../server/platform/domain/dashboard/permissions';
import { scopesBeyondRole } from '../../server/shared/api-key-scopes';
import { requiredScope } from '../../server/platform/http/route-scopes';

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

  it('a compliance member reads, decides reviews and reads the audit log, but manages no keys, team, products or pool and moves no loan by hand', () => {
    for (const action of ['loans.read', 'reviews.read', 'reviews.decide', 'audit.read'] as const) expect(can('compliance', action)).toBe(true);
    for (const action of ['keys.read', 'keys.manage', 'team.read', 'team.manage', 'products.manage', 'pool.fund', 'loans.act', 'webhooks.manage', 'checkout.manage', 'organisation.manage'] as const) {
      expect(can('compliance', action)).toBe(false);
    }
  });

  it('every role reads reviews; only owners, admins and compliance members decide them', () => {
    for (const role of ['owner', 'admin', 'developer', 'analyst', 'compliance'] as const) expect(can(role, 'reviews.read')).toBe(true);
    expect(['owner', 'admin', 'developer', 'analyst', 'compliance'].filter((role) => can(role as 'owner', 'reviews.decide'))).toEqual(['owner', 'admin', 'compliance']);
  });

  it('a restricted key’s reviews scope follows the role: compliance may grant reviews:write but not loans:write; an analyst neither', () => {
    expect(scopesBeyondRole('compliance', ['reviews:write', 'loans:read'])).toEqual([]);
    expect(scopesBeyondRole('compliance', ['loans:write'])).toEqual(['loans:write']);
    expect(scopesBeyondRole('analyst', ['reviews:read', 'reviews:write'])).toEqual(['reviews:write']);
    expect(requiredScope({ access: 'tenant', method: 'post', path: '/v1/reviews/{id}/clear' })).toBe('reviews:write');
    expect(requiredScope({ access: 'tenant', method: 'get', path: '/v1/reviews' })).toBe('reviews:read');
  });

  it('a refusal is 403 dashboard_permission_denied naming the action and the role', () => {
    expect(() => requirePermission({ role: 'analyst' }, 'keys.read')).toThrow(
      expect.objectContaining({ code: 'dashboard_permission_denied', status: 403, data: { action: 'keys.read', role: 'analyst' } }),
    );
    expect(() => requirePermission({ role: 'owner' }, 'keys.read')).not.toThrow();
  });
});
