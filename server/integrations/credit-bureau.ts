import type { Mode } from '../platform/domain/scope';
import type { BureauFacts, BureauOutcome, BureauReport, CreditBureau } from '../platform/domain/ports';

export type { BureauFacts, BureauOutcome, BureauReport, CreditBureau };

/**
 * The sandbox bureau, deterministic by the BVN's last digit (test mode only; live mode refuses). It answers the same
 * normalised facts a real bureau's report is reduced to, chosen so the policy (`gradeBureauFacts`) grades them:
 * `9` delinquent (a write-off and 120 days past due: declined); `1` thin file (nothing reported: band C);
 * `3`, `5`, `7` one payment 30 days late (band B); `0`, `2`, `4`, `6`, `8` clean (band A).
 */
export class SandboxCreditBureau implements CreditBureau {
  async report(request: { bvn: string; mode: Mode }): Promise<BureauReport> {
    if (request.mode === 'live') throw new Error('the sandbox credit bureau serves test mode only');
    const last = request.bvn.at(-1);
    const reference = `SBX-${request.bvn.slice(-4)}-${last}`;
    return { provider: 'sandbox', reference, facts: sandboxFacts(last) };
  }
}

/** Two closed facilities, repaid on time (nothing outstanding, so the sandbox never makes an application unaffordable by debt). */
const clean: BureauFacts = { facilitiesReported: 2, openFacilities: 0, totalOutstandingKobo: 0, worstDelinquencyDays24m: 0, writeOffs: 0, enquiries12m: 1 };

function sandboxFacts(last: string | undefined): BureauFacts {
  if (last === '9') return { facilitiesReported: 3, openFacilities: 2, totalOutstandingKobo: 42_000_000, worstDelinquencyDays24m: 120, writeOffs: 1, enquiries12m: 4 };
  if (last === '1') return { facilitiesReported: 0, openFacilities: 0, totalOutstandingKobo: 0, worstDelinquencyDays24m: 0, writeOffs: 0, enquiries12m: 0 };
  if (last === '3' || last === '5' || last === '7') return { ...clean, worstDelinquencyDays24m: 30 };
  return clean;
}
