import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  affordableInstalmentKobo,
  amountWithinPolicy,
  CreditPolicySchema,
  BUREAU_RULES,
  decideFinancing,
  DEFAULT_CREDIT_POLICY as policy,
  gradeBureauFacts,
  priceFinancing,
  RISK_BANDS,
  tenorMonthsFor,
} from '../../server/platform/domain/financing/credit-policy';
import { firstNameAgrees, splitFullName } from '../../server/platform/domain/financing/names';
import { SandboxCreditBureau } from '../../server/integrations/credit-bureau';
import { SandboxBvnIdentity } from '../../server/integrations/bvn-identity';

const amount = fc.integer({ min: policy.minAmountKobo, max: policy.maxAmountKobo });
const income = fc.integer({ min: 1, max: 10_000_000_000 });
const band = fc.constantFrom(...RISK_BANDS);

describe('credit policy (pure)', () => {
  it('the default policy is a valid policy', () => {
    expect(CreditPolicySchema.safeParse(policy).success).toBe(true);
  });

  it('refuses a policy whose bands do not ascend or do not reach the maximum', () => {
    expect(CreditPolicySchema.safeParse({ ...policy, amountBands: [...policy.amountBands].reverse() }).success).toBe(false);
    expect(CreditPolicySchema.safeParse({ ...policy, amountBands: policy.amountBands.slice(0, 1) }).success).toBe(false);
    expect(CreditPolicySchema.safeParse({ ...policy, minAmountKobo: policy.maxAmountKobo + 1 }).success).toBe(false);
  });

  it.each([
    [500_000, [1, 2, 3]],
    [5_000_000, [1, 2, 3]],
    [5_000_001, [3, 6]],
    [50_000_000, [3, 6]],
    [200_000_000, [6, 9, 12]],
  ])('an amount of %i kobo is in the band with tenors %j', (kobo, tenors) => {
    expect(tenorMonthsFor(policy, kobo)).toEqual(tenors);
  });

  it('bounds amounts at the policy limits, inclusive', () => {
    expect(amountWithinPolicy(policy, policy.minAmountKobo)).toBe(true);
    expect(amountWithinPolicy(policy, policy.minAmountKobo - 1)).toBe(false);
    expect(amountWithinPolicy(policy, policy.maxAmountKobo)).toBe(true);
    expect(amountWithinPolicy(policy, policy.maxAmountKobo + 1)).toBe(false);
  });

  it('a delinquent file (no band) is always declined', () => {
    fc.assert(fc.property(amount, income, (a, i) => {
      expect(decideFinancing(policy, { amountKobo: a, riskBand: null, declaredMonthlyIncomeKobo: i })).toEqual({ approved: false, reason: 'delinquent', riskBand: null });
    }));
  });

  it('every offered tenor is in the amount\'s band, priced at the band\'s rate, and affordable; none is left out that was affordable', () => {
    fc.assert(
      fc.property(amount, band, income, (a, b, i) => {
        const decision = decideFinancing(policy, { amountKobo: a, riskBand: b, declaredMonthlyIncomeKobo: i });
        const ceiling = affordableInstalmentKobo(policy, i);
        if (a > policy.riskBands[b].maxAmountKobo) {
          expect(decision).toMatchObject({ approved: false, reason: 'amount_above_risk_limit' });
          return;
        }
        const affordable = tenorMonthsFor(policy, a).filter((m) => {
          const priced = priceFinancing(policy, a, m, policy.riskBands[b].annualRateBps);
          return Math.max(...priced.instalments.map((x) => x.totalKobo)) <= ceiling;
        });
        if (affordable.length === 0) {
          expect(decision).toMatchObject({ approved: false, reason: 'unaffordable' });
          return;
        }
        expect(decision.approved).toBe(true);
        if (!decision.approved) return;
        expect(decision.options.map((o) => o.tenorMonths)).toEqual(affordable);
        for (const o of decision.options) {
          expect(o.annualRateBps).toBe(policy.riskBands[b].annualRateBps);
          expect(o.instalmentKobo).toBeLessThanOrEqual(ceiling);
          expect(o.totalRepayableKobo).toBe(a + o.costOfCreditKobo);
          expect(Number.isSafeInteger(o.instalmentKobo)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('more income never takes a tenor away (affordability is monotone)', () => {
    fc.assert(
      fc.property(amount, band, income, income, (a, b, i1, i2) => {
        const [low, high] = i1 <= i2 ? [i1, i2] : [i2, i1];
        const tenors = (i: number) => {
          const d = decideFinancing(policy, { amountKobo: a, riskBand: b, declaredMonthlyIncomeKobo: i });
          return d.approved ? d.options.map((o) => o.tenorMonths) : [];
        };
        expect(tenors(high)).toEqual(expect.arrayContaining(tenors(low)));
      }),
      { numRuns: 100 },
    );
  });

  it('the affordable instalment is the income share, floored to the kobo', () => {
    expect(affordableInstalmentKobo(policy, 20_000_000)).toBe(6_000_000);
    expect(affordableInstalmentKobo(policy, 1)).toBe(0);
    fc.assert(fc.property(income, (i) => {
      const cap = affordableInstalmentKobo(policy, i);
      expect(cap * 10_000).toBeLessThanOrEqual(i * policy.maxInstalmentToIncomeBps);
      expect((cap + 1) * 10_000).toBeGreaterThan(i * policy.maxInstalmentToIncomeBps);
    }));
  });

  it('a worked example: ₦150,000 over 6 months at 36 % reducing balance with a 1 % fee', () => {
    const priced = priceFinancing(policy, 15_000_000, 6, 3600);
    expect(priced.instalmentCount).toBe(6);
    expect(priced.processingFeeKobo).toBe(150_000);
    expect(priced.instalments.reduce((s, i) => s + i.totalKobo, 0)).toBe(priced.totalRepayableKobo);
  });
});

describe('names', () => {
  it.each([
    ['Ada', 'Ada Obi', true],
    ['ada', 'ADA  OBI', true],
    ['Adé', 'Ade Obi', true],
    ['Mary Jane', 'Mary Jane Okafor', true],
    ['Mary Jane', 'Mary Okafor', false],
    ['Ada', 'Chidi Obi', false],
    ['Ada', 'Ada', false],
    ['Ada', 'Adaeze Obi', false],
  ])('the clinic\'s %j agrees with the typed %j: %s', (given, typed, agrees) => {
    expect(firstNameAgrees(given, typed)).toBe(agrees);
  });

  it('splits a full name into first and the rest, and refuses one word', () => {
    expect(splitFullName('  Ada  Ngozi Obi ')).toEqual({ firstName: 'Ada', lastName: 'Ngozi Obi' });
    expect(splitFullName('Ada')).toBeNull();
    expect(splitFullName('Ada -')).toBeNull();
  });

  it('any name agrees with itself followed by a surname', () => {
    fc.assert(fc.property(fc.stringMatching(/^[A-Za-z]{1,12}$/), fc.stringMatching(/^[A-Za-z]{1,12}$/), (first, last) => {
      expect(firstNameAgrees(first, `${first.toUpperCase()} ${last}`)).toBe(true);
    }));
  });
});

describe('bureau facts graded by the policy (pure)', () => {
  const clean = { facilitiesReported: 3, openFacilities: 1, totalOutstandingKobo: 5_000_000, worstDelinquencyDays24m: 0, writeOffs: 0, enquiries12m: 1 };
  it.each([
    ['a clean file', clean, 'good', 'A'],
    ['nothing reported', { ...clean, facilitiesReported: 0, openFacilities: 0, totalOutstandingKobo: 0 }, 'thin_file', 'C'],
    ['one month late', { ...clean, worstDelinquencyDays24m: 30 }, 'good', 'B'],
    ['many open facilities', { ...clean, openFacilities: BUREAU_RULES.bandBOpenFacilities }, 'good', 'B'],
    ['many enquiries', { ...clean, enquiries12m: BUREAU_RULES.bandBEnquiries12m }, 'good', 'B'],
    ['two months late', { ...clean, worstDelinquencyDays24m: 60 }, 'good', 'C'],
    ['three months late', { ...clean, worstDelinquencyDays24m: BUREAU_RULES.delinquentDays }, 'delinquent', null],
    ['a write-off', { ...clean, writeOffs: 1 }, 'delinquent', null],
  ] as const)('%s grades %s (band %s)', (_label, facts, outcome, riskBand) => {
    expect(gradeBureauFacts(facts)).toEqual({ outcome, riskBand });
  });

  it('never grades a file with a write-off or 90+ days past due better than delinquent', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.nat(50), fc.nat(10_000), fc.integer({ min: 1, max: 5 }), fc.option(fc.nat(50)), (reported, open, days, writeOffs, enquiries) => {
        const facts = { facilitiesReported: reported, openFacilities: open, totalOutstandingKobo: 0, worstDelinquencyDays24m: days, writeOffs, enquiries12m: enquiries };
        expect(gradeBureauFacts(facts).riskBand).toBeNull();
        expect(gradeBureauFacts({ ...facts, writeOffs: 0, worstDelinquencyDays24m: BUREAU_RULES.delinquentDays + days }).riskBand).toBeNull();
      }),
    );
  });

  it('declines as unaffordable when existing debt exceeds the allowed months of income, whatever the band', () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 1, max: 1_000_000_000 }), band, (a, i, b) => {
        const limit = i * BUREAU_RULES.maxOutstandingIncomeMonths;
        expect(decideFinancing(policy, { amountKobo: a, riskBand: b, declaredMonthlyIncomeKobo: i, existingDebtKobo: limit + 1 })).toMatchObject({ approved: false });
        const without = decideFinancing(policy, { amountKobo: a, riskBand: b, declaredMonthlyIncomeKobo: i });
        expect(decideFinancing(policy, { amountKobo: a, riskBand: b, declaredMonthlyIncomeKobo: i, existingDebtKobo: limit })).toEqual(without);
      }),
    );
  });
});

