/**
 * The languages the platform ships, shared by the server (texts, e-mails, letters, the meeting
 * page) and the checkout. The widget's `widget/i18n/i18n.ts` lists the same tags (a unit test
 * keeps the two equal).
 */
export const LOCALES = ['en', 'pcm', 'yo', 'ha', 'ig'] as const;
export type Locale = (typeof LOCALES)[number];

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** `yo-NG` → `yo`; a tag of a language not shipped → null. */
export function localeOfTag(tag: string): Locale | null {
  const language = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return isLocale(language) ? language : null;
}

/**
 * The first shipped language of an `Accept-Language` header, by q-value (then order); `*`, unknown
 * tags and `q=0` are skipped. Null when none is shipped.
 */
export function localeOfAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(',')
    .slice(0, 32)
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      const weight = q === undefined ? 1 : Number(q);
      return { locale: localeOfTag(tag), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.locale !== null && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked[0]?.locale ?? null;
}
