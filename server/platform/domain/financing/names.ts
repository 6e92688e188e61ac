/**
 * Name matching for the patient's identity, pure. Names are compared after normalisation: Unicode compatibility
 * form, accents removed, lower case, anything but letters dropped (so `Adé-Ọlá` and `ADE OLA`'s parts compare equal).
 */
export function normaliseNamePart(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}]/gu, '');
}

/** `"  Ada  Ngozi Obi "` → `{firstName: 'Ada', lastName: 'Ngozi Obi'}`; null without at least two words. */
export function splitFullName(fullName: string): { firstName: string; lastName: string } | null {
  const words = fullName.trim().split(/\s+/).filter((w) => normaliseNamePart(w).length > 0);
  if (words.length < 2) return null;
  return { firstName: words[0]!, lastName: words.slice(1).join(' ') };
}

/**
 * Whether the full name the patient typed is the person the partner named: the partner's first name (which may
 * itself be several words, e.g. "Mary Jane") must equal the typed name's leading words. Case, accents, hyphens and
 * spacing do not matter; a different first name does.
 */
export function firstNameAgrees(partnerFirstName: string, typedFullName: string): boolean {
  const expected = partnerFirstName.trim().split(/\s+/).map(normaliseNamePart).filter(Boolean);
  const typed = typedFullName.trim().split(/\s+/).map(normaliseNamePart).filter(Boolean);
  if (expected.length === 0 || typed.length <= expected.length) return false;
  return expected.every((part, i) => typed[i] === part);
}
