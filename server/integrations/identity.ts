import type { Mode } from '../platform/domain/scope';
import type { KycOutcome, KycCheckResult, IdentityVerifier } from '../platform/domain/ports';

export type { KycOutcome, KycCheckResult, IdentityVerifier };

/**
 * The sandbox verifier. Test mode: BVN 22222222222 verifies, 00000000000 fails, 11111111111 is
 * pending on its first submission and verifies on the next, 33333333333 is undecided (a person must
 * decide: the loan waits for a review); any other BVN verifies. Live mode
 * never honours these values: with no live provider configured every check stays pending.
 */
export class SandboxIdentityVerifier implements IdentityVerifier {
  async verify(request: { bvn: string; nin?: string; mode: Mode; previousAttempts: number }): Promise<KycCheckResult> {
    const documents = (status: string) => [
      { type: 'bvn', status },
      ...(request.nin ? [{ type: 'nin', status }] : []),
    ];
    if (request.mode === 'live') return { outcome: 'pending', documents: documents('pending') };
    if (request.bvn === '00000000000') return { outcome: 'failed', documents: documents('failed') };
    if (request.bvn === '11111111111' && request.previousAttempts === 0) return { outcome: 'pending', documents: documents('pending') };
    if (request.bvn === '33333333333') return { outcome: 'undecided', documents: documents('undecided') };
    return { outcome: 'verified', documents: documents('verified') };
  }
}
