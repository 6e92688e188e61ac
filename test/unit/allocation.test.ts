import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocateRepayment,
  applyAllocation,
  outstandingOf,
  type Allocation,
  type InstalmentBalance,
} from '../../server/platform/domain/repayments/allocate-repayment';
import { allocatePrincipalReturn } from '../../server/platform/domain/repayments/allocate-principal-return';

/** A valid, unpaid instalment; override what the case is about. */
function instalment(installmentNumber: number, overrides: Partial<InstalmentBalance> = {}): InstalmentBalance {
  return {
    installmentNumber,
    dueDate: `2025-0${installmentNumber}-15`,
    principalKobo: 30_000,
    interestKobo: 5_000,
    feeKobo: 1_000,
    lateFeeKobo: 0,
    paidPrincipalKobo: 0,
    paidInterestKobo: 0,
    paidFeeKobo: 0,
    ...overrides,
  };
}

/** Three instalments of 36,000 kobo each: fee 1,000 + interest 5,000 + principal 30,000. */
const schedule = (): InstalmentBalance[] => [instalment(1), instalment(2), instalment(3)];

/** Computed here from the fields, independently of the module, so the properties check it. */
function owed(i: InstalmentBalance) {
  const fee = i.feeKobo + i.lateFeeKobo - i.paidFeeKobo;
  const interest = i.interestKobo - i.paidInterestKobo;
  const principal = i.principalKobo - i.paidPrincipalKobo;
  return { fee, interest, principal, total: fee + interest + principal };
}

describe('allocateRepayment — worked examples', () => {
  it('when the payment equals the first instalment total, then exactly instalment 1 is cleared', () => {
    const result = allocateRepayment(36_000, schedule());

    expect(result).toEqual({
      appliedKobo: 36_000,
      unallocatedKobo: 0,
      feePortionKobo: 1_000,
      interestPortionKobo: 5_000,
      principalPortionKobo: 30_000,
      instalments: [{ installmentNumber: 1, feeKobo: 1_000, interestKobo: 5_000, principalKobo: 30_000, status: 'paid' }],
    });
  });

  it('when the payment is short of an instalment, then fee, then interest, then part of principal (partial)', () => {
    const result = allocateRepayment(10_000, schedule());

    expect(result.instalments).toEqual([{ installmentNumber: 1, feeKobo: 1_000, interestKobo: 5_000, principalKobo: 4_000, status: 'partial' }]);
    expect(result.appliedKobo).toBe(10_000);
  });

  it('when the payment is smaller than the fee, then only the fee is touched', () => {
    const result = allocateRepayment(600, schedule());

    expect(result.instalments).toEqual([{ installmentNumber: 1, feeKobo: 600, interestKobo: 0, principalKobo: 0, status: 'partial' }]);
  });

  it('when the payment spans two instalments, then the first is cleared and the second starts fee first', () => {
    const result = allocateRepayment(50_000, schedule());

    expect(result.instalments).toEqual([
      { installmentNumber: 1, feeKobo: 1_000, interestKobo: 5_000, principalKobo: 30_000, status: 'paid' },
      { installmentNumber: 2, feeKobo: 1_000, interestKobo: 5_000, principalKobo: 8_000, status: 'partial' },
    ]);
    expect([result.feePortionKobo, result.interestPortionKobo, result.principalPortionKobo]).toEqual([2_000, 10_000, 38_000]);
  });

  it('when the payment exceeds the whole outstanding, then the excess is returned unallocated', () => {
    const result = allocateRepayment(120_000, schedule());

    expect(result.appliedKobo).toBe(108_000);
    expect(result.unallocatedKobo).toBe(12_000);
    expect(result.instalments.map((a) => [a.installmentNumber, a.status])).toEqual([
      [1, 'paid'],
      [2, 'paid'],
      [3, 'paid'],
    ]);
  });

  it('when an instalment carries a late fee, then the late fee is taken with the fee, before interest', () => {
    const balances = [instalment(1, { lateFeeKobo: 2_500 }), instalment(2)];

    const result = allocateRepayment(4_000, balances);

    expect(result.instalments).toEqual([{ installmentNumber: 1, feeKobo: 3_500, interestKobo: 500, principalKobo: 0, status: 'partial' }]);
  });

  it('when an instalment is already partly paid, then allocation continues where it stopped', () => {
    const balances = [instalment(1, { paidFeeKobo: 1_000, paidInterestKobo: 2_000 }), instalment(2)];

    const result = allocateRepayment(5_000, balances);

    expect(result.instalments).toEqual([{ installmentNumber: 1, feeKobo: 0, interestKobo: 3_000, principalKobo: 2_000, status: 'partial' }]);
  });

  it('when the oldest instalments are already paid, then they are skipped and not listed', () => {
    const balances = [instalment(1, { paidFeeKobo: 1_000, paidInterestKobo: 5_000, paidPrincipalKobo: 30_000 }), instalment(2)];

    const result = allocateRepayment(36_000, balances);

    expect(result.instalments).toEqual([{ installmentNumber: 2, feeKobo: 1_000, interestKobo: 5_000, principalKobo: 30_000, status: 'paid' }]);
  });

  it('when instalments arrive out of order, then they are still settled by installmentNumber', () => {
    const [first, second, third] = schedule();

    expect(allocateRepayment(50_000, [third!, first!, second!])).toEqual(allocateRepayment(50_000, [first!, second!, third!]));
  });

  it('when applied, then the balances move by the allocation and the input is not mutated', () => {
    const balances = schedule();
    const before = structuredClone(balances);

    const after = applyAllocation(balances, allocateRepayment(50_000, balances));

    expect(balances).toEqual(before);
    expect(after.map((i) => [i.paidFeeKobo, i.paidInterestKobo, i.paidPrincipalKobo])).toEqual([
      [1_000, 5_000, 30_000],
      [1_000, 5_000, 8_000],
      [0, 0, 0],
    ]);
    expect(outstandingOf(after)).toEqual({ feeKobo: 1_000, interestKobo: 5_000, principalKobo: 52_000, totalKobo: 58_000 });
  });
});

