import { describe, expect, it } from 'vitest';
import { matchNames, nameParts, nameScripts } from '../../server/shared/name-match';

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

  it.each([
    // Look-alike letters of another script: never a match, whatever they look like.
    ['Ad\u0430 Ob\u0456', 'Ada Obi', 'mismatch'], // Cyrillic а and і in Latin words
    ['Ada Obi', 'Ad\u0430 Ob\u0456', 'mismatch'], // the same, on record
    ['\u0391da Obi', 'Ada Obi', 'mismatch'], // a Greek capital alpha
    ['Ada \u041e\u0431\u0456', 'Ada Obi', 'mismatch'], // one word all Cyrillic, one Latin
    ['\u041e\u0440\u0430 Ada', 'Opa Ada', 'mismatch'], // a whole word that only looks Latin (Ора)
    ['\u041e\u0440\u0430 \u0410\u0434\u0430', 'Opa Ada', 'mismatch'], // a whole name in another script than the one on record
    ['\u0645\u062d\u0645\u062f \u0639\u0644\u064a', 'Muhammad Ali', 'mismatch'], // letters the matcher cannot compare with the record's
    ['\u0645\u062d\u0645\u062f', 'Muhammad', 'mismatch'],
    // One script, compared letter by letter: nothing is dropped.
    ['\u041e\u0440\u0430 \u0410\u0434\u0430', '\u0410\u0434\u0430 \u041e\u0440\u0430', 'match'],
    ['\u5c71\u7530 \u592a\u90ce', '\u592a\u90ce \u5c71\u7530', 'match'],
    // Latin letters without a decomposition fold to the letter they are drawn from.
    ['\u018aANJUMA \u0181ELLO', 'Danjuma Bello', 'match'], // Hausa hooked Ɗ and Ɓ
    ['\u0198abiru \u01b3akubu', 'Kabiru Yakubu', 'match'], // Hausa Ƙ and Ƴ
    ['\u00d8degaard Ola', 'Odegaard Ola', 'match'],
    ['\uff21\uff44\uff41 Obi', 'Ada Obi', 'match'], // fullwidth Latin
    ['\u1eccl\u00e1b\u00eds\u00ed Ad\u00e9b\u00e1y\u1ecd\u0300', 'Olabisi Adebayo', 'match'], // Ọlábísí Adébáyọ̀
    ['\u1ecc\u0300k\u00e0f\u1ecd\u0300r \u1ecc\u0300n\u1ee5\u0300', 'Okafor Onu', 'match'], // Igbo dots below
  ])('%s vs %s on record → %s', (given, onRecord, expected) => {
    expect(matchNames(given, onRecord).status).toBe(expected);
  });

  it('scores a look-alike name 0, never the similarity its letters only appear to have', () => {
    expect(matchNames('Ad\u0430 Ob\u0456', 'Ada Obi')).toEqual({ status: 'mismatch', score: 0 });
  });

  it('resolves the script of a name (empty when it mixes scripts)', () => {
    expect(nameScripts('\u1ecc\u0301l\u00e1 Ad\u00e9')).toEqual(new Set(['Latin']));
    expect(nameScripts('Ad\u0430')).toEqual(new Set());
    expect(nameScripts('12345')).toBeUndefined();
    expect(nameScripts('\u7530\u4e2d \u3055\u304f\u3089')).toEqual(new Set(['Jpan']));
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
