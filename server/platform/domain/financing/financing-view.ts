import { fromJson } from '../../db/database';
import type { FinancingApplicationsTable } from '../../db/schema';
import type { CreditDecision, TenorOption } from './credit-policy';
import type { FinancingStatus } from './financing-application';

/** What the patient's browser sees of the application: the checkout contract's `FinancingView`. */
export type { FinancingView } from '../../../shared/checkout-contract';
import type { FinancingView } from '../../../shared/checkout-contract';

export function financingView(app: FinancingApplicationsTable): FinancingView {
  const decision = fromJson<CreditDecision>(app.decision);
  return {
    sdkReference: app.id,
    status: app.status as FinancingStatus,
    treatment: app.treatment,
    amountKobo: app.treatmentAmountKobo,
    expiresAt: app.expiresAt,
    // A decision parked for a person's review (still `application_submitted`), or rejected on it, offers nothing.
    options: decision?.approved && !['application_submitted', 'rejected'].includes(app.status) ? decision.options : null,
    riskBand: app.riskBand,
    rejectionReason: app.rejectionReason,
  };
}
