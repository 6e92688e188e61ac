import { z } from 'zod';
import type { Mode } from '../../platform/db/schema';
import type { AmlScreen, AmlScreenResult } from '../aml';
import { ProviderError } from '../provider-http';
import type { DojahClient } from './dojah-http';

/**
 * `AmlScreen` over Dojah's AML Screening (v2): `POST /api/v1/aml/v2/screening`
 * (https://docs.dojah.io/docs/aml/screening-info-individual) with
 * `{ schema: "individual", properties: { names }, screening_options: { pep_check, sanction, adverse_media_check,
 * watchlists: [], match_threshold } }`. The answer's `entity.total_results` / `entity.results[]` are the
 * potential matches, each with a `source_type` (PEP, SANCTION, …).
 *
 * - No result → `clear`.
 * - Any result → `hit`, detail `"dojah: N potential match(es) on SANCTION, PEP lists"`: the list kinds and a
 *   count, never the matched names or anything else about the person. A person reviews every hit.
 * - Dojah cannot answer (timeout, 5xx, 424, 429, open circuit, unreadable answer, and also 401/402: a
 *   misconfigured key must not let loans through) → `pending`, never `clear`, never a throw: the domain
 *   already sends a `pending` screen to `under_review`. The detail names the error code for the operator.
 *
 * The screen is a read, so it is retried like the lookups (a repeat costs a second screening fee).
 * `match_threshold` (0–1, Dojah's name-similarity cut-off, docs example 0.85) and adverse media
 * (off by default: news mentions are noisy for a lending decision) are options.
 */
const ScreeningAnswer = z.object({
  entity: z.object({
    total_results: z.number().int().nonnegative().optional(),
    results: z.array(z.object({ source_type: z.string().optional() })).optional(),
  }),
});

export interface DojahAmlScreenOptions {
  /** 0–1; defaults to 0.85. */
  matchThreshold?: number;
  /** Screen adverse media too; defaults to false. */
  adverseMedia?: boolean;
}

export class DojahAmlScreen implements AmlScreen {
  private readonly matchThreshold: number;
  private readonly adverseMedia: boolean;

  constructor(
    private readonly dojah: DojahClient,
    options: DojahAmlScreenOptions = {},
  ) {
    this.matchThreshold = options.matchThreshold ?? 0.85;
    this.adverseMedia = options.adverseMedia ?? false;
  }

  async screen(person: { firstName: string; lastName: string; mode: Mode }): Promise<AmlScreenResult> {
    this.dojah.assertMode(person.mode);
    let answer: z.infer<typeof ScreeningAnswer>;
    try {
      answer = await this.dojah.post(
        'screen the person (AML)',
        '/api/v1/aml/v2/screening',
        {
          schema: 'individual',
          properties: { names: `${person.firstName.trim()} ${person.lastName.trim()}` },
          screening_options: {
            pep_check: true,
            sanction: true,
            adverse_media_check: this.adverseMedia,
            watchlists: [],
            match_threshold: this.matchThreshold,
          },
        },
        ScreeningAnswer,
      );
    } catch (error) {
      if (error instanceof ProviderError) {
        return { status: 'pending', detail: `not screened: the Dojah AML screen could not answer (${error.code}); a person must review this borrower` };
      }
      throw error;
    }
    if (answer.entity.total_results === undefined && answer.entity.results === undefined) {
      return { status: 'pending', detail: 'not screened: the Dojah AML answer carried no result count; a person must review this borrower' };
    }
    const results = answer.entity.results ?? [];
    const count = Math.max(answer.entity.total_results ?? 0, results.length);
    if (count === 0) return { status: 'clear', detail: 'dojah: no match' };
    const lists = [...new Set(results.map((r) => listName(r.source_type)))].sort();
    return {
      status: 'hit',
      detail: `dojah: ${count} potential match${count === 1 ? '' : 'es'} on ${lists.length > 0 ? lists.join(', ') : 'unnamed'} list${lists.length === 1 ? '' : 's'}`,
    };
  }
}

/**
 * The list kind only (`SANCTION`, `PEP`, `ADVERSE_MEDIA`, …): the first word of `source_type`, upper-cased, at most
 * 24 characters. The detail is stored and shown to operators, so it must never carry free text from the provider.
 */
function listName(sourceType: string | undefined): string {
  return /[A-Z][A-Z0-9_]*/.exec((sourceType ?? '').toUpperCase())?.[0].slice(0, 24) ?? 'UNNAMED';
}
