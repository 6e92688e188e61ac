import { isLocale, localeOfAcceptLanguage, type Locale } from '../../../shared/locales';

/** Everything that can name a borrower's (or a patient's) language, strongest first. */
export interface LocaleSignals {
  /** Picked by the borrower in this checkout session's language menu (`PUT /v1/checkout/language`). */
  sessionChoice?: string | null;
  /** The partner's `locale`: the widget's `locale` attribute on mount, or the session's (`POST /v1/loans/{id}/checkout-sessions`). */
  partnerLocale?: string | null;
  /** The borrower's pick saved from an earlier session (`borrowers.preferred_locale`). */
  savedChoice?: string | null;
  /** The browser's `Accept-Language`, as the checkout server forwarded it. */
  acceptLanguage?: string | null;
}

export type LocaleSource = 'session' | 'partner' | 'saved' | 'accept_language' | 'default';

/**
 * The one place the language of a text, an e-mail or a letter is decided:
 * the borrower's pick in this session, then the partner's `locale` (mount or session), then the
 * borrower's saved choice from an earlier session, then `Accept-Language`, then English.
 *
 * The requirement puts the partner's locale before the saved choice; a pick made on this page is the
 * borrower's own decision about what they are reading now, so it comes first (otherwise a partner
 * default of `en` would text an English code to a borrower reading the page in Yoruba). Values
 * that are not a shipped locale are skipped, never an error.
 */
export function negotiateLocale(signals: LocaleSignals): { locale: Locale; source: LocaleSource } {
  if (isLocale(signals.sessionChoice)) return { locale: signals.sessionChoice, source: 'session' };
  if (isLocale(signals.partnerLocale)) return { locale: signals.partnerLocale, source: 'partner' };
  if (isLocale(signals.savedChoice)) return { locale: signals.savedChoice, source: 'saved' };
  const accepted = localeOfAcceptLanguage(signals.acceptLanguage);
  if (accepted) return { locale: accepted, source: 'accept_language' };
  return { locale: 'en', source: 'default' };
}