describe('allocateRepayment — input validation', () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1])('when the amount is %s, then RangeError', (amount) => {
    expect(() => allocateRepayment(amount, schedule())).toThrow(RangeError);
  });

  it.each<[string, Partial<InstalmentBalance>]>([
    ['a negative principal', { principalKobo: -1 }],
    ['a fractional interest', { interestKobo: 0.5 }],
    ['an unsafe fee', { feeKobo: Number.MAX_SAFE_INTEGER + 2 }],
    ['a negative paid fee', { paidFeeKobo: -1 }],
    ['paid principal above due', { paidPrincipalKobo: 30_001 }],
    ['paid interest above due', { paidInterestKobo: 5_001 }],
    ['paid fee above fee + late fee', { lateFeeKobo: 100, paidFeeKobo: 1_101 }],
  ])('when a balance has %s, then RangeError', (_, overrides) => {
    const balances = [instalment(1, overrides)];

    expect(() => allocateRepayment(1_000, balances)).toThrow(RangeError);
    expect(() => outstandingOf(balances)).toThrow(RangeError);
  });

  it('when an installmentNumber repeats, then RangeError', () => {
    expect(() => allocateRepayment(1_000, [instalment(1), instalment(1)])).toThrow(RangeError);
  });

  it('when the loan total would exceed the safe integer range, then RangeError', () => {
    const huge = { principalKobo: Number.MAX_SAFE_INTEGER - 10, interestKobo: 0, feeKobo: 0 };
    expect(() => allocateRepayment(1, [instalment(1, huge), instalment(2, huge)])).toThrow(RangeError);
  });

  it('when an allocation does not fit the balances, then applyAllocation refuses it', () => {
    const balances = schedule();
    const foreign = allocateRepayment(36_000, [instalment(9)]);
    const tooMuch = allocateRepayment(36_000, balances);
    const onPaid = applyAllocation(balances, tooMuch);

    expect(() => applyAllocation(balances, foreign)).toThrow(RangeError);
    expect(() => applyAllocation(onPaid, tooMuch)).toThrow(RangeError);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

const bucketAmount = fc.oneof({ arbitrary: fc.constant(0), weight: 1 }, { arbitrary: fc.integer({ min: 1, max: 5_000_000 }), weight: 4 });
/** Prior payment into a bucket: often nothing, sometimes all of it, otherwise anything in between. */
const paidOf = (due: number) => fc.oneof(fc.constant(0), fc.constant(due), fc.integer({ min: 0, max: due }));

const instalmentTerms = fc
  .record({ principalKobo: bucketAmount, interestKobo: bucketAmount, feeKobo: bucketAmount, lateFeeKobo: bucketAmount })
  .chain((terms) =>
    fc
      .record({
        paidPrincipalKobo: paidOf(terms.principalKobo),
        paidInterestKobo: paidOf(terms.interestKobo),
        paidFeeKobo: paidOf(terms.feeKobo + terms.lateFeeKobo),
      })
      .map((paid) => ({ ...terms, ...paid })),
  );

/** 1..60 instalments numbered in due order, handed over in a shuffled order. */
const balancesArb = fc
  .array(instalmentTerms, { minLength: 1, maxLength: 60, size: 'max' })
  .map((terms) =>
    terms.map((t, index): InstalmentBalance => ({
      installmentNumber: index + 1,
      dueDate: new Date(Date.UTC(2025, index, 15)).toISOString(),
      ...t,
    })),
  )
  .chain((list) => fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }));

