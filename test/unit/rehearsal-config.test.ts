import { describe, expect, it } from 'vitest';
import { ConfigError, isLoopbackHost, loadConfig, securitySettings } from '../../server/config';
import { checkEndpointUrl } from '../../server/platform/domain/webhooks/endpoint';
import { webhookAddressPolicy } from '../../server/shared/address-policy';
import { describeLiveProviders, renderStartBanner } from '../../server/start-banner';
import { AppError } from '../../server/platform/domain/errors';

/** The rehearsal of live mode (`REHEARSAL=true`, docs/rehearsal.md): what it relaxes, and only on this machine. */
const MASTER_KEY = 'k'.repeat(40);
const rehearsal = {
  APP_ENV: 'production',
  REHEARSAL: 'true',
  MASTER_KEY,
  HOST: '127.0.0.1',
  PUBLIC_BASE_URL: 'http://127.0.0.1:4100',
  MAIL_TO_FILES: 'true',
  PAYSTACK_SECRET_KEY: 'sk_test_fake',
  PAYSTACK_BASE_URL: 'http://127.0.0.1:4101',
  DOJAH_BASE_URL: 'http://127.0.0.1:4102',
  TERMII_BASE_URL: 'http://localhost:4103',
  MONO_SECRET_KEY: 'test_sk_fake',
  MONO_BASE_URL: 'http://[::1]:4104',
  WEBHOOK_ALLOW_LOOPBACK: 'true',
};

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('the configuration was accepted');
}

describe('REHEARSAL', () => {
  it('is the production profile with plain http, providers\' test keys and loopback webhooks, everything on loopback', () => {
    const config = loadConfig(rehearsal);
    expect(config).toMatchObject({ APP_ENV: 'production', REHEARSAL: true, SANDBOX_ROUTES_ENABLED: false, BOOTSTRAP_SANDBOX: false });
    expect(securitySettings(config)).toMatchObject({ profile: 'production', sandboxRoutes: false, rehearsal: true });
    // The same settings without REHEARSAL are refused, each by name.
    const { REHEARSAL: _, ...real } = rehearsal;
    const message = refusal(real);
    for (const key of ['PUBLIC_BASE_URL', 'PAYSTACK_BASE_URL', 'DOJAH_BASE_URL', 'TERMII_BASE_URL', 'MONO_BASE_URL', 'PAYSTACK_SECRET_KEY', 'MONO_SECRET_KEY', 'WEBHOOK_ALLOW_LOOPBACK']) {
      expect(message).toContain(`${key}:`);
    }
    expect(securitySettings(loadConfig({}))).not.toHaveProperty('rehearsal');
  });

  it('is refused when anything would leave the machine, naming the key', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ HOST: '0.0.0.0' }, /HOST: must be a loopback address in a rehearsal/],
      [{ PUBLIC_BASE_URL: 'https://lending.example' }, /PUBLIC_BASE_URL: must be a loopback origin/],
      [{ PAYSTACK_BASE_URL: 'https://api.paystack.co' }, /PAYSTACK_BASE_URL: must be a loopback URL \(a local fake of the provider\)/],
      [{ DOJAH_BASE_URL: 'https://api.dojah.io' }, /DOJAH_BASE_URL: must be a loopback URL/],
      [{ TERMII_BASE_URL: 'https://api.ng.termii.com' }, /TERMII_BASE_URL: must be a loopback URL/],
      [{ MONO_BASE_URL: 'https://api.withmono.com' }, /MONO_BASE_URL: must be a loopback URL/],
      [{ DATABASE_URL: 'postgres://db.example/lending' }, /DATABASE_URL: must be unset in a rehearsal/],
      [{ SMTP_URL: 'smtps://mail.example' }, /SMTP_URL: must be unset/],
      [{ S3_BUCKET: 'recordings' }, /S3_BUCKET: must be unset/],
      [{ REDIS_URL: 'redis://cache.example:6379' }, /REDIS_URL: must be a loopback URL/],
      [{ APP_ENV: 'development' }, /REHEARSAL: a rehearsal runs the production profile/],
    ];
    for (const [change, expected] of cases) expect(refusal({ ...rehearsal, ...change }), JSON.stringify(change)).toMatch(expected);
    // A provider left at its real default is refused too.
    const { DOJAH_BASE_URL: _, ...withoutDojah } = rehearsal;
    expect(refusal(withoutDojah)).toMatch(/DOJAH_BASE_URL: must be a loopback URL/);
  });

  it('knows loopback', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', 'LOCALHOST']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '10.0.0.1', 'lending.example', '127.0.0.1.example', '::']) expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('webhook endpoints in a rehearsal', () => {
  const refused = (url: string, mode: 'test' | 'live', policy: ReturnType<typeof webhookAddressPolicy>) => {
    try {
      checkEndpointUrl(url, mode, policy);
      return undefined;
    } catch (error) {
      return (error as AppError).code;
    }
  };
  const inRehearsal = webhookAddressPolicy({ WEBHOOK_ALLOW_LOOPBACK: false, REHEARSAL: true });
  const elsewhere = webhookAddressPolicy({ WEBHOOK_ALLOW_LOOPBACK: true, REHEARSAL: false });

  it('accepts a plain-http loopback receiver for live events, and only loopback receivers', () => {
    expect(refused('http://127.0.0.1:9000/hooks', 'live', inRehearsal)).toBeUndefined();
    expect(refused('http://localhost:9000/hooks', 'live', inRehearsal)).toBeUndefined();
    expect(refused('https://partner.example/hooks', 'live', inRehearsal)).toBe('webhook_url_not_allowed');
    expect(refused('https://8.8.8.8/hooks', 'test', inRehearsal)).toBe('webhook_url_not_allowed');
  });

  it('outside a rehearsal a live endpoint must be https, loopback allowed or not', () => {
    expect(refused('http://127.0.0.1:9000/hooks', 'live', elsewhere)).toBe('invalid_request');
    expect(refused('http://127.0.0.1:9000/hooks', 'test', elsewhere)).toBeUndefined();
    expect(refused('https://partner.example/hooks', 'live', elsewhere)).toBeUndefined();
  });
});