describe('sandbox adapters (documented magic values)', () => {
  const bureau = new SandboxCreditBureau();
  it.each([
    ['22222222229', 'delinquent', null],
    ['22222222221', 'thin_file', 'C'],
    ['22222222223', 'good', 'B'],
    ['22222222227', 'good', 'B'],
    ['22222222220', 'good', 'A'],
    ['22222222228', 'good', 'A'],
  ])('the bureau reports BVN %s as facts the policy grades %s (band %s)', async (bvn, outcome, riskBand) => {
    const report = await bureau.report({ bvn, mode: 'test' });
    expect(report).toMatchObject({ provider: 'sandbox', reference: expect.stringMatching(/^SBX-/) });
    expect(gradeBureauFacts(report.facts)).toEqual({ outcome, riskBand });
  });

  it('live mode has no bureau and no identity provider: they refuse rather than invent', async () => {
    await expect(bureau.report({ bvn: '22222222220', mode: 'live' })).rejects.toThrow();
    await expect(new SandboxBvnIdentity().match({ bvn: '22222222220', firstName: 'Ada', lastName: 'Obi', dateOfBirth: '1990-01-01', mode: 'live' })).rejects.toThrow();
  });

  it('the identity registry: unknown BVN, name and date mismatches, else a match', async () => {
    const id = new SandboxBvnIdentity();
    const ask = (bvn: string, lastName: string, dateOfBirth = '1990-01-01') => id.match({ bvn, firstName: 'Ada', lastName, dateOfBirth, mode: 'test' });
    expect(await ask('00000000000', 'Obi')).toEqual({ outcome: 'not_found' });
    expect(await ask('22222222220', 'MISMATCH')).toEqual({ outcome: 'mismatch', fields: ['name'] });
    expect(await ask('22222222220', 'Obi', '1900-01-01')).toEqual({ outcome: 'mismatch', fields: ['date_of_birth'] });
    expect(await ask('22222222220', 'Obi')).toEqual({ outcome: 'match' });
  });
});

describe('phone numbers (libphonenumber-js)', () => {
  it('accepts the three documented Nigerian forms for the initiation, nothing else', async () => {
    const { normaliseNigerianMobile } = await import('../../server/platform/domain/users/phone');
    for (const ok of ['08031234567', '2348031234567', '+2348031234567', '+234 803 123 4567']) expect(normaliseNigerianMobile(ok)).toBe('+2348031234567');
    for (const bad of ['+447911123456', '8031234567', '0803123456', '+23408031234567', '0203123456']) expect(normaliseNigerianMobile(bad)).toBeNull();
  });
});
