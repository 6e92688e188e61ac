import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateRepayment, applyAllocation, outstandingOf, type InstalmentBalance } from '../../server/platform/domain/repayments/allocate-repayment';
import { endOfLagosDay, quoteEarlySettlement, type EarlySettlementRule } from '../../server/platform/domain/repayments/settlement-quote';

const STARTED = '2026-01-01T09:00:00.000Z';
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.parse(STARTED) + days * DAY).toISOString();

/** Three 30-day instalments of 36,000 kobo: fee 1,000 + interest 5,000 + principal 30,000, due on days 30, 60, 90. */
function schedule(overrides: Array<Partial<InstalmentBalance>> = []): InstalmentBalance[] {
  return [1, 2, 3].map((n) => ({
    installmentNumber: n,
    dueDate: at(30 * n),
    principalKobo: 30_000,
    interestKobo: 5_000,
    feeKobo: 1_000,
    lateFeeKobo: 0,
    paidPrincipalKobo: 0,
    paidInterestKobo: 0,
    paidFeeKobo: 0,
    ...overrides[n - 1],
  }));
}

const toDate: EarlySettlementRule = { interest: 'to_date', feeBps: 0 };

/** Pays the quote against the balances it settles; returns what is left owed. */
function payQuote(quote: ReturnType<typeof quoteEarlySettlement>) {
  if (quote.totalKobo === 0) return { left: outstandingOf(quote.settledInstalments).totalKobo, unallocated: 0 };
  const allocation = allocateRepayment(quote.totalKobo, quote.settledInstalments);
  return { left: outstandingOf(applyAllocation(quote.settledInstalments, allocation)).totalKobo, unallocated: allocation.unallocatedKobo };
}

describe('quoteEarlySettlement — worked examples', () => {
  it('on day 12 of the first period, interest to date: all principal, 12/30 of the first interest, no fee not yet due', () => {
    const quote = quoteEarlySettlement({ instalments: schedule(), startedAt: STARTED, asOf: at(12.5), rule: toDate });

    expect(quote).toMatchObject({ principalKobo: 90_000, interestKobo: 2_000, feeKobo: 0, settlementFeeKobo: 0, totalKobo: 92_000, waivedKobo: 16_000 });
    expect(payQuote(quote)).toEqual({ left: 0, unallocated: 0 });
  });

  it('after the first instalment fell due unpaid: its fee and interest are owed, the second period accrues by whole days', () => {
    const quote = quoteEarlySettlement({ instalments: schedule(), startedAt: STARTED, asOf: at(45), rule: toDate });

    expect(quote).toMatchObject({ principalKobo: 90_000, interestKobo: 5_000 + 2_500, feeKobo: 1_000, totalKobo: 98_500 });
  });

  it('interest already paid counts against what accrued, in total, and is never refunded', () => {
    // The first instalment paid in full on day 10: 5,000 interest paid while 1,666 had accrued.
    const paid = schedule([{ paidPrincipalKobo: 30_000, paidInterestKobo: 5_000, paidFeeKobo: 1_000 }]);
    const quote = quoteEarlySettlement({ instalments: paid, startedAt: STARTED, asOf: at(10), rule: toDate });

    expect(quote).toMatchObject({ principalKobo: 60_000, interestKobo: 0, feeKobo: 0, totalKobo: 60_000 });
    expect(payQuote(quote)).toEqual({ left: 0, unallocated: 0 });
  });

  it('the scheduled rule asks the rest of the scheduled interest', () => {
    const quote = quoteEarlySettlement({ instalments: schedule(), startedAt: STARTED, asOf: at(12), rule: { interest: 'scheduled', feeBps: 0 } });

    expect(quote).toMatchObject({ principalKobo: 90_000, interestKobo: 15_000, feeKobo: 0, totalKobo: 105_000 });
  });

  it('a settlement fee is a share of the unpaid principal, rounded down, and never takes the quote above the scheduled outstanding', () => {
    const twoPercent = quoteEarlySettlement({ instalments: schedule(), startedAt: STARTED, asOf: at(12), rule: { interest: 'to_date', feeBps: 200 } });
    expect(twoPercent).toMatchObject({ settlementFeeKobo: 1_800, totalKobo: 90_000 + 2_000 + 1_800 });
    expect(payQuote(twoPercent)).toEqual({ left: 0, unallocated: 0 });

    const capped = quoteEarlySettlement({ instalments: schedule(), startedAt: STARTED, asOf: at(12), rule: { interest: 'scheduled', feeBps: 10_000 } });
    expect(capped.totalKobo).toBe(outstandingOf(schedule()).totalKobo);
    expect(capped.settlementFeeKobo).toBe(3_000);
  });

  it('is valid until the end of the Lagos day it was made', () => {
    expect(endOfLagosDay(Date.parse('2026-03-10T22:59:59.999Z'))).toBe('2026-03-10T22:59:59.999Z');
    expect(endOfLagosDay(Date.parse('2026-03-10T23:00:00.000Z'))).toBe('2026-03-11T22:59:59.999Z');
    expect(quoteEarlySettlement({ instalments: schedule(), startedAt: STARTED, asOf: '2026-01-13T10:00:00.000Z', rule: toDate }).validUntil).toBe('2026-01-13T22:59:59.999Z');
  });

  it('refuses a rule or an instant it cannot read', () => {
    const base = { instalments: schedule(), startedAt: STARTED, asOf: at(1) };
    expect(() => quoteEarlySettlement({ ...base, rule: { interest: 'to_date', feeBps: -1 } })).toThrow(RangeError);
    expect(() => quoteEarlySettlement({ ...base, rule: { interest: 'to_date', feeBps: 1.5 } })).toThrow(RangeError);
    expect(() => quoteEarlySettlement({ ...base, rule: { interest: 'later' as never, feeBps: 0 } })).toThrow(RangeError);
    expect(() => quoteEarlySettlement({ ...base, asOf: 'tomorrow', rule: toDate })).toThrow(RangeError);
  });
});

