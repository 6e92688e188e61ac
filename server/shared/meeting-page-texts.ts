import type { Locale } from './locales';

/**
 * The meeting page's own texts, rendered by the server around `<tm-meeting>` (`server/meeting/meeting-page.ts`):
 * the page's title while the component loads, and the states that open nothing (a link that is not valid, a
 * meeting not open yet, ended, cancelled). The same rules as the component's table
 * (`widget/meeting/meeting-texts.ts`) and the checkout's: English is the source, `{name}` placeholders are
 * the same in every language, every language translates every key, Unicode NFC (`test/unit/meeting-texts.test.ts`
 * checks both tables). Yorùbá, Hausa and Igbo are machine-assisted pending native review, with the terms of
 * docs/languages/. `{time}` is the opening time with its zone (`15:05 WAT (UTC+1)`), `{date}` the day in the
 * page's language.
 */
export const MEETING_PAGE_EN = {
  'ready.title': 'Your consultation',
  'ready.body': 'Loading the meeting…',
  'invalid.title': 'This meeting link is not valid',
  'invalid.body': 'Check that you opened the whole link you were sent, or ask the clinic for a new one.',
  'too_early.title': 'This meeting has not opened yet',
  'too_early.body': 'Open the link again a few minutes before your appointment.',
  'too_early.opensAt': 'It opens at {time} on {date}.',
  'ended.title': 'This meeting has ended',
  'ended.body': 'The consultation is over. The clinic will share your summary and any prescription.',
  'cancelled.title': 'This appointment was cancelled',
  'cancelled.body': 'Contact the clinic to book another time.',
} as const;

export type MeetingPageKey = keyof typeof MEETING_PAGE_EN;

export const MEETING_PAGE_TEXTS: Record<Exclude<Locale, 'en'>, Record<MeetingPageKey, string>> = {
  pcm: {
    'ready.title': 'Your consultation',
    'ready.body': 'We dey load di meeting…',
    'invalid.title': 'Dis meeting link no correct',
    'invalid.body': 'Check say you open di whole link wey dem send you, or ask di clinic make dem give you new one.',
    'too_early.title': 'Dis meeting never open',
    'too_early.body': 'Open di link again some minutes before your appointment.',
    'too_early.opensAt': 'E go open for {time} on {date}.',
    'ended.title': 'Dis meeting don end',
    'ended.body': 'Di consultation don finish. Di clinic go share your summary and any prescription with you.',
    'cancelled.title': 'Dem don cancel dis appointment',
    'cancelled.body': 'Contact di clinic make you book another time.',
  },
  yo: {
    'ready.title': 'Ìjíròrò yín',
    'ready.body': 'À ń ṣí ìpàdé náà…',
    'invalid.title': 'Ìjápọ̀ ìpàdé yìí kò tọ́',
    'invalid.body': 'Ẹ rí i dájú pé ẹ ṣí gbogbo ìjápọ̀ tí a fi ránṣẹ́ sí yín, tàbí kí ẹ béèrè ìjápọ̀ tuntun lọ́wọ́ ilé-ìwòsàn.',
    'too_early.title': 'Ìpàdé yìí kò tíì ṣí',
    'too_early.body': 'Ẹ ṣí ìjápọ̀ náà lẹ́ẹ̀kan síi ní ìṣẹ́jú díẹ̀ ṣáájú àkókò àdéhùn yín.',
    'too_early.opensAt': 'Ó máa ṣí ní {time}, ní ọjọ́ {date}.',
    'ended.title': 'Ìpàdé yìí ti parí',
    'ended.body': 'Ìjíròrò náà ti parí. Ilé-ìwòsàn yóò fi àkópọ̀ àti ìwé oògùn èyíkéyìí ránṣẹ́ sí yín.',
    'cancelled.title': 'A ti fagilé àdéhùn yìí',
    'cancelled.body': 'Ẹ kàn sí ilé-ìwòsàn láti yan àkókò míì.',
  },
  ha: {
    'ready.title': 'Ganawarku',
    'ready.body': 'Ana buɗe taron…',
    'invalid.title': 'Wannan mahaɗar taro ba ta da inganci',
    'invalid.body': 'Ku tabbata kun buɗe dukan mahaɗar da aka aiko muku, ko ku nemi sabuwa daga asibiti.',
    'too_early.title': 'Ba a buɗe wannan taro ba tukuna',
    'too_early.body': 'Ku sake buɗe mahaɗar ƴan mintuna kafin lokacin alƙawarinku.',
    'too_early.opensAt': 'Za a buɗe shi da ƙarfe {time}, ranar {date}.',
    'ended.title': 'Wannan taro ya ƙare',
    'ended.body': 'Ganawar ta ƙare. Asibiti zai aiko muku da taƙaitawa da duk wata takardar magani.',
    'cancelled.title': 'An soke wannan alƙawari',
    'cancelled.body': 'Ku tuntuɓi asibiti don sanya wani lokaci.',
  },
  ig: {
    'ready.title': 'Ndụmọdụ gị',
    'ready.body': 'A na-emeghe nzukọ ahụ…',
    'invalid.title': 'Njikọ nzukọ a ezighi ezi',
    'invalid.body': 'Lelee ma ị meghere njikọ ahụ niile e zitere gị, ma ọ bụ rịọ ụlọ ọgwụ ka ha nye gị nke ọhụrụ.',
    'too_early.title': 'Nzukọ a emepebeghị',
    'too_early.body': 'Meghee njikọ ahụ ọzọ nkeji ole na ole tupu oge ndụmọdụ gị.',
    'too_early.opensAt': 'Ọ ga-emepe n’elekere {time}, na {date}.',
    'ended.title': 'Nzukọ a agwụla',
    'ended.body': 'Ndụmọdụ ahụ agwụla. Ụlọ ọgwụ ga-ezitere gị nchịkọta ya na akwụkwọ ọgwụ ọ bụla.',
    'cancelled.title': 'A kagburu oge ndụmọdụ a',
    'cancelled.body': 'Kpọtụrụ ụlọ ọgwụ ka ị họrọ oge ọzọ.',
  },
};

/** The page's texts in `locale`, with `{name}` placeholders filled in (NFC). */
export function meetingPageText(locale: Locale, key: MeetingPageKey, params?: Record<string, string>): string {
  const template: string = locale === 'en' ? MEETING_PAGE_EN[key] : MEETING_PAGE_TEXTS[locale][key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (params && name in params ? params[name]! : whole)).normalize('NFC');
}
