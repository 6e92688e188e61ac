import type { Mode } from '../platform/db/schema';

/** What the BVN registry says about the details a patient typed. */
export type BvnMatchOutcome =
  | { outcome: 'match' }
  | { outcome: 'mismatch'; fields: Array<'name' | 'date_of_birth'> }
  | { outcome: 'not_found' };

/**
 * Identity port for patient financing: does this BVN belong to the person with this name and date of birth?
 * (A BVN-matching provider's "verify with match" call; the service never receives the registry's record.)
 * Throws when the provider cannot answer (mapped to 502 `identity_unavailable`).
 */
export interface BvnIdentity {
  match(request: { bvn: string; firstName: string; lastName: string; dateOfBirth: string; mode: Mode }): Promise<BvnMatchOutcome>;
}

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
