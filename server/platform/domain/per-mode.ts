import { AppError } from './errors';
import type { PortName } from './ports';
import type { Mode } from './scope';

/** What the start-up log and `provider_not_configured` call each port. */
const PORT_TITLES: Record<PortName, string> = {
  payment_rail: 'payment rail',
  aml: 'AML screening provider',
  identity: 'identity verification provider',
  bvn_identity: 'BVN matching provider',
  credit_bureau: 'credit bureau',
  bank_lookup: 'bank account-name lookup provider',
  sms: 'SMS provider',
  insurance: 'insurance provider',
};

/** 503 `provider_not_configured`: the call was refused before anything was written. */
export function providerNotConfigured(port: PortName, provider?: string): AppError {
  const what = provider ? `${PORT_TITLES[port]} for ${provider}` : PORT_TITLES[port];
  return new AppError(
    'provider_not_configured',
    `No live ${what} is configured: live calls that need it are refused until one is (nothing was written).`,
    { port, provider },
    { port, ...(provider ? { provider } : {}) },
  );
}

/**
 * One port's adapter per mode: the sandbox adapter in test mode, the configured provider's in
 * live mode. `for('live')` with no live provider throws `provider_not_configured` — live mode
 * never falls back to a sandbox. Callers take the adapter before their first write, so a refusal
 * leaves nothing behind.
 */
export class PerMode<T> {
  constructor(
    readonly port: PortName,
    private readonly test: T,
    private readonly live?: { provider: string; adapter: T },
  ) {}

  for(mode: Mode): T {
    if (mode === 'test') return this.test;
    if (!this.live) throw providerNotConfigured(this.port);
    return this.live.adapter;
  }

  /** The live provider's name (`paystack`, `termii`, …), or null when live calls are refused. */
  get liveProvider(): string | null {
    return this.live?.provider ?? null;
  }
}
