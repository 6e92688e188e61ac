/** How often an instalment falls due; see `PERIOD_DAYS` for the length of each period. */
export type RepaymentFrequency = 'daily' | 'weekly' | 'biweekly' | 'monthly';

/** A loan's pricing terms. Amounts in integer kobo, rates in basis points (1 bps = 0.01 %). */
export interface PricingInput {
  /** Amount disbursed, >= 1. */
  principalKobo: number;
  /** Annual nominal rate, 0..100_000 (0..1000 %), pro-rated over actual days of a 365-day year. */
  annualRateBps: number;
  /** 1..3650. */
  tenorDays: number;
  /** null or undefined means monthly. */
  repaymentFrequency?: RepaymentFrequency | null;
  interestModel: 'flat' | 'reducing_balance';
  /** Processing fee = principal × processingFeeBps / 10_000 (half-to-even) + processingFeeFlatKobo. */
  processingFeeBps: number;
  processingFeeFlatKobo: number;
  insuranceMode: 'automatic' | 'manual' | 'off';
  /** Premium = principal × insurancePremiumBps / 10_000 (half-to-even); 0 when insuranceMode is off. */
  insurancePremiumBps: number;
  /** Only a borrower-borne premium is part of the borrower's cost of credit. */
  insurancePremiumBearer: 'borrower' | 'tenant';
  /** Charged once on an instalment's unpaid amount when it becomes overdue (`lateFeeFor`). */
  lateFeeBps: number;
}

/** `PricingInput` with the frequency default applied. */
export type NormalisedPricingInput = PricingInput & { repaymentFrequency: RepaymentFrequency };

export interface PricedInstalment {
  /** 1-based. */
  installmentNumber: number;
  /** Days after the schedule start when it falls due; the last one is the tenor. */
  dayOffset: number;
  principalKobo: number;
  interestKobo: number;
  /** This instalment's share of the borrower-borne fees. */
  feeKobo: number;
  /** principalKobo + interestKobo + feeKobo. */
  totalKobo: number;
}

export interface PricedLoan {
  input: NormalisedPricingInput;
  periodDays: number;
  instalmentCount: number;
  totalInterestKobo: number;
  processingFeeKobo: number;
  /** The whole premium (0 when insurance is off), whoever bears it. */
  insurancePremiumKobo: number;
  /** The part of the premium in the borrower's costs (all of it or 0). */
  borrowerInsurancePremiumKobo: number;
  /** The part the tenant pays; not in the borrower's fees, cost of credit or APR. */
  tenantInsurancePremiumKobo: number;
  /** Borrower-borne fees: processing fee + borrower premium. */
  totalFeesKobo: number;
  /** totalInterestKobo + totalFeesKobo. */
  costOfCreditKobo: number;
  /** principalKobo + costOfCreditKobo = the sum of every instalment's totalKobo. */
  totalRepayableKobo: number;
  /**
   * Effective annual rate of the borrower's cash flows, in bps, rounded half-to-even; saturates at
   * `MAX_APR_BPS` (see apr.ts).
   */
  aprBps: number;
  instalments: PricedInstalment[];
}
