import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aprBps, impliedDailyRate, MAX_APR_BPS } from '../../server/platform/domain/pricing/apr';
import { annuityPayment } from '../../server/platform/domain/pricing/interest';
import {
  lateFeeFor,
  PERIOD_DAYS,
  priceLoan,
  type PricedLoan,
  type PricingInput,
  type RepaymentFrequency,
} from '../../server/platform/domain/pricing/price-loan';
import { evenShare, roundHalfEven, roundHalfEvenDiv, splitEvenly } from '../../server/platform/domain/pricing/rounding';
import { dueDates } from '../../server/platform/domain/pricing/schedule-dates';

/** A valid loan with no fees; override what the test is about. */
function terms(overrides: Partial<PricingInput> = {}): PricingInput {
  return {
    principalKobo: 10_000_000,
    annualRateBps: 3600,
    tenorDays: 90,
    repaymentFrequency: 'monthly',
    interestModel: 'flat',
    processingFeeBps: 0,
    processingFeeFlatKobo: 0,
    insuranceMode: 'off',
    insurancePremiumBps: 0,
    insurancePremiumBearer: 'borrower',
    lateFeeBps: 0,
    ...overrides,
  };
}

/** Each row as [dayOffset, principal, interest, fee, total]. */
const rowsOf = (loan: PricedLoan) => loan.instalments.map((r) => [r.dayOffset, r.principalKobo, r.interestKobo, r.feeKobo, r.totalKobo]);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Σ total_k / (1 + d)^day_k − principal at the loan's own implied daily rate. */
function presentValueResidual(loan: PricedLoan): number {
  const d = impliedDailyRate(loan.input.principalKobo, loan.instalments);
  return sum(loan.instalments.map((r) => r.totalKobo / (1 + d) ** r.dayOffset)) - loan.input.principalKobo;
}

describe('rounding', () => {
  it.each([
    [5n, 2n, 2n], // 2.5 → 2
    [7n, 2n, 4n], // 3.5 → 4
    [-5n, 2n, -2n], // −2.5 → −2
    [-7n, 2n, -4n], // −3.5 → −4
    [7n, 3n, 2n], // 2.33 → 2
    [8n, 3n, 3n], // 2.67 → 3
    [5n, -2n, -2n],
    [0n, 9n, 0n],
  ])('roundHalfEvenDiv(%s, %s) is %s', (numerator, denominator, expected) => {
    expect(roundHalfEvenDiv(numerator, denominator)).toBe(expected);
  });

  it.each([
    [2.5, 2],
    [3.5, 4],
    [-2.5, -2],
    [0.5, 0],
    [1.5, 2],
    [2.4999, 2],
    [2.5001, 3],
  ])('roundHalfEven(%s) is %s', (x, expected) => {
    expect(roundHalfEven(x)).toBe(expected);
  });

  it('rounds every exact quotient to the nearest integer, ties to even', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), (a, b) => {
        const q = roundHalfEvenDiv(a, b);
        const twiceError = 2n * (a - q * b);
        const absTwiceError = twiceError < 0n ? -twiceError : twiceError;
        expect(absTwiceError <= b).toBe(true);
        if (absTwiceError === b) expect(q % 2n).toBe(0n);
      }),
      { numRuns: 500 },
    );
  });

  it('splits ties half-to-even: 5 into 2 is [2, 3], 7 into 2 is [4, 3]', () => {
    expect(splitEvenly(5, 2)).toEqual([2, 3]);
    expect(splitEvenly(7, 2)).toEqual([4, 3]);
  });

  it('when rounding the share up would make the last part negative (3 into 5), then it floors the share', () => {
    // roundHalfEven(3 / 5) = 1 and 3 − 4 × 1 = −1, so the share falls back to floor(3 / 5) = 0.
    expect(splitEvenly(3, 5)).toEqual([0, 0, 0, 0, 3]);
    expect(splitEvenly(9, 6)).toEqual([1, 1, 1, 1, 1, 4]); // 1.5 → 2 would leave −1
    expect(splitEvenly(0, 3)).toEqual([0, 0, 0]);
    expect(() => splitEvenly(-1, 2)).toThrow(RangeError);
    expect(() => splitEvenly(1, 0)).toThrow(RangeError);
  });

  it('splits any total into non-negative parts that add up exactly, all equal but the last', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.integer({ min: 1, max: 4000 }), (total, parts) => {
        const split = splitEvenly(total, parts);
        const share = evenShare(total, parts);
        expect(split).toHaveLength(parts);
        expect(split.reduce((a, b) => a + BigInt(b), 0n)).toBe(BigInt(total));
        expect(split.slice(0, -1).every((part) => part === share)).toBe(true);
        expect(split.every((part) => Number.isSafeInteger(part) && part >= 0)).toBe(true);
        expect(Math.abs(split[parts - 1]! - share)).toBeLessThan(parts);
      }),
      { numRuns: 500 },
    );
  });
});

