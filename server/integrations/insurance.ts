import { randomBytes } from '../shared/random';
import type { Mode } from '../platform/domain/scope';
import type { InsurancePolicyResult, Insurer } from '../platform/domain/ports';

export type { InsurancePolicyResult, Insurer };

/** A principal whose kobo end in this is insured `pending` by the sandbox, to try recording a policy by hand. */
export const SANDBOX_PENDING_PRINCIPAL_KOBO_SUFFIX = 77;

/**
 * The sandbox insurer: issues a policy reference for any positive premium, refuses a zero premium. A principal ending
 * in 77 kobo is left `pending`, as the live insurer bound by hand leaves every policy, so the console's "record the
 * policy" can be tried in test mode.
 */
export class SandboxInsurer implements Insurer {
  readonly name = 'sandbox_insurer';
  async issuePolicy(request: { loanId: string; premiumKobo: number; principalKobo: number }): Promise<InsurancePolicyResult> {
    if (request.premiumKobo <= 0) return { status: 'failed', policyReference: null, errorMessage: 'premium must be above zero' };
    if (request.principalKobo % 100 === SANDBOX_PENDING_PRINCIPAL_KOBO_SUFFIX) return { status: 'pending', policyReference: null, errorMessage: null };
    return { status: 'active', policyReference: `SBX-POL-${randomBytes(5).toString('hex').toUpperCase()}`, errorMessage: null };
  }
}

/**
 * Live cover bound by hand. No insurer in Nigeria publishes an API the platform can call, so nothing is sent: the
 * policy is `pending` from disbursement (the premium is booked payable to the insurer then) until a staff member
 * records the policy number and document the insurer issued, under four eyes (`domain/ops/insurance-policies.ts`).
 * `name` is the insurer's short name (`INSURANCE_LIVE_INSURER`): the payable account's code.
 */
export class StaffRecordedInsurer implements Insurer {
  constructor(readonly name: string) {}
  async issuePolicy(): Promise<InsurancePolicyResult> {
    return { status: 'pending', policyReference: null, errorMessage: null };
  }
}