/** Mostly amounts smaller than the loan (so most sequences leave it partly paid), sometimes far more. */
const amountArb = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 1_000 }), weight: 6 },
  { arbitrary: fc.integer({ min: 1, max: 5_000_000 }), weight: 12 },
  { arbitrary: fc.integer({ min: 1, max: 50_000_000 }), weight: 8 },
  { arbitrary: fc.integer({ min: 1, max: 1_000_000_000 }), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), weight: 1 },
);

const RUNS = 400;
const byNumber = (list: readonly InstalmentBalance[]) => [...list].sort((a, b) => a.installmentNumber - b.installmentNumber);

/** Pays each amount in turn, handing every step to `check`. */
function payInTurn(
  start: InstalmentBalance[],
  amounts: number[],
  check: (step: { amount: number; before: InstalmentBalance[]; allocation: Allocation; after: InstalmentBalance[] }) => void,
): void {
  let balances = start;
  for (const amount of amounts) {
    const snapshot = structuredClone(balances);
    const allocation = allocateRepayment(amount, balances);
    const after = applyAllocation(balances, allocation);
    expect(balances).toEqual(snapshot); // pure: neither call mutates its input
    check({ amount, before: balances, allocation, after });
    balances = after;
  }
}

describe('allocateRepayment — properties over any schedule and any sequence of 1..10 repayments', () => {
  const scenarios = fc.tuple(balancesArb, fc.array(amountArb, { minLength: 1, maxLength: 10 }));

  it('the portions add up to appliedKobo, applied + unallocated is the amount, and the per-instalment parts add up to the portions', () => {
    fc.assert(
      fc.property(scenarios, ([start, amounts]) => {
        payInTurn(start, amounts, ({ amount, allocation: a }) => {
          expect(a.feePortionKobo + a.interestPortionKobo + a.principalPortionKobo).toBe(a.appliedKobo);
          expect(a.appliedKobo + a.unallocatedKobo).toBe(amount);
          expect(a.appliedKobo).toBeGreaterThanOrEqual(0);
          expect(a.unallocatedKobo).toBeGreaterThanOrEqual(0);
          const sum = (pick: (x: Allocation['instalments'][number]) => number) => a.instalments.reduce((s, x) => s + pick(x), 0);
          expect([sum((x) => x.feeKobo), sum((x) => x.interestKobo), sum((x) => x.principalKobo)]).toEqual([
            a.feePortionKobo,
            a.interestPortionKobo,
            a.principalPortionKobo,
          ]);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('no bucket is ever paid beyond its due, and each listed instalment received something, in due order', () => {
    fc.assert(
      fc.property(scenarios, ([start, amounts]) => {
        payInTurn(start, amounts, ({ allocation, after }) => {
          for (const i of after) {
            const o = owed(i);
            expect(Math.min(o.fee, o.interest, o.principal)).toBeGreaterThanOrEqual(0);
          }
          const numbers = allocation.instalments.map((x) => x.installmentNumber);
          expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
          expect(new Set(numbers).size).toBe(numbers.length);
          for (const x of allocation.instalments) {
            expect(Math.min(x.feeKobo, x.interestKobo, x.principalKobo)).toBeGreaterThanOrEqual(0);
            expect(x.feeKobo + x.interestKobo + x.principalKobo).toBeGreaterThan(0);
          }
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('applies min(amount, outstanding); unallocated is positive only when the whole loan is cleared', () => {
    fc.assert(
      fc.property(scenarios, ([start, amounts]) => {
        payInTurn(start, amounts, ({ amount, before, allocation, after }) => {
          expect(allocation.appliedKobo).toBe(Math.min(amount, outstandingOf(before).totalKobo));
          if (allocation.unallocatedKobo > 0) expect(outstandingOf(after).totalKobo).toBe(0);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('oldest first: every instalment before the first one still owing is fully paid', () => {
    fc.assert(
      fc.property(scenarios, ([start, amounts]) => {
        payInTurn(start, amounts, ({ after }) => {
          const ordered = byNumber(after);
          const firstOwing = ordered.findIndex((i) => owed(i).total > 0);
          const settled = firstOwing === -1 ? ordered : ordered.slice(0, firstOwing);
          for (const i of settled) expect(owed(i).total).toBe(0);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('within an instalment: interest only once the fee is paid, principal only once fee and interest are paid; status tells paid from partial', () => {
    fc.assert(
      fc.property(scenarios, ([start, amounts]) => {
        payInTurn(start, amounts, ({ allocation, after }) => {
          const byNo = new Map(after.map((i) => [i.installmentNumber, i]));
          for (const x of allocation.instalments) {
            const o = owed(byNo.get(x.installmentNumber)!);
            if (x.interestKobo > 0) expect(o.fee).toBe(0);
            if (x.principalKobo > 0) expect([o.fee, o.interest]).toEqual([0, 0]);
            expect(x.status).toBe(o.total === 0 ? 'paid' : 'partial');
          }
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('the total outstanding falls by exactly appliedKobo, and each bucket by its portion', () => {
    fc.assert(
      fc.property(scenarios, ([start, amounts]) => {
        payInTurn(start, amounts, ({ before, allocation, after }) => {
          const was = outstandingOf(before);
          const now = outstandingOf(after);
          expect(was.totalKobo - now.totalKobo).toBe(allocation.appliedKobo);
          expect([was.feeKobo - now.feeKobo, was.interestKobo - now.interestKobo, was.principalKobo - now.principalKobo]).toEqual([
            allocation.feePortionKobo,
            allocation.interestPortionKobo,
            allocation.principalPortionKobo,
          ]);
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('paying exactly the first owing instalment clears it and nothing else; paying the whole outstanding clears the loan', () => {
    fc.assert(
      fc.property(balancesArb, (start) => {
        const total = outstandingOf(start).totalKobo;
        fc.pre(total > 0);
        const first = byNumber(start).find((i) => owed(i).total > 0)!;

        const one = allocateRepayment(owed(first).total, start);
        expect(one.instalments).toEqual([
          { installmentNumber: first.installmentNumber, feeKobo: owed(first).fee, interestKobo: owed(first).interest, principalKobo: owed(first).principal, status: 'paid' },
        ]);

        const all = allocateRepayment(total, start);
        expect(all.unallocatedKobo).toBe(0);
        expect(outstandingOf(applyAllocation(start, all)).totalKobo).toBe(0);
      }),
      { numRuns: RUNS },
    );
  });

  it('the order the instalments are given in does not change the allocation', () => {
    fc.assert(
      fc.property(balancesArb, amountArb, (balances, amount) => {
        expect(allocateRepayment(amount, balances)).toEqual(allocateRepayment(amount, byNumber(balances)));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('allocatePrincipalReturn (method wallet: undrawn credit back to the pool)', () => {
  it('reduces principal only, latest instalment first, and returns the excess over the unpaid principal', () => {
    const result = allocatePrincipalReturn(45_000, schedule());
    expect(result).toMatchObject({ appliedKobo: 45_000, unallocatedKobo: 0, feePortionKobo: 0, interestPortionKobo: 0, principalPortionKobo: 45_000 });
    expect(result.instalments).toEqual([
      { installmentNumber: 2, feeKobo: 0, interestKobo: 0, principalKobo: 15_000, status: 'partial' },
      { installmentNumber: 3, feeKobo: 0, interestKobo: 0, principalKobo: 30_000, status: 'partial' },
    ]);
    const all = allocatePrincipalReturn(100_000, schedule());
    expect(all).toMatchObject({ appliedKobo: 90_000, unallocatedKobo: 10_000 });
  });

  it('marks an instalment paid only when its fee and interest were paid already', () => {
    const paidAllButPrincipal = [instalment(1, { paidFeeKobo: 1_000, paidInterestKobo: 5_000, paidPrincipalKobo: 10_000 })];
    expect(allocatePrincipalReturn(20_000, paidAllButPrincipal).instalments[0]!.status).toBe('paid');
  });

  it('for any schedule and amount: principal only, never beyond a bucket, applied + unallocated = amount', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ principal: fc.integer({ min: 0, max: 1e7 }), paid: fc.integer({ min: 0, max: 1e7 }) }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 2e8 }),
        (rows, amount) => {
          const balances = rows.map((r, i) => instalment(i + 1, { principalKobo: r.principal, paidPrincipalKobo: Math.min(r.paid, r.principal) }));
          const result = allocatePrincipalReturn(amount, balances);
          expect(result.appliedKobo + result.unallocatedKobo).toBe(amount);
          expect(result.principalPortionKobo).toBe(result.appliedKobo);
          expect(result.appliedKobo).toBe(Math.min(amount, outstandingOf(balances).principalKobo));
          applyAllocation(balances, result); // throws if any bucket were overpaid
        },
      ),
    );
  });
});
