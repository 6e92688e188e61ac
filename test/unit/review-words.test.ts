import { describe, expect, it } from 'vitest';
import { reasonInWords, reviewAge, reviewEvidence } from '../../dashboard/ui/review-words';
import { maskBorrowerName } from '../../server/platform/domain/reviews/review-queue';

describe('reviews in people\'s words', () => {
  it('a review\'s age is said in the coarsest whole unit: minutes, hours under two days, then days', () => {
    const opened = '2026-11-29T08:00:00.000Z';
    const at = (iso: string) => Date.parse(iso);
    expect(reviewAge(opened, at('2026-11-29T08:00:59Z'))).toBe('open 0 min');
    expect(reviewAge(opened, at('2026-11-29T08:59:00Z'))).toBe('open 59 min');
    expect(reviewAge(opened, at('2026-11-29T11:10:00Z'))).toBe('open 3 h');
    expect(reviewAge(opened, at('2026-12-01T07:59:00Z'))).toBe('open 47 h');
    expect(reviewAge(opened, at('2026-12-02T09:00:00Z'))).toBe('open 3 d');
  });

  it('a known reason reads in words; an unknown one is shown, not hidden', () => {
    expect(reasonInWords('aml_hit')).toBe('Possible sanctions or watch-list match');
    expect(reasonInWords('something_new')).toBe('something new');
  });

  it('the evidence splits into what the check saw and what came with the loan; an unknown field still shows', () => {
    const { check, borrower } = reviewEvidence('name_mismatch', { accountName: 'ADEYEMI NGOZI', nameMatch: 'mismatch', scorePercent: 0, confirmedAt: null, extra: 'kept' });
    expect(check).toEqual([['Name comparison', 'Another name'], ['Similarity score', '0%'], ['extra', 'kept']]);
    expect(borrower).toEqual([['Account name (the bank)', 'ADEYEMI NGOZI'], ['Borrower confirmed it is theirs', 'no']]);
  });

  it('the queue names a borrower by first name and last initial', () => {
    expect(maskBorrowerName('Adaeze', 'okafor')).toBe('Adaeze O.');
    expect(maskBorrowerName(' Ada ', '')).toBe('Ada');
  });
});
