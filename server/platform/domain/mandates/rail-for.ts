import type { Mode } from '../scope';
import type { Services } from '../services';
import type { PaymentRail, RailName } from '../ports';
import { AppError } from '../errors';

/** The mode's rail for a provider; in live mode with none configured, 503 `provider_not_configured` (the caller has written nothing yet). */
export function railFor(platform: Pick<Services, 'rails'>, mode: Mode, provider: RailName): PaymentRail {
  const rail = platform.rails.railFor(mode, provider);
  if (!rail) throw railNotConfigured(provider);
  return rail;
}

export function railNotConfigured(provider: RailName): AppError {
  return new AppError(
    'provider_not_configured',
    `No live payment rail is configured for ${provider}: live mandates and charges are refused until one is (nothing was written).`,
    { provider },
    { port: 'payment_rail', provider },
  );
}
