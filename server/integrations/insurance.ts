import { randomBytes } from '../platform/domain/random';
import type { Mode } from '../platform/db/schema';

export interface InsurancePolicyResult {
  status: 'active' | 'failed';
  policyReference: string | null;
  errorMessage: string | null;
}

/** Credit-life cover bought for a loan at disbursement (automatic) or on the tenant's request (manual). */
export interface Insurer {
  readonly name: string;
  issuePolicy(request: { loanId: string; premiumKobo: number; principalKobo: number; tenorDays: number; mode: Mode }): Promise<InsurancePolicyResult>;
}

/** The sandbox insurer: issues a policy reference for any positive premium, refuses a zero premium. */
export class SandboxInsurer implements Insurer {
  readonly name = 'sandbox_insurer';
  async issuePolicy(request: { loanId: string; premiumKobo: number }): Promise<InsurancePolicyResult> {
    if (request.premiumKobo <= 0) return { status: 'failed', policyReference: null, errorMessage: 'premium must be above zero' };
    return { status: 'active', policyReference: `SBX-POL-${randomBytes(5).toString('hex').toUpperCase()}`, errorMessage: null };
  }
}
