import type { Db } from '../../db/database';
import { updateCheckoutSettings, type CheckoutSettings, type CheckoutSettingsChanges } from '../checkout/checkout-settings';
import type { Scope } from '../scope';
import { inUnitOfWork } from '../unit-of-work';
import { writeAudit, type RequestOrigin } from './audit';

/**
 * The dashboard's save of the checkout settings: the partner API's change (same checks, same upsert) and its audit row
 * `checkout_settings_updated` (target `checkout-settings:<mode>`) in one transaction. A refused value changes nothing
 * and writes no audit row.
 */
export function saveCheckoutSettings(
  db: Db,
  scope: Scope,
  changes: CheckoutSettingsChanges,
  by: { userId: string; origin: RequestOrigin; now: Date },
): Promise<CheckoutSettings> {
  return inUnitOfWork(db, async (tx) => {
    const settings = await updateCheckoutSettings(tx, scope, changes, by.now);
    await writeAudit(tx, { userId: by.userId, organisationId: scope.organisationId, action: 'checkout_settings_updated', target: `checkout-settings:${scope.mode}`, origin: by.origin, now: by.now });
    return settings;
  });
}
