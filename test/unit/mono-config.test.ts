import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';

/** Mono's settings: a live key in production over https; development accepts a test key and a local fake's origin. */
const production = { APP_ENV: 'production', MASTER_KEY: 'production-master-key-0123456789abcdef', PUBLIC_BASE_URL: 'https://lending.example', SMTP_URL: 'smtps://mail.lending.example' };
const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe('Mono settings', () => {
  it('production refuses a Mono test key and a non-https origin; accepts a live key', () => {
    expect(refusal({ ...production, MONO_SECRET_KEY: 'test_sk_abc' })).toMatch(/MONO_SECRET_KEY: is a Mono test key/);
    expect(refusal({ ...production, MONO_BASE_URL: 'http://127.0.0.1:9999' })).toMatch(/MONO_BASE_URL: must be an https:\/\/ URL in production/);
    expect(loadConfig({ ...production, MONO_SECRET_KEY: 'live_sk_abc' })).toMatchObject({ MONO_SECRET_KEY: 'live_sk_abc', MONO_BASE_URL: 'https://api.withmono.com', MONO_BUREAU_PROVIDER: 'all', MONO_BALANCE_INQUIRY: true });
  });

  it('development accepts a test key, a local origin and the bureau and balance-inquiry choices; refuses what is not a Mono key', () => {
    expect(loadConfig({ MONO_SECRET_KEY: 'test_sk_abc', MONO_BASE_URL: 'http://127.0.0.1:9999', MONO_BUREAU_PROVIDER: 'crc', MONO_BALANCE_INQUIRY: 'false' })).toMatchObject({
      MONO_BASE_URL: 'http://127.0.0.1:9999',
      MONO_BUREAU_PROVIDER: 'crc',
      MONO_BALANCE_INQUIRY: false,
    });
    expect(refusal({ MONO_SECRET_KEY: 'sk_live_paystack' })).toMatch(/MONO_SECRET_KEY/);
    expect(refusal({ MONO_BUREAU_PROVIDER: 'creditregistry' })).toMatch(/MONO_BUREAU_PROVIDER/);
    expect(refusal({ MONO_WEBHOOK_SECRET: 'short' })).toMatch(/MONO_WEBHOOK_SECRET/);
  });
});