/** A schedule of 1–12 monthly-ish instalments with any amounts, partly paid (paid never above due). */
const anyLoan = fc
  .array(
    fc.record({
      periodDays: fc.integer({ min: 1, max: 62 }),
      principalKobo: fc.integer({ min: 0, max: 50_000_000 }),
      interestKobo: fc.integer({ min: 0, max: 5_000_000 }),
      feeKobo: fc.integer({ min: 0, max: 500_000 }),
      lateFeeKobo: fc.integer({ min: 0, max: 100_000 }),
      paid: fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
    }),
    { minLength: 1, maxLength: 12 },
  )
  .map((rows) => {
    let day = 0;
    return rows.map((r, index): InstalmentBalance => {
      day += r.periodDays;
      return {
        installmentNumber: index + 1,
        dueDate: at(day),
        principalKobo: r.principalKobo,
        interestKobo: r.interestKobo,
        feeKobo: r.feeKobo,
        lateFeeKobo: r.lateFeeKobo,
        paidPrincipalKobo: Math.floor(r.principalKobo * r.paid[0]),
        paidInterestKobo: Math.floor(r.interestKobo * r.paid[1]),
        paidFeeKobo: Math.floor((r.feeKobo + r.lateFeeKobo) * r.paid[2]),
      };
    });
  });
const anyRule = fc.record({ interest: fc.constantFrom('to_date' as const, 'scheduled' as const), feeBps: fc.integer({ min: 0, max: 10_000 }) });
const anyDay = fc.double({ min: -5, max: 800, noNaN: true });

describe('quoteEarlySettlement — properties', () => {
  it('a quote paid leaves exactly nothing owed, and nothing over', () => {
    fc.assert(
      fc.property(anyLoan, anyRule, anyDay, (instalments, rule, day) => {
        const quote = quoteEarlySettlement({ instalments, startedAt: STARTED, asOf: at(day), rule });
        expect(payQuote(quote)).toEqual({ left: 0, unallocated: 0 });
      }),
    );
  });

  it('is never more than the scheduled outstanding, adds up, and always asks the whole unpaid principal', () => {
    fc.assert(
      fc.property(anyLoan, anyRule, anyDay, (instalments, rule, day) => {
        const quote = quoteEarlySettlement({ instalments, startedAt: STARTED, asOf: at(day), rule });
        const scheduled = outstandingOf(instalments);
        expect(quote.totalKobo).toBeLessThanOrEqual(scheduled.totalKobo);
        expect(quote.totalKobo).toBe(quote.principalKobo + quote.interestKobo + quote.feeKobo + quote.settlementFeeKobo);
        expect(quote.waivedKobo).toBe(scheduled.totalKobo - quote.totalKobo);
        expect(quote.principalKobo).toBe(scheduled.principalKobo);
        for (const value of [quote.totalKobo, quote.interestKobo, quote.feeKobo, quote.settlementFeeKobo, quote.waivedKobo]) {
          expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
        }
      }),
    );
  });

  it('interest to date never exceeds the scheduled rule, and never falls as days pass', () => {
    fc.assert(
      fc.property(anyLoan, anyDay, anyDay, (instalments, a, b) => {
        const [earlier, later] = a <= b ? [a, b] : [b, a];
        const quote = (day: number, interest: EarlySettlementRule['interest']) => quoteEarlySettlement({ instalments, startedAt: STARTED, asOf: at(day), rule: { interest, feeBps: 0 } });
        expect(quote(earlier, 'to_date').interestKobo).toBeLessThanOrEqual(quote(earlier, 'scheduled').interestKobo);
        expect(quote(earlier, 'to_date').totalKobo).toBeLessThanOrEqual(quote(later, 'to_date').totalKobo);
      }),
    );
  });

  it('once every instalment is due, interest to date is the scheduled outstanding', () => {
    fc.assert(
      fc.property(anyLoan, (instalments) => {
        const lastDue = Math.max(...instalments.map((i) => Date.parse(i.dueDate)));
        const quote = quoteEarlySettlement({ instalments, startedAt: STARTED, asOf: new Date(lastDue).toISOString(), rule: toDate });
        expect(quote.totalKobo).toBe(outstandingOf(instalments).totalKobo);
      }),
    );
  });
});
