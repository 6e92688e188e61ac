import { z } from 'zod';
import type { Mode } from '../../platform/db/schema';
import type { BvnIdentity, BvnMatchOutcome } from '../bvn-identity';
import { ProviderError } from '../provider-http';
import { isDojahNotFound, isoDate, type DojahClient } from './dojah-http';

/**
 * `BvnIdentity` over Dojah's "Validate BVN" (lookup with match): `GET /api/v1/kyc/bvn?bvn&first_name&last_name&dob`
 * (https://docs.dojah.io/docs/nigeria/validate-bvn). Dojah compares the typed details with the BVN record and
 * answers per field — `entity.bvn.status`, `entity.first_name|last_name.{confidence_value 0–100, status}`,
 * `entity.date_of_birth.status` — without the record itself, which is exactly what this port wants: the
 * service never receives, returns or logs the registry's data. An unknown BVN is a 400/404 `{ "error": "BVN not found" }`.
 *
 * Name threshold: a name part matches when Dojah says `status: true` AND `confidence_value >= 90`. Dojah's
 * docs give no cut-off for this endpoint; 90 is the one they document for their own match verdicts on
 * confidence values ("0–90 denote match value is false, 90–100 denote match value is true", BVN/NIN
 * selfie and photo-ID verification pages). Requiring both means a lenient provider verdict on a weak
 * name similarity does not pass. Configurable (`nameConfidenceThreshold`).
 *
 * An answer without a verdict for a field that was sent (no `last_name` or `date_of_birth` block) is not
 * read as a match: it throws `ProviderError('dojah_incomplete_answer')`, like any other case where the
 * provider cannot answer (the port maps throws to 502 `identity_unavailable`).
 */
export const DEFAULT_NAME_CONFIDENCE_THRESHOLD = 90;

const FieldVerdict = z.object({ status: z.boolean(), confidence_value: z.number().optional() });
/** Only the verdicts are kept: zod drops every other field Dojah may add (`bvn.value` included). */
const ValidateBvnAnswer = z.object({
  entity: z.object({
    bvn: z.object({ status: z.boolean() }),
    first_name: FieldVerdict.optional(),
    last_name: FieldVerdict.optional(),
    date_of_birth: z.object({ status: z.boolean() }).optional(),
  }),
});

export interface DojahBvnIdentityOptions {
  /** 0–100; see the class comment. */
  nameConfidenceThreshold?: number;
}

export class DojahBvnIdentity implements BvnIdentity {
  private readonly threshold: number;

  constructor(
    private readonly dojah: DojahClient,
    options: DojahBvnIdentityOptions = {},
  ) {
    this.threshold = options.nameConfidenceThreshold ?? DEFAULT_NAME_CONFIDENCE_THRESHOLD;
  }

  async match(request: { bvn: string; firstName: string; lastName: string; dateOfBirth: string; mode: Mode }): Promise<BvnMatchOutcome> {
    this.dojah.assertMode(request.mode);
    const dob = isoDate(request.dateOfBirth);
    if (!dob) throw new ProviderError('dojah', 'dojah_bad_request', 'dojah: could not validate the BVN: the date of birth is not YYYY-MM-DD.', null, false, false);
    let answer: z.infer<typeof ValidateBvnAnswer>;
    try {
      answer = await this.dojah.get(
        'validate the BVN',
        '/api/v1/kyc/bvn',
        { bvn: request.bvn, first_name: request.firstName.trim(), last_name: request.lastName.trim(), dob },
        ValidateBvnAnswer,
      );
    } catch (error) {
      if (isDojahNotFound(error)) return { outcome: 'not_found' };
      throw error;
    }
    const { entity } = answer;
    if (!entity.bvn.status) return { outcome: 'not_found' };
    if (!entity.first_name || !entity.last_name || !entity.date_of_birth) {
      throw new ProviderError('dojah', 'dojah_incomplete_answer', 'dojah: could not validate the BVN: the answer has no verdict for one of the fields sent.', 200, false, false);
    }
    const fields: Array<'name' | 'date_of_birth'> = [];
    if (!this.nameMatches(entity.first_name) || !this.nameMatches(entity.last_name)) fields.push('name');
    if (!entity.date_of_birth.status) fields.push('date_of_birth');
    return fields.length > 0 ? { outcome: 'mismatch', fields } : { outcome: 'match' };
  }

  private nameMatches(verdict: z.infer<typeof FieldVerdict>): boolean {
    return verdict.status && (verdict.confidence_value ?? 0) >= this.threshold;
  }
}
