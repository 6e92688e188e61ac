import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, securitySettings } from '../../server/config';
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

describe('the production profile', () => {
  const MASTER_KEY = 'production-master-key-0123456789abcdef';
  const production = { APP_ENV: 'production', MASTER_KEY, PUBLIC_BASE_URL: 'https://lending.example', SMTP_URL: 'smtps://mail.lending.example' };
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('the configuration was accepted');
  };

  it('with no configuration at all, npm start keeps the sandbox default', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ APP_ENV: 'development', SANDBOX_ROUTES_ENABLED: true, BOOTSTRAP_SANDBOX: true });
    expect(securitySettings(config)).toEqual({
      profile: 'development',
      sandboxRoutes: true,
      demo: true,
      bootstrapSandbox: true,
      masterKeySource: 'data-dir file',
      publicUrlScheme: 'http',
      trustProxy: false,
    });
  });

  it('production refuses a Paystack test key and provider origins that are not https; development accepts both (local fakes)', () => {
    expect(refusal({ ...production, PAYSTACK_SECRET_KEY: 'sk_test_abc' })).toMatch(/PAYSTACK_SECRET_KEY: is a Paystack test key/);
    for (const key of ['PAYSTACK_BASE_URL', 'DOJAH_BASE_URL', 'TERMII_BASE_URL']) {
      expect(refusal({ ...production, [key]: 'http://127.0.0.1:9999' })).toMatch(new RegExp(`${key}: must be an https:// URL in production`));
    }
    expect(loadConfig({ ...production, PAYSTACK_SECRET_KEY: 'sk_live_abc' }).PAYSTACK_SECRET_KEY).toBe('sk_live_abc');
    expect(loadConfig({ PAYSTACK_SECRET_KEY: 'sk_test_abc', PAYSTACK_BASE_URL: 'http://127.0.0.1:9999' })).toMatchObject({ PAYSTACK_BASE_URL: 'http://127.0.0.1:9999' });
  });

  it('APP_ENV=production turns the sandbox routes, the demo and the sandbox bootstrap off', () => {
    const config = loadConfig(production);
    expect(config).toMatchObject({ APP_ENV: 'production', SANDBOX_ROUTES_ENABLED: false, BOOTSTRAP_SANDBOX: false });
    expect(securitySettings(config)).toEqual({
      profile: 'production',
      sandboxRoutes: false,
      demo: false,
      bootstrapSandbox: false,
      masterKeySource: 'environment',
      publicUrlScheme: 'https',
      trustProxy: false,
    });
  });

  it('NODE_ENV=production chooses the production profile when APP_ENV is unset; APP_ENV decides when set', () => {
    expect(loadConfig({ NODE_ENV: 'production', MASTER_KEY, PUBLIC_BASE_URL: 'https://lending.example', MAIL_TO_FILES: 'true' }).APP_ENV).toBe('production');
    expect(refusal({ NODE_ENV: 'production' })).toMatch(/MASTER_KEY: is required in production/);
    expect(loadConfig({ NODE_ENV: 'production', APP_ENV: 'development' }).APP_ENV).toBe('development');
    expect(loadConfig({ NODE_ENV: 'test' }).APP_ENV).toBe('development');
    expect(refusal({ APP_ENV: 'staging' })).toMatch(/APP_ENV/);
  });

  it.each([
    ['SANDBOX_ROUTES_ENABLED', 'true', /SANDBOX_ROUTES_ENABLED: must be false in production/],
    ['SANDBOX_ROUTES_ENABLED', '1', /SANDBOX_ROUTES_ENABLED: must be false in production/],
    ['BOOTSTRAP_SANDBOX', 'true', /BOOTSTRAP_SANDBOX: must be false in production/],
    ['WEBHOOK_ALLOW_LOOPBACK', 'true', /WEBHOOK_ALLOW_LOOPBACK: is a development-only flag and is refused in production/],
    ['PUBLIC_BASE_URL', 'http://lending.example', /PUBLIC_BASE_URL: must be an https:\/\/ URL in production/],
  ])('when production sets %s=%s, then it refuses to start, naming the key', (key, value, message) => {
    expect(refusal({ ...production, [key]: value })).toMatch(message);
  });

  it('when production has no e-mail transport, then it refuses to start unless MAIL_TO_FILES=true says mail goes to files', () => {
    const { SMTP_URL: _, ...withoutTransport } = production;
    expect(refusal(withoutTransport)).toMatch(/SMTP_URL: is required in production: without an e-mail transport, verification, password-reset and invitation links would be written as files/);
    expect(refusal({ ...withoutTransport, MAIL_TO_FILES: 'false' })).toMatch(/SMTP_URL: is required in production/);
    expect(loadConfig({ ...withoutTransport, MAIL_TO_FILES: 'true' }).MAIL_TO_FILES).toBe(true);
    // Outside production mail goes to files without asking.
    expect(loadConfig({}).SMTP_URL).toBeUndefined();
  });

  it('when production has no MASTER_KEY or no PUBLIC_BASE_URL, then it refuses to start, naming each', () => {
    const message = refusal({ APP_ENV: 'production' });
    expect(message).toMatch(/MASTER_KEY: is required in production/);
    expect(message).toMatch(/PUBLIC_BASE_URL: is required in production/);
  });

  it('switches set to false in production, and the development flags off, are accepted', () => {
    const config = loadConfig({ ...production, SANDBOX_ROUTES_ENABLED: 'false', BOOTSTRAP_SANDBOX: 'false', WEBHOOK_ALLOW_LOOPBACK: 'false' });
    expect(config.SANDBOX_ROUTES_ENABLED).toBe(false);
  });

  it('outside production the same settings are accepted (a developer may use loopback webhooks and plain http)', () => {
    expect(() => loadConfig({ SANDBOX_ROUTES_ENABLED: 'true', WEBHOOK_ALLOW_LOOPBACK: 'true', PUBLIC_BASE_URL: 'http://localhost:3000' })).not.toThrow();
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
    liveEnabled: true,
    quietHoursStart: '21:00',
    quietHoursEnd: '08:00',
    quietHoursTimeZone: 'Africa/Lagos',
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
