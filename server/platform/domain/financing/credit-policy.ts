import { z } from 'zod';
import { priceLoan, type PricedLoan } from '../pricing/price-loan';
import type { BureauFacts, BureauOutcome } from '../ports';

/**
 * The service's credit policy for patient financing: what the operator configures (`FINANCING_POLICY`, JSON, or
 * the defaults below) and the pure functions that turn a bureau result and a declared income into a decision.
 * No clock, no I/O: property-tested in test/unit/credit-policy.test.ts.
 *
 * - Amount bands: the treatment amount picks the band, the band lists the tenors (months) the patient may choose.
 * - Risk bands: the band the bureau's facts grade to (`gradeBureauFacts`) sets the annual rate and the largest amount lent at that band. A delinquent
 *   file has no band and is declined.
 * - Affordability: a tenor is offered only if its largest instalment is at most `maxInstalmentToIncomeBps` of the
 *   declared monthly income (30 % by default). No affordable tenor: declined as unaffordable.
 * - Pricing: reducing balance (or flat), monthly instalments of 30 days, a processing fee in bps, no insurance,
 *   the late fee for arrears; priced by the platform's own pricing functions, so the offer's schedule is exactly
 *   what was checked for affordability.
 */

export const RISK_BANDS = ['A', 'B', 'C'] as const;
export type RiskBand = (typeof RISK_BANDS)[number];

/**
 * How the policy grades a bureau file from its normalised facts (every bureau's report is reduced to the same facts
 * first, so the sandbox and CRC/FirstCentral through Mono are graded alike). In order:
 * - any write-off, or a facility `delinquentDays`+ past due in the last 24 months: `delinquent`, no band (declined);
 * - no facility reported at all: `thin_file`, band C;
 * - `bandCDays`+ past due in the last 24 months: band C;
 * - any lateness, `bandBOpenFacilities`+ open facilities, or `bandBEnquiries12m`+ enquiries in 12 months: band B;
 * - otherwise band A.
 * `maxOutstandingIncomeMonths`: existing debt above this many months of declared income is `unaffordable`.
 */
export const BUREAU_RULES = {
  delinquentDays: 90,
  bandCDays: 31,
  bandBOpenFacilities: 4,
  bandBEnquiries12m: 6,
  maxOutstandingIncomeMonths: 12,
} as const;

export interface BureauGrade {
  outcome: BureauOutcome;
  /** null: delinquent (declined). */
  riskBand: RiskBand | null;
}

/** The policy's grade of a bureau file (pure). */
export function gradeBureauFacts(facts: BureauFacts, rules: typeof BUREAU_RULES = BUREAU_RULES): BureauGrade {
  if (facts.writeOffs > 0 || facts.worstDelinquencyDays24m >= rules.delinquentDays) return { outcome: 'delinquent', riskBand: null };
  if (facts.facilitiesReported === 0) return { outcome: 'thin_file', riskBand: 'C' };
  if (facts.worstDelinquencyDays24m >= rules.bandCDays) return { outcome: 'good', riskBand: 'C' };
  const busy = facts.openFacilities >= rules.bandBOpenFacilities || (facts.enquiries12m ?? 0) >= rules.bandBEnquiries12m;
  if (facts.worstDelinquencyDays24m > 0 || busy) return { outcome: 'good', riskBand: 'B' };
  return { outcome: 'good', riskBand: 'A' };
}

const Kobo = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const CreditPolicySchema = z
  .object({
    minAmountKobo: Kobo,
    maxAmountKobo: Kobo,
    amountBands: z
      .array(z.object({ maxAmountKobo: Kobo, tenorMonths: z.array(z.number().int().min(1).max(60)).min(1) }).strict())
      .min(1)
      .meta({ description: 'Ascending by maxAmountKobo; the last must reach maxAmountKobo.' }),
    riskBands: z.object({ A: z.object({ annualRateBps: z.number().int().min(0).max(100_000), maxAmountKobo: Kobo }).strict(), B: z.object({ annualRateBps: z.number().int().min(0).max(100_000), maxAmountKobo: Kobo }).strict(), C: z.object({ annualRateBps: z.number().int().min(0).max(100_000), maxAmountKobo: Kobo }).strict() }).strict(),
    maxInstalmentToIncomeBps: z.number().int().min(1).max(10_000),
    interestModel: z.enum(['flat', 'reducing_balance']),
    processingFeeBps: z.number().int().min(0).max(10_000),
    lateFeeBps: z.number().int().min(0).max(10_000),
  })
  .strict()
  .refine((p) => p.minAmountKobo <= p.maxAmountKobo, 'minAmountKobo must not exceed maxAmountKobo')
  .refine((p) => p.amountBands.every((b, i) => i === 0 || b.maxAmountKobo > p.amountBands[i - 1]!.maxAmountKobo), 'amountBands must ascend by maxAmountKobo')
  .refine((p) => p.amountBands.at(-1)!.maxAmountKobo >= p.maxAmountKobo, 'the last amount band must reach maxAmountKobo');

export type CreditPolicy = z.output<typeof CreditPolicySchema>;

