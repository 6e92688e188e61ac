import type { Mode } from '../platform/domain/scope';
import type { BvnMatchOutcome, BvnIdentity } from '../platform/domain/ports';

export type { BvnMatchOutcome, BvnIdentity };

/**
 * The sandbox registry, deterministic. Test mode: BVN `00000000000` is unknown; a last name `Mismatch` (any case) does
 * not match the registry's name; date of birth `1900-01-01` does not match its date; anything else matches. Live mode
 * has no provider configured yet and throws, so no live application is ever matched on invented data.
 */
export class SandboxBvnIdentity implements BvnIdentity {
  async match(request: { bvn: string; firstName: string; lastName: string; dateOfBirth: string; mode: Mode }): Promise<BvnMatchOutcome> {
    if (request.mode === 'live') throw new Error('no live BVN identity provider is configured');
    if (request.bvn === '00000000000') return { outcome: 'not_found' };
    const fields: Array<'name' | 'date_of_birth'> = [];
    if (request.lastName.trim().toLowerCase() === 'mismatch') fields.push('name');
    if (request.dateOfBirth === '1900-01-01') fields.push('date_of_birth');
    return fields.length > 0 ? { outcome: 'mismatch', fields } : { outcome: 'match' };
  }
}
