import type { Mode } from '../../platform/db/schema';
import type { PaymentRail, PaymentRails, RailName } from '../../platform/domain/ports';
import { SandboxRailAdapter } from './sandbox-rail-adapter';
import { SandboxRailProvider, type SandboxRailProviderOptions } from './sandbox-rail-provider';

/**
 * The one place a payment rail is chosen: test mode speaks to the sandbox rails, live mode only
 * to a live adapter configured for that provider. Live mode never reaches a sandbox adapter:
 * with no live adapter for a provider, `railFor` answers `undefined` and the caller refuses the
 * call (`provider_not_configured`) before writing anything.
 */
export class RailRegistry implements PaymentRails {
  constructor(
    private readonly options: {
      /** The platform's public origin, read at call time (it is known only once the server listens). */
      baseUrl: () => string;
      /** The sandbox provider's state, for the test-mode "approve now" helper. */
      sandbox: SandboxRailProviderOptions;
      live?: Partial<Record<RailName, PaymentRail>>;
    },
  ) {}

  railFor(mode: Mode, name: RailName): PaymentRail | undefined {
    if (mode === 'test') return new SandboxRailAdapter(name, this.options.baseUrl());
    return this.options.live?.[name];
  }

  /** The providers live mode can use (for the start-up log). */
  liveRails(): RailName[] {
    const live = this.options.live ?? {};
    return (Object.keys(live) as RailName[]).filter((name) => live[name] !== undefined);
  }

  /**
   * Test mode only (`POST /v1/test/mandates/{id}/simulate-activation`): the sandbox provider
   * approves and confirms an authorisation at once. Refuses any other mode.
   */
  async approveInSandbox(mode: Mode, name: RailName, providerReference: string): Promise<void> {
    if (mode !== 'test') throw new Error('the sandbox rail serves test-mode mandates only');
    await new SandboxRailProvider(this.options.sandbox).approveAndConfirmNow(name, providerReference);
  }
}