describe('priceLoan worked examples', () => {
  it('prices a flat ₦100,000 loan at 36 % for 90 days as 3 monthly instalments', () => {
    // Interest = 10,000,000 × 3600 × 90 / (10,000 × 365) = 887,671.23… → 887,671 kobo.
    // Interest per row 295,890.33… → 295,890, last 887,671 − 2 × 295,890 = 295,891.
    // Principal per row 3,333,333.33… → 3,333,333, last 10,000,000 − 6,666,666 = 3,333,334.
    const loan = priceLoan(terms());
    expect(loan).toMatchObject({ periodDays: 30, instalmentCount: 3, totalInterestKobo: 887_671, totalFeesKobo: 0 });
    expect(rowsOf(loan)).toEqual([
      [30, 3_333_333, 295_890, 0, 3_629_223],
      [60, 3_333_333, 295_890, 0, 3_629_223],
      [90, 3_333_334, 295_891, 0, 3_629_225],
    ]);
    expect(loan.costOfCreditKobo).toBe(887_671);
    expect(loan.totalRepayableKobo).toBe(10_887_671);
    expect(loan.aprBps).toBe(6838);
    expect(Math.abs(presentValueResidual(loan))).toBeLessThan(1e-3);
  });

  it('spreads borrower-borne fees equally and keeps a tenant-borne premium out of the borrower costs', () => {
    // Processing 1 % of 10,000,000 + ₦500 = 100,000 + 50,000; premium 0.5 % = 50,000.
    const borrower = priceLoan(terms({ processingFeeBps: 100, processingFeeFlatKobo: 50_000, insuranceMode: 'automatic', insurancePremiumBps: 50 }));
    expect(borrower).toMatchObject({ processingFeeKobo: 150_000, insurancePremiumKobo: 50_000, borrowerInsurancePremiumKobo: 50_000 });
    expect(borrower).toMatchObject({ tenantInsurancePremiumKobo: 0, totalFeesKobo: 200_000, costOfCreditKobo: 1_087_671 });
    // 200,000 / 3 = 66,666.67 → 66,667, last 66,666.
    expect(borrower.instalments.map((r) => r.feeKobo)).toEqual([66_667, 66_667, 66_666]);

    const tenant = priceLoan(terms({ processingFeeBps: 100, insuranceMode: 'manual', insurancePremiumBps: 50, insurancePremiumBearer: 'tenant' }));
    expect(tenant).toMatchObject({ insurancePremiumKobo: 50_000, borrowerInsurancePremiumKobo: 0, tenantInsurancePremiumKobo: 50_000 });
    expect(tenant.totalFeesKobo).toBe(100_000);

    const off = priceLoan(terms({ insuranceMode: 'off', insurancePremiumBps: 50 }));
    expect(off.insurancePremiumKobo).toBe(0);
  });

  it('prices a reducing-balance ₦100,000 loan at 36 % for 90 days as equal instalments', () => {
    // r = 0.36 × 30 / 365; A = 10,000,000 r / (1 − (1 + r)^−3) = 3,532,510.6… → 3,532,511.
    // Row 1: interest 10,000,000 × 3600 × 30 / 3,650,000 = 295,890.41 → 295,890; principal 3,236,621.
    // Row 2: interest on 6,763,379 = 200,122.21 → 200,122; principal 3,332,389.
    // Row 3: interest on 3,430,990 = 101,519.70 → 101,520; principal clears 3,430,990.
    const loan = priceLoan(terms({ interestModel: 'reducing_balance' }));
    expect(rowsOf(loan)).toEqual([
      [30, 3_236_621, 295_890, 0, 3_532_511],
      [60, 3_332_389, 200_122, 0, 3_532_511],
      [90, 3_430_990, 101_520, 0, 3_532_510],
    ]);
    expect(loan.totalInterestKobo).toBe(597_532);
  });

  it('when the tenor is not a whole number of periods, then the last period is shorter', () => {
    // 10 days weekly: instalments on days 7 and 10. 73 % a year, weekly r = 0.014.
    // Row 1: interest 1,000,000 × 7300 × 7 / 3,650,000 = 14,000; A = 14,000 / (1 − 1.014^−2) = 510,524.
    // Row 2 (3 days): interest 503,476 × 7300 × 3 / 3,650,000 = 3,020.856 → 3,021.
    const loan = priceLoan(terms({ principalKobo: 1_000_000, annualRateBps: 7300, tenorDays: 10, repaymentFrequency: 'weekly', interestModel: 'reducing_balance' }));
    expect(rowsOf(loan)).toEqual([
      [7, 496_524, 14_000, 0, 510_524],
      [10, 503_476, 3_021, 0, 506_497],
    ]);
    const flat = priceLoan(terms({ tenorDays: 10, repaymentFrequency: 'daily' }));
    expect(flat.instalments.map((r) => r.dayOffset)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('prices a 0 % loan with no fees at no cost and an APR of 0', () => {
    const loan = priceLoan(terms({ annualRateBps: 0, interestModel: 'reducing_balance' }));
    expect(rowsOf(loan)).toEqual([
      [30, 3_333_333, 0, 0, 3_333_333],
      [60, 3_333_333, 0, 0, 3_333_333],
      [90, 3_333_334, 0, 0, 3_333_334],
    ]);
    expect(loan).toMatchObject({ totalInterestKobo: 0, costOfCreditKobo: 0, totalRepayableKobo: 10_000_000, aprBps: 0 });
  });

  it('reports APR as an effective annual rate', () => {
    // One instalment: 10,000,000 at 36.5 % for 30 days → interest 300,000 exactly;
    // APR = 1.03^(365 / 30) − 1 = 0.432802… → 4328 bps.
    const loan = priceLoan(terms({ annualRateBps: 3650, tenorDays: 30 }));
    expect(loan.totalRepayableKobo).toBe(10_300_000);
    expect(loan.aprBps).toBe(4328);
    // A 0 % loan with a 1 % fee still has a positive APR.
    expect(priceLoan(terms({ annualRateBps: 0, processingFeeBps: 100 })).aprBps).toBeGreaterThan(0);
    // ₦1.50 back on ₦1 after a day is 1.5^365 − 1: beyond any float, so it saturates.
    expect(aprBps(100, [{ dayOffset: 1, totalKobo: 150 }])).toBe(MAX_APR_BPS);
  });

  it('when a tiny loan would round into a negative residue, then no amount is negative', () => {
    // 3 kobo flat over 5 monthly instalments: shares floor to 0 and the last row takes all 3.
    const flat = priceLoan(terms({ principalKobo: 3, annualRateBps: 0, tenorDays: 150 }));
    expect(flat.instalments.map((r) => r.principalKobo)).toEqual([0, 0, 0, 0, 3]);
    // Reducing balance at 10 %: A = round(≈ 0.6) = 1, so the principal is repaid by row 3 and the
    // clamp leaves rows 4 and 5 empty (the documented clamp case).
    const reducing = priceLoan(terms({ principalKobo: 3, annualRateBps: 1000, tenorDays: 150, interestModel: 'reducing_balance' }));
    expect(reducing.instalments.map((r) => r.principalKobo)).toEqual([1, 1, 1, 0, 0]);
  });

  it('adds a late fee of lateFeeBps on the unpaid amount, half-to-even', () => {
    expect(lateFeeFor(12_345, 500)).toBe(617); // 617.25
    expect(lateFeeFor(1, 5000)).toBe(0); // 0.5 → 0
    expect(lateFeeFor(3, 5000)).toBe(2); // 1.5 → 2
    expect(lateFeeFor(0, 500)).toBe(0);
    expect(() => lateFeeFor(-1, 500)).toThrow(RangeError);
  });

  it('defaults the frequency to monthly', () => {
    expect(priceLoan(terms({ repaymentFrequency: null })).input.repaymentFrequency).toBe('monthly');
    expect(priceLoan(terms({ repaymentFrequency: undefined })).periodDays).toBe(30);
  });

  it.each<[string, Partial<PricingInput>]>([
    ['a zero principal', { principalKobo: 0 }],
    ['a fractional principal', { principalKobo: 1.5 }],
    ['a negative rate', { annualRateBps: -1 }],
    ['a rate above 1000 %', { annualRateBps: 100_001 }],
    ['a zero tenor', { tenorDays: 0 }],
    ['a tenor beyond ten years', { tenorDays: 3651 }],
    ['an unknown frequency', { repaymentFrequency: 'yearly' as RepaymentFrequency }],
    ['a negative flat fee', { processingFeeFlatKobo: -1 }],
    ['totals beyond safe integers', { principalKobo: Number.MAX_SAFE_INTEGER, annualRateBps: 100 }],
  ])('refuses %s with a RangeError', (_, overrides) => {
    expect(() => priceLoan(terms(overrides))).toThrow(RangeError);
  });
});

describe('dueDates', () => {
  it('adds whole UTC days at the same time of day, across month ends and leap days', () => {
    const loan = priceLoan(terms({ tenorDays: 40 }));
    expect(dueDates(new Date('2024-02-10T13:45:00.000Z'), loan.instalments)).toEqual(['2024-03-11T13:45:00.000Z', '2024-03-21T13:45:00.000Z']);
    expect(() => dueDates(new Date('nope'), loan.instalments)).toThrow(RangeError);
  });
});

const FREQUENCIES = Object.keys(PERIOD_DAYS) as RepaymentFrequency[];

const pricingInputs = fc.record({
  principalKobo: fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 10_000_000_000 })),
  annualRateBps: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 10_000 })),
  tenorDays: fc.integer({ min: 1, max: 730 }),
  repaymentFrequency: fc.option(fc.constantFrom(...FREQUENCIES), { nil: undefined }),
  interestModel: fc.constantFrom('flat' as const, 'reducing_balance' as const),
  processingFeeBps: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1_000 })),
  processingFeeFlatKobo: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 1_000_000 })),
  insuranceMode: fc.constantFrom('automatic' as const, 'manual' as const, 'off' as const),
  insurancePremiumBps: fc.integer({ min: 0, max: 1_000 }),
  insurancePremiumBearer: fc.constantFrom('borrower' as const, 'tenant' as const),
  lateFeeBps: fc.integer({ min: 0, max: 10_000 }),
});

