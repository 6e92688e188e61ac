import { describe, expect, it } from 'vitest';
import { matchNames, nameParts } from '../../server/shared/name-match';

describe('name matching (bank account names and signatures against the borrower on record)', () => {
  it.each([
    // [given (account name or signature), on record, expected]
    ['ADEYEMI NGOZI', 'Ngozi Adeyemi', 'match'], // the bank's SURNAME FIRSTNAME order
    ['Ngozi Adeyemi', 'Ngozi Adeyemi', 'match'],
    ['ngozi ADEYEMI', 'Ngozi Adeyemi', 'match'], // case
    ['OKAFOR AMAKA CHIOMA', 'Amaka Okafor', 'match'], // a middle name on the account
    ['Amaka Okafor', 'Amaka Chioma Okafor', 'match'], // a middle name on record, not typed
    ['MRS AMAKA OKAFOR', 'Amaka Okafor', 'match'], // titles stripped
    ['ALHAJI MUSA IBRAHIM', 'Musa Ibrahim', 'match'],
    ['CHIEF (DR.) OLUMIDE BABAJIDE', 'Olumide Babajide', 'match'],
    ['Ọláolúwa Adébáyọ̀', 'Olaoluwa Adebayo', 'match'], // Yoruba diacritics
    ['ADEBAYO-OKAFOR NGOZI', 'Ngozi Adebayo Okafor', 'match'], // a double-barrelled surname, hyphenated
    ["O'NEIL GRACE", 'Grace ONeil', 'match'], // apostrophes
    ['ADEYEMI NGOZIE', 'Ngozi Adeyemi', 'match'], // a one-letter slip
    ['OKAFOR, AMAKA', 'Amaka Okafor', 'match'], // punctuation
    ['A. OKAFOR', 'Amaka Okafor', 'partial'], // an initial
    ['OKAFOR A C', 'Amaka Chioma Okafor', 'partial'],
    ['Amaka', 'Amaka Okafor', 'partial'], // one name only
    ['Okafor', 'Amaka Okafor', 'partial'],
    ['Mickey Mouse', 'Amaka Okafor', 'mismatch'],
    ['ADEYEMI NGOZI', 'Amaka Okafor', 'mismatch'],
    ['OKAFOR CHIDI', 'Amaka Okafor', 'mismatch'], // a relative: same surname, another first name
    ['Chidinma Obi', 'Chidi Obi', 'mismatch'], // starts the same, another name
    ['B. OKAFOR', 'Amaka Okafor', 'mismatch'], // an initial that does not fit
    ['A. O.', 'Amaka Okafor', 'mismatch'], // initials alone prove nothing
    ['Mr', 'Amaka Okafor', 'mismatch'],
    ['', 'Amaka Okafor', 'mismatch'],
    ['12345', 'Amaka Okafor', 'mismatch'],
  ])('%s vs %s on record → %s', (given, onRecord, expected) => {
    expect(matchNames(given, onRecord).status).toBe(expected);
  });

  it('is symmetric in its outcome', () => {
    for (const [a, b] of [['ADEYEMI NGOZI', 'Ngozi Adeyemi'], ['A. OKAFOR', 'Amaka Okafor'], ['Mickey Mouse', 'Amaka Okafor'], ['OKAFOR AMAKA CHIOMA', 'Amaka Okafor']]) {
      expect(matchNames(a!, b!).status).toBe(matchNames(b!, a!).status);
    }
  });

  it('scores 1 for the same name in another order, between 0 and 1 for a partial, 0 for a stranger', () => {
    expect(matchNames('ADEYEMI NGOZI', 'Ngozi Adeyemi').score).toBe(1);
    const partial = matchNames('A. OKAFOR', 'Amaka Okafor').score;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(1);
    expect(matchNames('Mickey Mouse', 'Amaka Okafor').score).toBe(0);
  });

  it('splits names into lower-case parts without accents, punctuation or titles', () => {
    expect(nameParts('  DR. Ọ́láolúwa  ADÉBÁYỌ̀-Okafor ')).toEqual(['olaoluwa', 'adebayo', 'okafor']);
    expect(nameParts('Chief')).toEqual(['chief']);
  });
});
