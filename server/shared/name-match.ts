import { jaroWinkler } from '@skyra/jaro-winkler';

/**
 * Whether a name (a bank's account name, a typed signature) is the borrower's name on record,
 * tolerant of how Nigerian names are actually written:
 *
 * - order does not matter: banks answer "SURNAME FIRSTNAME" ("ADEYEMI NGOZI" is Ngozi Adeyemi);
 * - extra names do not matter: "OKAFOR AMAKA CHIOMA" (a middle name) is Amaka Okafor;
 * - case, diacritics (Ọ́, Ẹ̀, ṣ), hyphens, dots and apostrophes do not matter;
 * - titles and honorifics (MR, MRS, DR, ALHAJI, CHIEF, …) are ignored;
 * - an initial stands for a name that starts with it, but only makes a `partial` match
 *   ("A. OKAFOR" may be Amaka Okafor, or her brother Ade);
 * - small spelling slips count as the same name (Jaro-Winkler similarity ≥ 0.9 and at most two
 *   letters longer or shorter: "NGOZIE" is Ngozi; "CHIDINMA" is not Chidi).
 *
 * Outcomes:
 * - `match`: every name of the shorter of the two (at least two names) is in the other in full;
 * - `partial`: at least one name matches in full and every other name of the shorter one matches
 *   by its initial; or only one name was given and it matches;
 * - `mismatch`: anything else, including a different first name with the same surname (a
 *   relative's account is exactly what the check is for).
 *
 * Pure: the widget runs the same function to warn before it submits (that is why it lives in
 * `server/shared`); the platform decides with it.
 */
export type NameMatchStatus = 'match' | 'partial' | 'mismatch';

export interface NameMatch {
  status: NameMatchStatus;
  /** 0–1, two decimals: the mean similarity of the shorter name's parts to their best partners (an initial that fits counts 0.5). */
  score: number;
}

/** Full-name similarity at or above this counts as the same name (Jaro-Winkler; typical typos score 0.93–0.98, different names below 0.85). */
export const SAME_NAME_SIMILARITY = 0.9;

/** Words that are not names: titles, honorifics and suffixes common on Nigerian bank records and signatures. */
const TITLES = new Set([
  'mr', 'mrs', 'miss', 'ms', 'mister', 'madam', 'master', 'dr', 'doctor', 'prof', 'professor', 'engr', 'eng', 'arc', 'barr', 'barrister',
  'pastor', 'rev', 'reverend', 'evang', 'bishop', 'apostle', 'prophet', 'sir', 'dame', 'lady', 'hon', 'honourable', 'chief', 'oba', 'otunba',
  'alhaji', 'alhaja', 'alh', 'hajia', 'hajiya', 'mallam', 'malam', 'imam', 'sheikh', 'jnr', 'jr', 'snr', 'sr', 'esq', 'mfr', 'ofr', 'oon', 'con',
]);

/** Lower-case name parts without diacritics, punctuation or titles. */
export function nameParts(name: string): string[] {
  const parts = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .split(/[^a-z]+/)
    .filter(Boolean);
  const names = parts.filter((part) => !TITLES.has(part));
  // "Chief" alone is still something the person typed: never compare an empty name.
  return names.length > 0 ? names : parts;
}

type Pairing = { full: number; initials: number; similarity: number };

/** Similarity of two name parts: 1 for the same name, 0.5 for an initial that fits, else Jaro-Winkler (full names only). */
function partSimilarity(a: string, b: string): { value: number; kind: 'full' | 'initial' | 'none' } {
  if (a.length === 1 || b.length === 1) return a[0] === b[0] ? { value: 0.5, kind: 'initial' } : { value: 0, kind: 'none' };
  const value = a === b ? 1 : jaroWinkler(a, b);
  // A slip changes a letter or two; a longer name that merely starts the same is another name (Chidi, Chidinma).
  const slip = Math.abs(a.length - b.length) <= 2;
  return { value, kind: value >= SAME_NAME_SIMILARITY && slip ? 'full' : 'none' };
}

/** Greedy best pairing of the shorter list's parts with distinct parts of the longer one (names have a handful of parts). */
function pair(shorter: string[], longer: string[]): Pairing {
  const candidates = shorter.flatMap((a, i) => longer.map((b, j) => ({ i, j, ...partSimilarity(a, b) })));
  candidates.sort((x, y) => (x.kind === 'full' ? 0 : x.kind === 'initial' ? 1 : 2) - (y.kind === 'full' ? 0 : y.kind === 'initial' ? 1 : 2) || y.value - x.value);
  const usedShort = new Set<number>();
  const usedLong = new Set<number>();
  const result: Pairing = { full: 0, initials: 0, similarity: 0 };
  for (const c of candidates) {
    if (usedShort.has(c.i) || usedLong.has(c.j)) continue;
    usedShort.add(c.i);
    usedLong.add(c.j);
    if (c.kind === 'full') result.full++;
    if (c.kind === 'initial') result.initials++;
    result.similarity += c.kind === 'none' ? 0 : c.value;
  }
  return result;
}

/** Compares `given` (an account name, a typed signature) with the borrower's `onRecord` name. */
export function matchNames(given: string, onRecord: string): NameMatch {
  const a = nameParts(given);
  const b = nameParts(onRecord);
  if (a.length === 0 || b.length === 0) return { status: 'mismatch', score: 0 };
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  const { full, initials, similarity } = pair(shorter, longer);
  const score = Math.round((similarity / shorter.length) * 100) / 100;
  const accounted = full + initials === shorter.length;
  const status: NameMatchStatus =
    full === shorter.length && (shorter.length >= 2 || longer.length === 1) ? 'match' : full >= 1 && accounted ? 'partial' : 'mismatch';
  return { status, score };
}