/** The default policy (₦5,000 to ₦2,000,000; 36 % / 48 % / 60 % a year by band; instalments up to 30 % of income). */
export const DEFAULT_CREDIT_POLICY: CreditPolicy = {
  minAmountKobo: 500_000,
  maxAmountKobo: 200_000_000,
  amountBands: [
    { maxAmountKobo: 5_000_000, tenorMonths: [1, 2, 3] },
    { maxAmountKobo: 50_000_000, tenorMonths: [3, 6] },
    { maxAmountKobo: 200_000_000, tenorMonths: [6, 9, 12] },
  ],
  riskBands: {
    A: { annualRateBps: 3600, maxAmountKobo: 200_000_000 },
    B: { annualRateBps: 4800, maxAmountKobo: 100_000_000 },
    C: { annualRateBps: 6000, maxAmountKobo: 20_000_000 },
  },
  maxInstalmentToIncomeBps: 3000,
  interestModel: 'reducing_balance',
  processingFeeBps: 100,
  lateFeeBps: 500,
};

/** Days in one month of a financing tenor (monthly instalments fall due every 30 days). */
export const DAYS_PER_MONTH = 30;

/** Whether an amount can be financed at all (checked at initiation, before anything is stored). */
export function amountWithinPolicy(policy: CreditPolicy, amountKobo: number): boolean {
  return amountKobo >= policy.minAmountKobo && amountKobo <= policy.maxAmountKobo;
}

/** The tenors (months) the amount's band allows. */
export function tenorMonthsFor(policy: CreditPolicy, amountKobo: number): number[] {
  return (policy.amountBands.find((b) => amountKobo <= b.maxAmountKobo) ?? policy.amountBands.at(-1)!).tenorMonths;
}

/** Prices a financing loan with the policy's terms (the offer's schedule is exactly this). */
export function priceFinancing(policy: CreditPolicy, amountKobo: number, tenorMonths: number, annualRateBps: number): PricedLoan {
  return priceLoan({
    principalKobo: amountKobo,
    annualRateBps,
    tenorDays: tenorMonths * DAYS_PER_MONTH,
    repaymentFrequency: 'monthly',
    interestModel: policy.interestModel,
    processingFeeBps: policy.processingFeeBps,
    processingFeeFlatKobo: 0,
    insuranceMode: 'off',
    insurancePremiumBps: 0,
    insurancePremiumBearer: 'borrower',
    lateFeeBps: policy.lateFeeBps,
  });
}

export type { TenorOption } from '../../../shared/checkout-contract';
import type { TenorOption } from '../../../shared/checkout-contract';

export type RejectionReason = 'delinquent' | 'amount_above_risk_limit' | 'unaffordable' | 'outside_policy';

export type CreditDecision =
  | { approved: true; riskBand: RiskBand; annualRateBps: number; options: TenorOption[] }
  | { approved: false; reason: RejectionReason; riskBand: RiskBand | null };

export interface DecisionInput {
  amountKobo: number;
  /** null: a delinquent file (no band). */
  riskBand: RiskBand | null;
  declaredMonthlyIncomeKobo: number;
  /** What the bureau says the patient already owes (kobo); above `BUREAU_RULES.maxOutstandingIncomeMonths` of income: unaffordable. */
  existingDebtKobo?: number;
}

/** The largest instalment allowed by the income: floor(income × share / 10,000). */
export function affordableInstalmentKobo(policy: CreditPolicy, declaredMonthlyIncomeKobo: number): number {
  return Number((BigInt(declaredMonthlyIncomeKobo) * BigInt(policy.maxInstalmentToIncomeBps)) / 10_000n);
}

/** The decision: declined with a reason, or approved with the tenors the patient may choose from (shortest first). */
export function decideFinancing(policy: CreditPolicy, input: DecisionInput): CreditDecision {
  if (!input.riskBand) return { approved: false, reason: 'delinquent', riskBand: null };
  if (!amountWithinPolicy(policy, input.amountKobo)) return { approved: false, reason: 'outside_policy', riskBand: input.riskBand };
  const band = policy.riskBands[input.riskBand];
  if (input.amountKobo > band.maxAmountKobo) return { approved: false, reason: 'amount_above_risk_limit', riskBand: input.riskBand };
  if (input.existingDebtKobo !== undefined && BigInt(input.existingDebtKobo) > BigInt(input.declaredMonthlyIncomeKobo) * BigInt(BUREAU_RULES.maxOutstandingIncomeMonths)) {
    return { approved: false, reason: 'unaffordable', riskBand: input.riskBand };
  }
  const ceiling = affordableInstalmentKobo(policy, input.declaredMonthlyIncomeKobo);
  const options = [...new Set(tenorMonthsFor(policy, input.amountKobo))]
    .sort((a, b) => a - b)
    .map((months): TenorOption => {
      const priced = priceFinancing(policy, input.amountKobo, months, band.annualRateBps);
      return {
        tenorMonths: months,
        tenorDays: months * DAYS_PER_MONTH,
        annualRateBps: band.annualRateBps,
        instalmentKobo: Math.max(...priced.instalments.map((i) => i.totalKobo)),
        instalmentCount: priced.instalmentCount,
        totalRepayableKobo: priced.totalRepayableKobo,
        costOfCreditKobo: priced.costOfCreditKobo,
        aprBps: priced.aprBps,
      };
    })
    .filter((option) => option.instalmentKobo <= ceiling);
  if (options.length === 0) return { approved: false, reason: 'unaffordable', riskBand: input.riskBand };
  return { approved: true, riskBand: input.riskBand, annualRateBps: band.annualRateBps, options };
}
