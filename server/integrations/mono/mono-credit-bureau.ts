import crypto from 'node:crypto';
import { z } from 'zod';
import type { Mode } from '../../platform/domain/scope';
import type { BureauFacts, BureauReport, CreditBureau } from '../../platform/domain/ports';
import { ProviderError } from '../provider-http';
import type { MonoHttp } from './mono-http';

/**
 * The credit bureau port on Mono's Lookup credit history (https://docs.mono.co/docs/lookup/credit-history-lookup):
 * `POST /v3/lookup/credit-history/{provider}` with `{ bvn }`, where `provider` is `crc` (CRC Credit Bureau), `xds`
 * (FirstCentral) or `all` (both). The answer's `data.credit_history` lists institutions, each with its facilities
 * (`history`: `date_opened`, `opening_balance`, `loan_balance`, `loan_status`, `performance_status`, `closed_date`,
 * `repayment_schedule` — a list of `{ "MM-YYYY": "paid" | … }`).
 *
 * The report is reduced here to the domain's facts (`BureauFacts`) and dropped: the identity profile, the
 * institutions' names and the schedules never leave this file. Only the facts and a reference are returned.
 *
 * Assumptions where the docs are silent (the fake follows them; check them against Mono before going live):
 * - amounts are integer kobo, like the rest of Mono's API (a fraction is rounded up: outstanding debt is never understated);
 * - `loan_status` is `open`/`closed` (`written_off` and friends count as write-offs), `performance_status` is the CBN
 *   classification (`performing`, `watchlist`, `substandard`, `doubtful`, `lost`);
 * - a schedule month that is not `paid` (or `pending`/`not_due`) was missed; consecutive missed months count 30 days each;
 * - enquiries, when the bureau reports them, arrive as `data.enquiries: [{ date }]`; otherwise `enquiries12m` is null;
 * - a BVN the bureaus hold nothing for answers an empty `credit_history`, or a 404 saying no record was found: a thin file;
 * - with `all`, the same facility reported by both bureaus (same institution, opening date and balance) counts once.
 * Lookups are reads: retried with backoff. An outage, a timeout or an unreadable answer throws (the domain answers
 * 502 `bureau_unavailable` and records nothing), never a made-up file.
 */

export type MonoBureauProvider = 'crc' | 'xds' | 'all';

const Amount = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/).transform(Number)]);

const Facility = z
  .object({
    date_opened: z.string().nullish(),
    opening_balance: Amount.nullish(),
    loan_balance: Amount.nullish(),
    loan_status: z.string().nullish(),
    performance_status: z.string().nullish(),
    closed_date: z.string().nullish(),
    repayment_schedule: z.array(z.record(z.string(), z.string().nullable())).nullish(),
  })
  .passthrough();

const Institution = z.object({ institution: z.string().nullish(), history: z.array(Facility).nullish() }).passthrough();

export const MonoCreditHistory = z
  .object({
    id: z.string().nullish(),
    reference: z.string().nullish(),
    providers: z.array(z.string()).nullish(),
    credit_history: z.array(Institution).nullish(),
    enquiries: z.array(z.object({ date: z.string().nullish() }).passthrough()).nullish(),
  })
  .passthrough();
export type MonoCreditHistory = z.infer<typeof MonoCreditHistory>;

const DAYS_PER_MISSED_MONTH = 30;
const WINDOW_MONTHS = 24;
const NOT_MISSED = new Set(['paid', 'pending', 'not_due', 'not-due', 'current', 'ok', '']);
const WRITTEN_OFF = /written[ _-]?off|write[ _-]?off|charged[ _-]?off/i;
/** CBN prudential classes → the fewest days past due they mean. */
const CLASS_DAYS: Record<string, number> = {
  performing: 0,
  watchlist: 30,
  'pass_and_watch': 30,
  substandard: 90,
  delinquent: 90,
  'non_performing': 90,
  nonperforming: 90,
  doubtful: 180,
  lost: 360,
};

const monthIndex = (date: Date) => date.getUTCFullYear() * 12 + date.getUTCMonth();
const parseDate = (value: string | null | undefined): Date | null => {
  if (!value) return null;
  const dmy = value.match(/^(\d{2})-(\d{2})-(\d{4})$/);
  const date = dmy ? new Date(Date.UTC(Number(dmy[3]), Number(dmy[2]) - 1, Number(dmy[1]))) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};
const kobo = (value: number | null | undefined) => (value === null || value === undefined || !Number.isFinite(value) || value <= 0 ? 0 : Math.ceil(value));
const word = (value: string | null | undefined) => (value ?? '').trim().toLowerCase().replace(/[\s-]+/g, '_');

/** The longest run of consecutive missed months inside the window, in days. */
function scheduleDays(schedule: Array<Record<string, string | null>>, fromMonth: number, toMonth: number): number {
  const months = new Map<number, boolean>();
  for (const entry of schedule) {
    for (const [key, status] of Object.entries(entry)) {
      const match = key.match(/^(\d{1,2})-(\d{4})$/);
      if (!match) continue;
      const index = Number(match[2]) * 12 + Number(match[1]) - 1;
      if (index < fromMonth || index > toMonth) continue;
      const missed = !NOT_MISSED.has(word(status));
      months.set(index, (months.get(index) ?? false) || missed);
    }
  }
  let worst = 0;
  let run = 0;
  let previous: number | null = null;
  for (const index of [...months.keys()].sort((a, b) => a - b)) {
    const missed = months.get(index)!;
    run = missed ? (previous !== null && previous === index - 1 && run > 0 ? run + 1 : 1) : 0;
    worst = Math.max(worst, run);
    previous = index;
  }
  return worst * DAYS_PER_MISSED_MONTH;
}

