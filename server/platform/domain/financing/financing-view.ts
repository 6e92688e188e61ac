import { fromJson } from '../../db/database';
import type { FinancingApplicationsTable } from '../../db/schema';
import type { CreditDecision, TenorOption } from './credit-policy';
import type { FinancingStatus } from './financing-application';

/** What the patient's browser sees of the application (never the BVN, its hash or the bureau report). */
export interface FinancingView {
  sdkReference: string;
  status: FinancingStatus;
  treatment: string;
  amountKobo: number;
  expiresAt: string;
  /** The tenors the patient may choose from, once approved. */
  options: TenorOption[] | null;
  riskBand: string | null;
  rejectionReason: string | null;
}

export function financingView(app: FinancingApplicationsTable): FinancingView {
  const decision = fromJson<CreditDecision>(app.decision);
  return {
    sdkReference: app.id,
    status: app.status as FinancingStatus,
    treatment: app.treatment,
    amountKobo: app.treatmentAmountKobo,
    expiresAt: app.expiresAt,
    options: decision?.approved ? decision.options : null,
    riskBand: app.riskBand,
    rejectionReason: app.rejectionReason,
  };
}
