import { describe, expect, it } from 'vitest';
import { negotiateLocale } from '../../server/platform/domain/languages/negotiate-locale';
import { localeOfAcceptLanguage } from '../../server/shared/locales';

describe('negotiateLocale', () => {
  it('when nothing names a language, then English', () => {
    expect(negotiateLocale({})).toEqual({ locale: 'en', source: 'default' });
  });

  it('when the borrower picked a language in this session, then it wins over everything else', () => {
    expect(negotiateLocale({ sessionChoice: 'yo', partnerLocale: 'ha', savedChoice: 'ig', acceptLanguage: 'pcm' })).toEqual({ locale: 'yo', source: 'session' });
  });

  it('then the partner locale (mount or session) over the saved choice and the browser', () => {
    expect(negotiateLocale({ partnerLocale: 'ha', savedChoice: 'ig', acceptLanguage: 'pcm' })).toEqual({ locale: 'ha', source: 'partner' });
  });

  it('then the choice saved from an earlier session over the browser', () => {
    expect(negotiateLocale({ savedChoice: 'ig', acceptLanguage: 'yo-NG' })).toEqual({ locale: 'ig', source: 'saved' });
  });

  it('then Accept-Language', () => {
    expect(negotiateLocale({ acceptLanguage: 'fr-FR, yo-NG;q=0.8, en;q=0.5' })).toEqual({ locale: 'yo', source: 'accept_language' });
  });

  it('skips values that are not a shipped locale instead of failing', () => {
    expect(negotiateLocale({ sessionChoice: 'fr', partnerLocale: 'YO', savedChoice: '', acceptLanguage: 'de' })).toEqual({ locale: 'en', source: 'default' });
  });
});

describe('localeOfAcceptLanguage', () => {
  it.each([
    ['ha-NG,ha;q=0.9,en-US;q=0.8', 'ha'],
    ['en;q=0.4, ig;q=0.9', 'ig'],
    ['yo;q=0, en', 'en'],
    ['*', null],
    ['fr, de', null],
    ['', null],
    [';;;,q=', null],
  ])('%j → %j', (header, locale) => {
    expect(localeOfAcceptLanguage(header)).toBe(locale);
  });
});
