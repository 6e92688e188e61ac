import type { Mode } from '../platform/domain/scope';
import type { BureauOutcome, BureauReport, CreditBureau } from '../platform/domain/ports';

export type { BureauOutcome, BureauReport, CreditBureau };

/**
 * The sandbox bureau, deterministic by the BVN's last digit (test mode only; live mode has no bureau configured and
 * throws): `9` delinquent (no band: declined); `1` thin file (band C, score 600); `3`, `5`, `7` good (band B, score
 * 680); `0`, `2`, `4`, `6`, `8` good (band A, score 760).
 */
export class SandboxCreditBureau implements CreditBureau {
  async report(request: { bvn: string; mode: Mode }): Promise<BureauReport> {
    if (request.mode === 'live') throw new Error('no live credit bureau is configured');
    const last = request.bvn.at(-1);
    const reference = `SBX-${request.bvn.slice(-4)}-${last}`;
    if (last === '9') return { outcome: 'delinquent', score: 480, riskBand: null, reference };
    if (last === '1') return { outcome: 'thin_file', score: 600, riskBand: 'C', reference };
    if (last === '3' || last === '5' || last === '7') return { outcome: 'good', score: 680, riskBand: 'B', reference };
    return { outcome: 'good', score: 760, riskBand: 'A', reference };
  }
}
