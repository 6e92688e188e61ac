import type { Locale } from './locales';

/**
 * The texts of the page a browser lands on when a signed link of the checkout no longer works (the
 * offer letter's link, opened after its minutes ran out or cut short when copied): never the API's
 * JSON, always words in the borrower's language and a way forward. The same rules as the checkout's
 * tables (`widget/i18n/`): English is the source, the `{placeholders}` are the same in every language,
 * every language translates every key, Unicode NFC (`test/unit/link-page-texts.test.ts`). The name of
 * the button in `next` is the checkout's own (`offer.letter`) in that language. Yorùbá, Hausa and Igbo
 * are machine-assisted pending native review, with the terms of docs/languages/.
 */
export const LINK_PAGE_EN = {
  'expired.title': 'This link to your offer letter has expired',
  'expired.body': 'For your safety, a link to the letter works for a few minutes only.',
  'invalid.title': 'This link to your offer letter does not work',
  'invalid.body': 'The link may have been cut short when it was copied.',
  next: 'Go back to your loan checkout and tap “Read the full offer letter (PDF)” again: it opens the letter with a new link.',
  contact: 'Questions about your loan? Contact {lender}:',
  securedBy: 'Secured by {platform}',
} as const;

export type LinkPageKey = keyof typeof LINK_PAGE_EN;

export const LINK_PAGE_TEXTS: Record<Exclude<Locale, 'en'>, Record<LinkPageKey, string>> = {
  pcm: {
    'expired.title': 'Di link to your offer letter don expire',
    'expired.body': 'To keep you safe, di link to di letter dey work for only small minutes.',
    'invalid.title': 'Di link to your offer letter no dey work',
    'invalid.body': 'Maybe di link cut when dem copy am.',
    next: 'Go back to your loan checkout and tap “Read di full offer letter (PDF)” again: e go open di letter with new link.',
    contact: 'You get question about your loan? Contact {lender}:',
    securedBy: '{platform} dey protect am',
  },
  yo: {
    'expired.title': 'Ìjápọ̀ sí lẹ́tà àbá yín ti dópin',
    'expired.body': 'Fún ààbò yín, ìjápọ̀ sí lẹ́tà náà máa ń ṣiṣẹ́ fún ìṣẹ́jú díẹ̀ péré.',
    'invalid.title': 'Ìjápọ̀ sí lẹ́tà àbá yín kò ṣiṣẹ́',
    'invalid.body': 'Ó ṣeé ṣe kí ìjápọ̀ náà ti gé kúrú nígbà tí wọ́n ṣe àdàkọ rẹ̀.',
    next: 'Ẹ padà sí ojú-ìwé ẹ̀yáwó yín kí ẹ tẹ “Ka lẹ́tà àbá náà ní kíkún (PDF)” lẹ́ẹ̀kan síi: yóò ṣí lẹ́tà náà pẹ̀lú ìjápọ̀ tuntun.',
    contact: 'Ṣé ẹ ní ìbéèrè nípa ẹ̀yáwó yín? Ẹ kàn sí {lender}:',
    securedBy: '{platform} ló ń dáàbò bò ó',
  },
  ha: {
    'expired.title': 'Mahaɗar wasiƙar tayinku ta ƙare',
    'expired.body': 'Domin tsaronku, mahaɗar wasiƙar tana aiki na ‘yan mintuna kaɗan kawai.',
    'invalid.title': 'Mahaɗar wasiƙar tayinku ba ta aiki',
    'invalid.body': 'Wataƙila mahaɗar ta yanke lokacin da aka kwafe ta.',
    next: 'Ku koma shafin rancenku ku sake danna “Karanta cikakkiyar wasiƙar tayin (PDF)”: zai buɗe wasiƙar da sabuwar mahaɗa.',
    contact: 'Kuna da tambaya game da rancenku? Ku tuntuɓi {lender}:',
    securedBy: '{platform} ne ke kare shi',
  },
  ig: {
    'expired.title': 'Njikọ gaa n’akwụkwọ ozi onyinye gị agwụla',
    'expired.body': 'Maka nchekwa gị, njikọ gaa n’akwụkwọ ozi ahụ na-arụ ọrụ naanị nkeji ole na ole.',
    'invalid.title': 'Njikọ gaa n’akwụkwọ ozi onyinye gị anaghị arụ ọrụ',
    'invalid.body': 'Ọ ga-abụ na njikọ ahụ bekasịrị mgbe e depụtara ya.',
    next: 'Laghachi na ibe mbinye ego gị ma pịa “Gụọ akwụkwọ ozi onyinye ahụ niile (PDF)” ọzọ: ọ ga-emeghe akwụkwọ ozi ahụ site na njikọ ọhụrụ.',
    contact: 'Ị nwere ajụjụ gbasara mbinye ego gị? Kpọtụrụ {lender}:',
    securedBy: '{platform} na-echekwa ya',
  },
};

/** A text in `locale` with its `{placeholders}` filled in (a missing one stays visible). */
export function linkPageText(locale: Locale, key: LinkPageKey, params: Record<string, string> = {}): string {
  const template: string = locale === 'en' ? LINK_PAGE_EN[key] : LINK_PAGE_TEXTS[locale][key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
}