/** Mono's credit history → the domain's facts (pure; `now` sets the 24- and 12-month windows). */
export function normaliseMonoCreditHistory(data: MonoCreditHistory, now: Date): BureauFacts {
  const toMonth = monthIndex(now);
  const fromMonth = toMonth - (WINDOW_MONTHS - 1);
  const windowStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (WINDOW_MONTHS - 1), 1));
  const facilities = new Map<string, { open: boolean; outstandingKobo: number; days: number; writtenOff: boolean }>();
  let unnamed = 0;
  for (const institution of data.credit_history ?? []) {
    for (const facility of institution.history ?? []) {
      const status = word(facility.loan_status);
      const performance = word(facility.performance_status);
      const closedAt = parseDate(facility.closed_date);
      const writtenOff = WRITTEN_OFF.test(status) || performance === 'lost';
      const open = !writtenOff && (status === 'open' || status === 'active' || status === 'running' || (status === '' && (!closedAt || closedAt > now)));
      const outstandingKobo = open ? kobo(facility.loan_balance ?? facility.opening_balance) : 0;
      const recent = open || writtenOff || (closedAt !== null && closedAt >= windowStart);
      const classDays = recent ? (CLASS_DAYS[performance] ?? 0) : 0;
      const days = Math.max(classDays, scheduleDays(facility.repayment_schedule ?? [], fromMonth, toMonth));
      const key = facility.date_opened
        ? `${(institution.institution ?? '').trim().toLowerCase()}|${parseDate(facility.date_opened)?.toISOString().slice(0, 10) ?? facility.date_opened}|${kobo(facility.opening_balance)}`
        : `#${unnamed++}`;
      const seen = facilities.get(key);
      facilities.set(
        key,
        seen
          ? { open: seen.open || open, outstandingKobo: Math.max(seen.outstandingKobo, outstandingKobo), days: Math.max(seen.days, days), writtenOff: seen.writtenOff || writtenOff }
          : { open, outstandingKobo, days, writtenOff },
      );
    }
  }
  const all = [...facilities.values()];
  const yearAgo = new Date(now.getTime() - 365 * 86_400_000);
  return {
    facilitiesReported: all.length,
    openFacilities: all.filter((f) => f.open).length,
    totalOutstandingKobo: all.reduce((sum, f) => sum + f.outstandingKobo, 0),
    worstDelinquencyDays24m: all.reduce((worst, f) => Math.max(worst, f.days), 0),
    writeOffs: all.filter((f) => f.writtenOff).length,
    enquiries12m: data.enquiries ? data.enquiries.filter((e) => {
      const at = parseDate(e.date);
      return at === null || (at >= yearAgo && at <= now);
    }).length : null,
  };
}

const EMPTY: BureauFacts = { facilitiesReported: 0, openFacilities: 0, totalOutstandingKobo: 0, worstDelinquencyDays24m: 0, writeOffs: 0, enquiries12m: null };

export interface MonoCreditBureauOptions {
  /** `all` (both bureaus, the default), `crc` or `xds`. */
  provider?: MonoBureauProvider;
  /** The time the 24-month window ends (the platform's clock). */
  now?: () => Date;
}

/** Live mode's bureau. Test mode keeps the sandbox bureau: this adapter refuses test-mode requests. */
export class MonoCreditBureau implements CreditBureau {
  private readonly provider: MonoBureauProvider;
  private readonly now: () => Date;

  constructor(
    private readonly http: MonoHttp,
    options: MonoCreditBureauOptions = {},
  ) {
    this.provider = options.provider ?? 'all';
    this.now = options.now ?? (() => new Date());
  }

  async report(request: { bvn: string; mode: Mode }): Promise<BureauReport> {
    if (request.mode !== 'live') throw new Error('the Mono credit bureau serves live mode only');
    if (!/^\d{11}$/.test(request.bvn)) throw new Error('mono: a BVN is 11 digits (nothing was sent)');
    const now = this.now();
    let data: MonoCreditHistory;
    try {
      data = await this.http.request({
        action: 'look up the credit history',
        method: 'POST',
        path: `/v3/lookup/credit-history/${this.provider}`,
        body: { bvn: request.bvn },
        data: MonoCreditHistory,
        idempotent: true,
      });
    } catch (error) {
      if (error instanceof ProviderError && error.httpStatus === 404 && /no (credit )?(record|history|report|data)|not found/i.test(error.message)) {
        return { provider: this.providerName([]), reference: this.reference([], now, null), facts: EMPTY };
      }
      throw error;
    }
    const providers = data.providers ?? [];
    return { provider: this.providerName(providers), reference: this.reference(providers, now, data.id ?? data.reference ?? null), facts: normaliseMonoCreditHistory(data, now) };
  }

  private providerName(providers: string[]) {
    return `mono:${(providers.length ? providers : [this.provider]).join('+')}`;
  }

  /** Mono's id when it sends one; otherwise one of ours (bureaus and time, never anything derived from the BVN). */
  private reference(providers: string[], now: Date, own: string | null) {
    if (own) return `MONO-${own}`;
    const stamp = now.toISOString().replace(/[-:TZ.]/g, '').slice(0, 14);
    return `MONO-${(providers.length ? providers : [this.provider]).join('+').toUpperCase()}-${stamp}-${crypto.randomBytes(4).toString('hex')}`;
  }
}
