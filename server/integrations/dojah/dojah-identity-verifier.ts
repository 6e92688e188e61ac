import { z } from 'zod';
import type { Mode } from '../../platform/db/schema';
import type { IdentityVerifier, KycCheckResult, KycOutcome } from '../identity';
import { isDojahNotFound, isDojahUpstreamFailure, isoDate, type DojahClient } from './dojah-http';

/**
 * `IdentityVerifier` (managed-tier KYC) over Dojah:
 * - BVN: "Validate BVN", `GET /api/v1/kyc/bvn?bvn[&dob]` (https://docs.dojah.io/docs/nigeria/validate-bvn):
 *   Dojah says whether the BVN exists (`entity.bvn.status`) and, when a date of birth is sent, whether it
 *   matches (`entity.date_of_birth.status`). No record comes back.
 * - NIN (when given): "Lookup NIN", `GET /api/v1/kyc/nin?nin` (Dojah KYC API, the same `entity` shape as the
 *   documented NIN-with-selfie answer: https://docs.dojah.io/docs/nigeria/verify-nin-with-selfie-image).
 *   Dojah has no match-only NIN call without a selfie, so the record does come back; the schema below keeps
 *   its `date_of_birth` only (zod drops the rest on parse) and that is compared here, then dropped.
 *
 * Per document: `verified` (exists, and the date of birth matches when one was given), `failed` (unknown
 * number, or another date of birth), `pending` (Dojah's upstream registry failed with 424: asking again may
 * answer), `undecided` (Dojah answered, but with nothing to compare the date of birth with: no verdict, or a
 * record date that is not a date; asking again will not change that, so a person decides). Overall: any
 * `failed` → failed, else any `pending` → pending, else any `undecided` → undecided, else verified.
 *
 * Outages — timeouts, 5xx, 429, an open circuit, unreadable answers, and refusals of our own call (401 wrong
 * keys, 402 balance, 400 bad parameters) — throw the `ProviderError` for the caller to map; they are never
 * turned into a KYC outcome. A date of birth that is not `YYYY-MM-DD` is not sent (Dojah takes no other
 * format): the BVN is then checked for existence only. `previousAttempts` is a sandbox notion and is ignored.
 */
const BvnAnswer = z.object({
  entity: z.object({
    bvn: z.object({ status: z.boolean() }),
    date_of_birth: z.object({ status: z.boolean() }).optional(),
  }),
});
const NinAnswer = z.object({ entity: z.object({ date_of_birth: z.string().optional() }) });

export class DojahIdentityVerifier implements IdentityVerifier {
  constructor(private readonly dojah: DojahClient) {}

  async verify(request: { bvn: string; nin?: string; dateOfBirth?: string; mode: Mode; previousAttempts: number }): Promise<KycCheckResult> {
    this.dojah.assertMode(request.mode);
    const dob = isoDate(request.dateOfBirth);
    const [bvn, nin] = await Promise.all([this.checkBvn(request.bvn, dob), request.nin ? this.checkNin(request.nin, dob) : undefined]);
    const documents = [{ type: 'bvn', status: bvn }, ...(nin ? [{ type: 'nin', status: nin }] : [])];
    const statuses = documents.map((d) => d.status);
    const outcome: KycOutcome = statuses.includes('failed') ? 'failed' : statuses.includes('pending') ? 'pending' : statuses.includes('undecided') ? 'undecided' : 'verified';
    return { outcome, documents };
  }

  private async checkBvn(bvn: string, dob: string | undefined): Promise<KycOutcome> {
    const answer = await this.lookup(() => this.dojah.get('validate the BVN', '/api/v1/kyc/bvn', { bvn, dob }, BvnAnswer));
    if (typeof answer === 'string') return answer;
    if (!answer.entity.bvn.status) return 'failed';
    if (!dob) return 'verified';
    if (!answer.entity.date_of_birth) return 'undecided';
    return answer.entity.date_of_birth.status ? 'verified' : 'failed';
  }

  private async checkNin(nin: string, dob: string | undefined): Promise<KycOutcome> {
    const answer = await this.lookup(() => this.dojah.get('look up the NIN', '/api/v1/kyc/nin', { nin }, NinAnswer));
    if (typeof answer === 'string') return answer;
    if (!dob) return 'verified';
    const recorded = isoDate(answer.entity.date_of_birth);
    if (!recorded) return 'undecided';
    return recorded === dob ? 'verified' : 'failed';
  }

  /** The lookup's answer, or the document status that a "not found" (failed) or a 424 (pending) stands for. */
  private async lookup<T>(call: () => Promise<T>): Promise<T | 'failed' | 'pending'> {
    try {
      return await call();
    } catch (error) {
      if (isDojahNotFound(error)) return 'failed';
      if (isDojahUpstreamFailure(error)) return 'pending';
      throw error;
    }
  }
}