describe('the live providers in words', () => {
  it('names both rails and the bureau', () => {
    expect(
      describeLiveProviders({ rail: 'rail_a:paystack+rail_b:mono', aml: 'dojah', identity: 'dojah', bvnIdentity: 'dojah', bureau: 'mono:all', bankLookup: 'paystack', sms: 'termii', insurance: 'none' }),
    ).toBe('rail_a Paystack direct debit, rail_b Mono Direct Debit, bureau Mono (CRC and FirstCentral), identity Dojah, AML Dojah, bank names Paystack, texts Termii');
    expect(describeLiveProviders({ rail: 'none', aml: 'none', identity: 'none', bureau: 'none', bankLookup: 'none', sms: 'none' })).toBe(
      'rails none, bureau none, identity none, AML none, bank names none, texts none',
    );
    expect(describeLiveProviders({ rail: 'rail_b:mono', bureau: 'mono:xds' })).toMatch(/^rail_b Mono Direct Debit, bureau Mono \(FirstCentral\)/);
  });

  it('is a row of the start-up block when asked (a rehearsal), with where the keys are', () => {
    const text = renderStartBanner({ baseUrl: 'http://127.0.0.1:4100', demo: false, dashboard: true, liveProviders: { rail: 'rail_a:paystack+rail_b:mono', bureau: 'mono:all' }, keys: 'the live key pair npm run rehearse printed' });
    expect(text).toMatch(/Live providers\s+rail_a Paystack direct debit, rail_b Mono Direct Debit, bureau Mono \(CRC and FirstCentral\)/);
    expect(text).toMatch(/Keys\s+the live key pair npm run rehearse printed/);
    expect(renderStartBanner({ baseUrl: 'http://localhost:3000', demo: true, dashboard: true })).not.toContain('Live providers');
  });
});
