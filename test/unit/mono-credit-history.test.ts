import { describe, expect, it } from 'vitest';
import { MonoCreditHistory, normaliseMonoCreditHistory as normalise } from '../../server/integrations/mono/mono-credit-bureau';
import { gradeBureauFacts } from '../../server/platform/domain/financing/credit-policy';

/** Mono's credit history reduced to the domain's facts: windows, duplicates across bureaus, write-offs, enquiries. */
const now = new Date('2026-11-15T10:00:00Z');
/** As the adapter does: Mono's answer parsed (amounts may arrive as strings), then reduced. */
const normaliseMonoCreditHistory = (data: unknown, at: Date) => normalise(MonoCreditHistory.parse(data), at);
const facility = (overrides: Record<string, unknown> = {}) => ({
  date_opened: '2026-01-10T00:00:00.000Z',
  opening_balance: 10_000_000,
  loan_balance: 2_500_000,
  loan_status: 'open',
  performance_status: 'performing',
  closed_date: null,
  repayment_schedule: [{ '09-2026': 'paid' }, { '10-2026': 'paid' }],
  ...overrides,
});
const of = (...history: Record<string, unknown>[]) => ({ providers: ['crc'], credit_history: [{ institution: 'BANK', history }] });

describe('normaliseMonoCreditHistory (pure)', () => {
  it('an empty history is a thin file with no enquiry data', () => {
    const facts = normaliseMonoCreditHistory({ providers: ['crc'], credit_history: [] }, now);
    expect(facts).toEqual({ facilitiesReported: 0, openFacilities: 0, totalOutstandingKobo: 0, worstDelinquencyDays24m: 0, writeOffs: 0, enquiries12m: null });
    expect(gradeBureauFacts(facts)).toEqual({ outcome: 'thin_file', riskBand: 'C' });
  });

  it('counts consecutive missed months in the last 24 months, 30 days each; older lateness is forgiven', () => {
    const recent = facility({ repayment_schedule: [{ '06-2026': 'paid' }, { '07-2026': 'not-paid' }, { '08-2026': 'failed' }, { '09-2026': 'paid' }, { '10-2026': 'late' }] });
    expect(normaliseMonoCreditHistory(of(recent), now).worstDelinquencyDays24m).toBe(60);
    const old = facility({ loan_status: 'closed', loan_balance: 0, closed_date: '2023-06-01', repayment_schedule: [{ '01-2023': 'not-paid' }, { '02-2023': 'not-paid' }, { '03-2023': 'not-paid' }] });
    expect(normaliseMonoCreditHistory(of(old), now)).toMatchObject({ worstDelinquencyDays24m: 0, openFacilities: 0, totalOutstandingKobo: 0, facilitiesReported: 1 });
    // A gap in the schedule breaks the run.
    const gap = facility({ repayment_schedule: [{ '03-2026': 'not-paid' }, { '05-2026': 'not-paid' }] });
    expect(normaliseMonoCreditHistory(of(gap), now).worstDelinquencyDays24m).toBe(30);
  });

  it('reads the CBN class of a recent facility, and a lost or written-off one as a write-off', () => {
    expect(normaliseMonoCreditHistory(of(facility({ performance_status: 'Doubtful' })), now).worstDelinquencyDays24m).toBe(180);
    const lost = normaliseMonoCreditHistory(of(facility({ performance_status: 'lost' }), facility({ date_opened: '2025-02-01', loan_status: 'written-off' })), now);
    expect(lost).toMatchObject({ writeOffs: 2, openFacilities: 0 });
    expect(gradeBureauFacts(lost)).toEqual({ outcome: 'delinquent', riskBand: null });
  });

  it('counts a facility both bureaus report once, and sums what open facilities owe in kobo (fractions rounded up)', () => {
    const data = {
      providers: ['crc', 'xds'],
      credit_history: [
        { institution: 'Access Bank', history: [facility()] },
        { institution: 'ACCESS BANK ', history: [facility()] },
        { institution: 'GTBank', history: [facility({ opening_balance: '500000', loan_balance: '120000.4' })] },
      ],
    };
    expect(normaliseMonoCreditHistory(data, now)).toMatchObject({ facilitiesReported: 2, openFacilities: 2, totalOutstandingKobo: 2_620_001 });
  });

  it('counts enquiries of the last 12 months only', () => {
    const data = { ...of(facility()), enquiries: [{ date: '2026-10-01' }, { date: '2026-01-01' }, { date: '2025-06-01' }] };
    expect(normaliseMonoCreditHistory(data, now).enquiries12m).toBe(2);
  });
});