/** The proven no-clamp condition in interest.ts: Â / (1 + r) + 1 > ((1 + r)^(n−1) − 1) / r. */
function clampImpossible(input: PricingInput, periodDays: number, n: number): boolean {
  const r = (input.annualRateBps / 10_000) * (periodDays / 365);
  if (r === 0) return true; // the 0 % share never lets n − 1 rows exceed the principal
  const exact = (input.principalKobo * r) / -Math.expm1(-n * Math.log1p(r));
  return exact / (1 + r) + 1 > (Math.expm1((n - 1) * Math.log1p(r)) / r) * (1 + 1e-9);
}

describe('priceLoan properties', () => {
  it('every column adds up exactly to its total and no amount is negative or unsafe', () => {
    fc.assert(
      fc.property(pricingInputs, (input) => {
        const loan = priceLoan(input);
        const rows = loan.instalments;
        expect(sum(rows.map((r) => r.principalKobo))).toBe(input.principalKobo);
        expect(sum(rows.map((r) => r.interestKobo))).toBe(loan.totalInterestKobo);
        expect(sum(rows.map((r) => r.feeKobo))).toBe(loan.totalFeesKobo);
        expect(sum(rows.map((r) => r.totalKobo))).toBe(loan.totalRepayableKobo);
        for (const r of rows) expect(r.totalKobo).toBe(r.principalKobo + r.interestKobo + r.feeKobo);
        expect(loan.totalFeesKobo).toBe(loan.processingFeeKobo + loan.borrowerInsurancePremiumKobo);
        expect(loan.insurancePremiumKobo).toBe(loan.borrowerInsurancePremiumKobo + loan.tenantInsurancePremiumKobo);
        expect(loan.costOfCreditKobo).toBe(loan.totalInterestKobo + loan.totalFeesKobo);
        expect(loan.totalRepayableKobo).toBe(input.principalKobo + loan.costOfCreditKobo);

        const { input: _input, instalments: _rows, ...totals } = loan;
        const amounts = [...Object.values(totals), ...rows.flatMap((r) => Object.values(r))];
        expect(amounts.every((a) => Number.isSafeInteger(a) && a >= 0)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('falls due every period, the last one on the tenor day', () => {
    fc.assert(
      fc.property(pricingInputs, (input) => {
        const loan = priceLoan(input);
        const period = PERIOD_DAYS[input.repaymentFrequency ?? 'monthly'];
        expect(loan.periodDays).toBe(period);
        expect(loan.instalmentCount).toBe(Math.ceil(input.tenorDays / period));
        expect(loan.instalments).toHaveLength(loan.instalmentCount);
        const offsets = loan.instalments.map((r) => r.dayOffset);
        expect(offsets).toEqual(offsets.map((_, i) => Math.min((i + 1) * period, input.tenorDays)));
        expect(offsets.every((day, i) => i === 0 || day > offsets[i - 1]!)).toBe(true);
        expect(offsets.at(-1)).toBe(input.tenorDays);
        expect(loan.instalments.map((r) => r.installmentNumber)).toEqual(offsets.map((_, i) => i + 1));
      }),
      { numRuns: 400 },
    );
  });

  it('reducing balance: every instalment but the last is A, except rows after an early payoff (clamp)', () => {
    fc.assert(
      fc.property(pricingInputs, (generated) => {
        const input = { ...generated, interestModel: 'reducing_balance' as const };
        const loan = priceLoan(input);
        const n = loan.instalmentCount;
        const a = annuityPayment(input.principalKobo, input.annualRateBps, loan.periodDays, n);
        let outstanding = input.principalKobo;
        let paidOff = false;
        for (const r of loan.instalments.slice(0, -1)) {
          if (paidOff) {
            expect([r.principalKobo, r.interestKobo]).toEqual([0, 0]);
          } else if (r.principalKobo + r.interestKobo !== a) {
            // The clamp: A − interest would exceed the outstanding principal, so the row clears it.
            expect(r.principalKobo).toBe(outstanding);
            expect(a - r.interestKobo).toBeGreaterThan(outstanding);
            paidOff = true;
          }
          outstanding -= r.principalKobo;
        }
        if (clampImpossible(input, loan.periodDays, n)) expect(paidOff).toBe(false);
        expect(loan.instalments.at(-1)!.principalKobo).toBe(outstanding);
      }),
      { numRuns: 400 },
    );
  });

  it('flat: interest is simple interest for the tenor, split equally', () => {
    fc.assert(
      fc.property(pricingInputs, (generated) => {
        const input = { ...generated, interestModel: 'flat' as const };
        const loan = priceLoan(input);
        const interest = roundHalfEvenDiv(BigInt(input.principalKobo) * BigInt(input.annualRateBps * input.tenorDays), 3_650_000n);
        expect(loan.totalInterestKobo).toBe(Number(interest));
        expect(loan.instalments.map((r) => r.interestKobo)).toEqual(splitEvenly(loan.totalInterestKobo, loan.instalmentCount));
        expect(loan.instalments.map((r) => r.principalKobo)).toEqual(splitEvenly(input.principalKobo, loan.instalmentCount));
      }),
      { numRuns: 300 },
    );
  });

  it('APR is never negative, solves the present-value equation, and is 0 when the loan costs nothing', () => {
    fc.assert(
      fc.property(pricingInputs, fc.boolean(), (generated, free) => {
        const input = free
          ? { ...generated, annualRateBps: 0, processingFeeBps: 0, processingFeeFlatKobo: 0, insurancePremiumBearer: 'tenant' as const }
          : generated;
        const loan = priceLoan(input);
        expect(loan.aprBps).toBeGreaterThanOrEqual(0);
        if (loan.costOfCreditKobo === 0) expect(loan.aprBps).toBe(0);
        if (free) expect(loan.costOfCreditKobo).toBe(0);
        if (loan.aprBps < MAX_APR_BPS) {
          // 1e-9 of the principal: float noise of summing up to 730 discounted rows.
          expect(Math.abs(presentValueResidual(loan))).toBeLessThanOrEqual(Math.max(1e-6, input.principalKobo * 1e-9));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('APR of a single instalment is (total / principal)^(365 / tenor) − 1', () => {
    fc.assert(
      fc.property(pricingInputs, (generated) => {
        const input = { ...generated, principalKobo: Math.max(generated.principalKobo, 100_000), tenorDays: Math.min(generated.tenorDays, 30) };
        const loan = priceLoan({ ...input, repaymentFrequency: 'monthly' });
        const expected = ((loan.totalRepayableKobo / input.principalKobo) ** (365 / input.tenorDays) - 1) * 10_000;
        if (expected < 1e12) expect(Math.abs(loan.aprBps - expected)).toBeLessThanOrEqual(Math.max(1, expected * 1e-9));
      }),
      { numRuns: 300 },
    );
  });
});
