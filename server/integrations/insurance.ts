import { randomBytes } from '../shared/random';
import type { Mode } from '../platform/domain/scope';
import type { InsurancePolicyResult, Insurer } from '../platform/domain/ports';

export type { InsurancePolicyResult, Insurer };

/** The sandbox insurer: issues a policy reference for any positive premium, refuses a zero premium. */
export class SandboxInsurer implements Insurer {
  readonly name = 'sandbox_insurer';
  async issuePolicy(request: { loanId: string; premiumKobo: number }): Promise<InsurancePolicyResult> {
    if (request.premiumKobo <= 0) return { status: 'failed', policyReference: null, errorMessage: 'premium must be above zero' };
    return { status: 'active', policyReference: `SBX-POL-${randomBytes(5).toString('hex').toUpperCase()}`, errorMessage: null };
  }
}
