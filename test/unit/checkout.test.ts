import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { checkAccess } from '../../server/platform/http/route';
import type { AuthContext } from '../../server/platform/http/authenticate';
import { maskPhone, normalisePhone } from '../../server/platform/domain/users/phone';
import type { SmsSender } from '../../server/integrations/sms';
import { PerMode } from '../../server/platform/domain/per-mode';
import { SandboxBankLookup } from '../../server/integrations/bank-lookup';
import { isValidNuban, nubanCheckDigit } from '../../server/platform/domain/payouts/nuban';
import { renderCheckoutPage } from '../../server/checkout/page';

describe('phone normalisation', () => {
  it.each([
    ['08012345678', '+2348012345678'],
    ['+234 801 234 5678', '+2348012345678'],
    ['2348012345678', '+2348012345678'],
    ['+234 (0) 801-234-5678', '+2348012345678'],
    ['00234 8012345678', '+2348012345678'],
    ['+447700900123', '+447700900123'],
  ])('%s → %s', (raw, e164) => {
    expect(normalisePhone(raw)).toBe(e164);
  });

  it.each(['', '12345', '0801234567', '+2341012345678', 'phone', '+234801234567890'])('refuses %j', (raw) => {
    expect(normalisePhone(raw)).toBeNull();
  });

  it('masks all but the last four digits', () => {
    expect(maskPhone('+2348012345678')).toBe('•••• 5678');
  });
});

describe('checkout-session credential', () => {
  const organisation = {
    id: 'o', name: 'o', loanTenant: true, preapprovedLending: true, preapprovalsEnabled: true, autoIssueOffers: false, preapprovalTtlSeconds: 60,
    maxInterestRateBps: null, defaultPreapprovalProductId: null, disabled: false, defaultAfterDaysOverdue: null, notificationEmail: null, liveEnabled: true,
    quietHoursStart: '21:00', quietHoursEnd: '08:00', quietHoursTimeZone: 'Africa/Lagos', createdAt: '', updatedAt: '',
  };
  const key: AuthContext = { organisation, organisationId: 'o', mode: 'test', apiKeyId: 'k', publicKey: 'pk' };
  const session: AuthContext = { ...key, apiKeyId: 'checkout-session:s', publicKey: '', checkoutSession: { sessionId: 's', loanId: 'l', borrowerId: 'b', organisationId: 'o', mode: 'test' } };

  it('reaches only checkoutSession routes, and those refuse API keys', () => {
    expect(() => checkAccess('checkoutSession', session)).not.toThrow();
    for (const access of ['tenant', 'preapproval', 'sandbox'] as const) {
      expect(() => checkAccess(access, session)).toThrow(expect.objectContaining({ code: 'credential_not_allowed', status: 403 }));
    }
    expect(() => checkAccess('checkoutSession', key)).toThrow(expect.objectContaining({ code: 'credential_not_allowed' }));
  });

  it('stops working when the organisation is disabled', () => {
    expect(() => checkAccess('checkoutSession', { ...session, organisation: { ...organisation, disabled: true } })).toThrow(expect.objectContaining({ code: 'ORGANISATION_DISABLED' }));
  });
});

describe('SMS per mode', () => {
  it('per mode: test mode keeps to the sandbox, live mode to its provider, and live without one is refused with 503 provider_not_configured', async () => {
    const sent: string[] = [];
    const sender = (name: string): SmsSender => ({ send: async () => void sent.push(name) });
    const sms = new PerMode<SmsSender>('sms', sender('sandbox'), { provider: 'termii', adapter: sender('live') });
    await sms.for('test').send({ to: '+2348012345678', body: 'x', mode: 'test' });
    await sms.for('live').send({ to: '+2348012345678', body: 'x', mode: 'live' });
    expect(sent).toEqual(['sandbox', 'live']);
    expect(sms.liveProvider).toBe('termii');
    const unconfigured = new PerMode<SmsSender>('sms', sender('sandbox'));
    expect(unconfigured.liveProvider).toBeNull();
    expect(() => unconfigured.for('live')).toThrow(expect.objectContaining({ code: 'provider_not_configured', status: 503, data: { port: 'sms' } }));
    expect(sent).toEqual(['sandbox', 'live']);
  });
});

