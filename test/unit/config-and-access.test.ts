import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { checkAccess } from '../../server/platform/http/route';
import type { AuthContext } from '../../server/platform/http/authenticate';
import type { Organisation } from '../../server/platform/domain/organisations/organisation';
import { modeOfKey } from '../../server/platform/domain/api-keys/api-key';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, DATA_DIR: './data', IDEMPOTENCY_TTL_HOURS: 24 });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('names every bad key in one error', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', IDEMPOTENCY_TTL_HOURS: '1' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', IDEMPOTENCY_TTL_HOURS: '1' });
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT/);
      expect((error as Error).message).toMatch(/DATABASE_URL/);
      expect((error as Error).message).toMatch(/IDEMPOTENCY_TTL_HOURS/);
    }
  });
});

function auth(mode: 'test' | 'live', org: Partial<Organisation> = {}): AuthContext {
  const organisation = {
    id: 'o',
    name: 'o',
    loanTenant: true,
    preapprovedLending: true,
    preapprovalsEnabled: true,
    autoIssueOffers: false,
    preapprovalTtlSeconds: 60,
    maxInterestRateBps: null,
    defaultPreapprovalProductId: null,
    disabled: false,
    defaultAfterDaysOverdue: null,
    notificationEmail: null,
    createdAt: '',
    updatedAt: '',
    ...org,
  };
  return { organisation, organisationId: 'o', mode, apiKeyId: 'k', publicKey: 'pk' };
}

describe('route access', () => {
  it('refuses live keys on sandbox routes and accepts test keys', () => {
    expect(() => checkAccess('sandbox', auth('live'))).toThrow(expect.objectContaining({ code: 'SANDBOX_ONLY', status: 403 }));
    expect(() => checkAccess('sandbox', auth('test'))).not.toThrow();
  });

  it('checks disabled, Loan Tenant, Pre-Approved Lending and the switch, in that order', () => {
    expect(() => checkAccess('preapproval', auth('test', { disabled: true, loanTenant: false }))).toThrow(expect.objectContaining({ code: 'ORGANISATION_DISABLED' }));
    expect(() => checkAccess('tenant', auth('test', { loanTenant: false }))).toThrow(expect.objectContaining({ code: 'LOAN_TENANT_PERMISSION_DENIED' }));
    expect(() => checkAccess('preapproval', auth('test', { preapprovedLending: false }))).toThrow(
      expect.objectContaining({ code: 'PREAPPROVED_LENDING_PERMISSION_DENIED' }),
    );
    expect(() => checkAccess('preapproval', auth('test', { preapprovalsEnabled: false }))).toThrow(expect.objectContaining({ code: 'FEATURE_DISABLED' }));
    expect(() => checkAccess('tenant', auth('live', { preapprovalsEnabled: false }))).not.toThrow();
  });

  it('reads the mode from the key prefix only', () => {
    expect(modeOfKey('pk_test_abcdefghijklmnopqrstuvwx')).toBe('test');
    expect(modeOfKey('sk_live_abcdefghijklmnopqrstuvwx')).toBe('live');
    expect(modeOfKey('pk_prod_abcdefghijklmnopqrstuvwx')).toBeUndefined();
    expect(modeOfKey('pk_test_short')).toBeUndefined();
  });
});
