import { describe, expect, it } from 'vitest';
import { MEETING_EN, MEETING_TEXTS, meetingTexts, type MeetingKey } from '../../widget/meeting/meeting-texts';
import { placeholders } from '../../widget/i18n/tables';
import { MEETING_PAGE_EN, MEETING_PAGE_TEXTS, meetingPageText } from '../../server/shared/meeting-page-texts';
import { openingTime, renderMeetingPage } from '../../server/meeting/meeting-page';
import { meetingLocale } from '../../server/platform/domain/appointments/meeting-locale';
import type { MeetingSeat } from '../../server/platform/domain/appointments/meeting-access';

describe('the consultation page texts', () => {
  // The component's table (widget) and the server-rendered page's table (server/shared), by the same rules.
  it.each([
    ['<tm-meeting>', MEETING_EN, MEETING_TEXTS],
    ['the meeting page', MEETING_PAGE_EN, MEETING_PAGE_TEXTS],
  ] as Array<[string, Record<string, string>, Record<string, Record<string, string>>]>)('%s: every language translates every key, with the same placeholders as English, in Unicode NFC', (_name, english, tables) => {
    const keys = Object.keys(english);
    expect(Object.keys(tables).sort()).toEqual(['ha', 'ig', 'pcm', 'yo']);
    for (const [locale, table] of Object.entries(tables)) {
      expect(Object.keys(table).sort(), locale).toEqual([...keys].sort());
      for (const key of keys) {
        expect(table[key]!.trim().length, `${locale} ${key}`).toBeGreaterThan(0);
        expect(placeholders(table[key]!), `${locale} ${key}`).toBe(placeholders(english[key]!));
        expect(table[key], `${locale} ${key}`).toBe(table[key]!.normalize('NFC'));
        if (locale !== 'pcm') expect(table[key], `${locale} ${key} is translated`).not.toBe(english[key]);
      }
    }
  });

  it('the meeting page is written in each language\'s own letters', () => {
    const all = (locale: 'yo' | 'ha' | 'ig') => Object.values(MEETING_PAGE_TEXTS[locale]).join(' ');
    expect(all('yo')).toMatch(/[ẹọṣ]/u);
    expect(all('yo')).not.toMatch(/sh/);
    expect(all('ha')).toMatch(/[ɓɗƙƴ]/u);
    expect(all('ig')).toMatch(/[ịọụṅ]/u);
  });

  it('picks the participant language from a tag or the browser list, English last, and fills placeholders', () => {
    expect(meetingTexts('yo-NG').locale).toBe('yo');
    expect(meetingTexts(['fr-FR', 'ha']).locale).toBe('ha');
    expect(meetingTexts(undefined).locale).toBe('en');
    expect(meetingTexts('ig').t('count', { count: 3 })).toBe('Mmadụ 3 nọ na oku ahụ');
    expect(meetingTexts('en').t('with', { names: 'Dr Bakare' })).toBe('Consultation with Dr Bakare');
    expect(meetingTexts('yo').t('join')).toBe(MEETING_TEXTS.yo.join);
  });
});

describe('the meeting page\'s language', () => {
  const seat = (role: string, own: string | null, appointment: string | null) =>
    ({ participant: { role, locale: own }, appointment: { locale: appointment } }) as unknown as MeetingSeat;

  it("is the participant's own, else a patient's appointment's, else Accept-Language, else English; values not shipped are skipped", () => {
    expect(meetingLocale(seat('patient', 'ha', 'yo'), 'ig')).toEqual({ locale: 'ha', source: 'participant' });
    expect(meetingLocale(seat('patient', null, 'yo'), 'ig')).toEqual({ locale: 'yo', source: 'appointment' });
    expect(meetingLocale(seat('patient', 'fr', 'xx'), 'fr-FR, ig;q=0.5')).toEqual({ locale: 'ig', source: 'accept_language' });
    expect(meetingLocale(seat('patient', null, null), 'fr-FR')).toEqual({ locale: 'en', source: 'default' });
    // The appointment's locale is the patient's language: the doctor's page follows the doctor.
    expect(meetingLocale(seat('doctor', null, 'yo'), 'en-GB,en')).toEqual({ locale: 'en', source: 'accept_language' });
    expect(meetingLocale(seat('doctor', 'pcm', 'yo'), null)).toEqual({ locale: 'pcm', source: 'participant' });
    // No seat (a key that names nothing): the browser only.
    expect(meetingLocale(null, 'yo-NG,en;q=0.8')).toEqual({ locale: 'yo', source: 'accept_language' });
    expect(meetingLocale(null, undefined)).toEqual({ locale: 'en', source: 'default' });
  });

  it('writes the opening time in 24 hours with its zone, and the day with the month named in the language', () => {
    // 14:05 UTC is 15:05 in Lagos (WAT, UTC+1), and already the next day near midnight.
    expect(openingTime('2026-11-27T14:05:00.000Z', 'en')).toEqual({ time: '15:05 WAT (UTC+1)', date: '27 November 2026' });
    expect(openingTime('2026-11-27T23:30:00.000Z', 'en').date).toBe('28 November 2026');
    expect(openingTime('2026-11-27T14:05:00.000Z', 'yo').date).toMatch(/^27 .*Bélú 2026$/u);
    expect(openingTime('2026-11-27T14:05:00.000Z', 'ha').date).toMatch(/^27 Nuwamba,? 2026$/u);
    expect(openingTime('2026-11-27T14:05:00.000Z', 'ig').date).toMatch(/^27 Novemba 2026$/u);
  });

  it('renders every state in the language, with <html lang> and, when ready, <tm-meeting locale>', () => {
    for (const locale of ['en', 'pcm', 'yo', 'ha', 'ig'] as const) {
      for (const state of ['invalid', 'too_early', 'ended', 'cancelled'] as const) {
        const html = renderMeetingPage(state, { locale, opensAt: '2026-11-27T14:05:00.000Z' });
        expect(html, `${locale} ${state}`).toContain(`<html lang="${locale}">`);
        expect(html, `${locale} ${state}`).toContain(`<h1>${meetingPageText(locale, `${state}.title`)}</h1>`);
        expect(html, `${locale} ${state}`).toContain(meetingPageText(locale, `${state}.body`));
        expect(html).not.toContain('tm-meeting');
      }
      const ready = renderMeetingPage('ready', { locale });
      expect(ready).toContain(`<html lang="${locale}">`);
      expect(ready).toContain(`<tm-meeting api="/meet/api" signalling="/meet/ws" locale="${locale}">`);
      expect(ready).toContain(`<title>${meetingPageText(locale, 'ready.title')}</title>`);
    }
    expect(renderMeetingPage('too_early', { locale: 'yo', opensAt: '2026-11-27T14:05:00.000Z' })).toMatch(/Ó máa ṣí ní 15:05 WAT \(UTC\+1\), ní ọjọ́ 27 .*Bélú 2026\./u);
    expect(renderMeetingPage('too_early', { locale: 'en', opensAt: '2026-11-27T14:05:00.000Z' })).toContain('It opens at 15:05 WAT (UTC+1) on 27 November 2026.');
  });
});