describe('sandbox bank lookup', () => {
  const lookup = new SandboxBankLookup();
  it('lists unique codes: 3-digit CBN codes for banks, 6-digit NIP codes for the others', () => {
    const banks = lookup.listBanks();
    expect(banks.length).toBeGreaterThanOrEqual(50);
    expect(new Set(banks.map((b) => b.code)).size).toBe(banks.length);
    expect(new Set(banks.map((b) => b.nipCode)).size).toBe(banks.length);
    for (const b of banks) {
      expect(b.code).toMatch(b.nubanCode && b.nubanCode.length === 3 ? /^\d{3}$/ : /^\d{6}$/);
      expect(b.nipCode).toMatch(/^\d{6}$/);
    }
  });

  it('names ordinary accounts after the borrower asking (bank style), and honours the magic serials in test mode only', async () => {
    const account = `123456789${nubanCheckDigit('058', '123456789')}`;
    expect(isValidNuban('058', account)).toBe(true);
    expect(await lookup.resolveAccount({ bankCode: '058', accountNumber: account, mode: 'test', sandboxHolderName: 'Amaka Okafor' })).toEqual({ found: true, accountName: 'OKAFOR AMAKA' });
    expect(await lookup.resolveAccount({ bankCode: '058', accountNumber: '7777777770', mode: 'test', sandboxHolderName: 'Amaka Okafor' })).toEqual({ found: true, accountName: 'ADEYEMI NGOZI' });
    expect(await lookup.resolveAccount({ bankCode: '058', accountNumber: '7777777770', mode: 'test', sandboxHolderName: 'Ngozi Adeyemi' })).toEqual({ found: true, accountName: 'OKAFOR AMAKA' });
    expect(await lookup.resolveAccount({ bankCode: '058', accountNumber: '6666666660', mode: 'test', sandboxHolderName: 'Amaka Okafor' })).toEqual({ found: true, accountName: 'OKAFOR A.' });
    // Without the hint (no borrower): a deterministic invented name.
    const a = await lookup.resolveAccount({ bankCode: '058', accountNumber: account, mode: 'test' });
    expect(a).toEqual({ found: true, accountName: expect.stringMatching(/^[A-Z]+ [A-Z]+$/) });
    expect(await lookup.resolveAccount({ bankCode: '058', accountNumber: account, mode: 'test' })).toEqual(a);
    expect(await lookup.resolveAccount({ bankCode: '058', accountNumber: '9999999990', mode: 'test' })).toEqual({ found: false });
    await expect(lookup.resolveAccount({ bankCode: '058', accountNumber: '8888888880', mode: 'test' })).rejects.toThrow();
    await expect(lookup.resolveAccount({ bankCode: '058', accountNumber: account, mode: 'live', sandboxHolderName: 'Amaka Okafor' })).rejects.toThrow(/live/);
  });
});

describe('checkout configuration and page', () => {
  it('parses CHECKOUT_TRUST_PROXY like Express trust proxy values', () => {
    expect(loadConfig({}).CHECKOUT_TRUST_PROXY).toBe(false);
    expect(loadConfig({ CHECKOUT_TRUST_PROXY: 'true' }).CHECKOUT_TRUST_PROXY).toBe(true);
    expect(loadConfig({ CHECKOUT_TRUST_PROXY: '2' }).CHECKOUT_TRUST_PROXY).toBe(2);
    expect(loadConfig({ CHECKOUT_TRUST_PROXY: 'loopback, 10.0.0.0/8' }).CHECKOUT_TRUST_PROXY).toEqual(['loopback', '10.0.0.0/8']);
  });

  it('needs both Dojah credentials or neither, a real Paystack key shape, and a cap at least the session lifetime', () => {
    expect(() => loadConfig({ DOJAH_APP_ID: 'app' })).toThrow(/DOJAH_SECRET_KEY/);
    expect(() => loadConfig({ DOJAH_SECRET_KEY: 'secret' })).toThrow(/DOJAH_APP_ID/);
    expect(() => loadConfig({ PAYSTACK_SECRET_KEY: 'pk_live_abc' })).toThrow(/PAYSTACK_SECRET_KEY/);
    expect(loadConfig({ PAYSTACK_SECRET_KEY: 'sk_test_abc123' }).PAYSTACK_SECRET_KEY).toBe('sk_test_abc123');
    expect(() => loadConfig({ CHECKOUT_SESSION_TTL_MINUTES: '60', CHECKOUT_SESSION_MAX_LIFETIME_MINUTES: '30' })).toThrow(/CHECKOUT_SESSION_MAX_LIFETIME_MINUTES/);
    expect(loadConfig({})).toMatchObject({ CHECKOUT_SESSION_TTL_MINUTES: 30, CHECKOUT_SESSION_MAX_LIFETIME_MINUTES: 720, SANDBOX_ROUTES_ENABLED: true });
  });

  it('escapes the base path in the page', () => {
    expect(renderCheckoutPage({ basePath: '/a"><script>', state: 'ready' })).not.toContain('"><script>');
  });
});
