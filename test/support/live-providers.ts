import { fundPool } from '../../server/platform/domain/pools/pool';
import { startFakePaystack, type FakePaystack, type FakePaystackOptions } from './fakes/paystack-fake';
import { startFakeDojah, type FakeDojah } from './fakes/dojah-fake';
import { startFakeTermii, type FakeTermii } from './fakes/termii-fake';
import type { TestApp } from './harness';
import { lendingTenant, type LendingTenant } from './lifecycle';

/**
 * Local fakes of the live providers (Paystack, Dojah, Termii; loopback only) and the environment that
 * points a test app's live mode at them. Start the fakes, start the app with `env`, then `connect(app)`
 * (Paystack's signed webhooks go to the app's `/webhooks/paystack`).
 */
export interface LiveProviders {
  paystack: FakePaystack;
  dojah: FakeDojah;
  termii: FakeTermii;
  paystackSecret: string;
  env: Record<string, string>;
  connect(app: TestApp): void;
  close(): Promise<void>;
}

export async function startLiveProviders(options: { paystack?: Omit<FakePaystackOptions, 'secretKey' | 'webhookUrl'>; secret?: string } = {}): Promise<LiveProviders> {
  const paystackSecret = options.secret ?? 'sk_test_fakepaystack0001';
  const paystackOptions: FakePaystackOptions = { secretKey: paystackSecret, ...options.paystack };
  const paystack = await startFakePaystack(paystackOptions);
  const dojah = await startFakeDojah({ appId: 'app_fake', secretKey: 'dojah_fake_secret' });
  const termii = await startFakeTermii({ apiKey: 'termii_fake_key', senderIds: ['Lending'] });
  return {
    paystack,
    dojah,
    termii,
    paystackSecret,
    env: {
      PAYSTACK_SECRET_KEY: paystackSecret,
      PAYSTACK_BASE_URL: paystack.url,
      DOJAH_APP_ID: 'app_fake',
      DOJAH_SECRET_KEY: 'dojah_fake_secret',
      DOJAH_BASE_URL: dojah.url,
      TERMII_API_KEY: 'termii_fake_key',
      TERMII_BASE_URL: termii.url,
      PROVIDER_TIMEOUT_MS: '2000',
    },
    connect(app) {
      // The fake reads its options at send time: Paystack posts its notifications to our public route.
      paystackOptions.webhookUrl = `${app.url}/webhooks/paystack`;
    },
    async close() {
      await Promise.all([paystack.close(), dojah.close(), termii.close()]);
    },
  };
}

/** A lending tenant whose live product has no insurance (no live insurer exists) and whose live pool is funded. */
export async function liveLendingTenant(app: TestApp, now: Date): Promise<LendingTenant> {
  const tenant = await lendingTenant(app, { product: { insuranceMode: 'off', insurancePremiumBps: 0 } });
  await app.platform.db.transaction().execute((trx) =>
    fundPool(trx, { organisationId: tenant.organisationId, mode: 'live', code: 'MAIN', amountKobo: 1_000_000_000, now }),
  );
  return tenant;
}
