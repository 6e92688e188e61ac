import { describe, expect, it } from 'vitest';
import { MEETING_EN, MEETING_TEXTS, meetingTexts, type MeetingKey } from '../../widget/meeting/meeting-texts';
import { placeholders } from '../../widget/i18n/tables';

describe('the consultation page texts', () => {
  it('every language translates every key, with the same placeholders as English, in Unicode NFC', () => {
    const keys = Object.keys(MEETING_EN) as MeetingKey[];
    expect(Object.keys(MEETING_TEXTS).sort()).toEqual(['ha', 'ig', 'pcm', 'yo']);
    for (const [locale, table] of Object.entries(MEETING_TEXTS)) {
      expect(Object.keys(table).sort(), locale).toEqual([...keys].sort());
      for (const key of keys) {
        expect(table[key].trim().length, `${locale} ${key}`).toBeGreaterThan(0);
        expect(placeholders(table[key]), `${locale} ${key}`).toBe(placeholders(MEETING_EN[key]));
        expect(table[key], `${locale} ${key}`).toBe(table[key].normalize('NFC'));
      }
    }
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
