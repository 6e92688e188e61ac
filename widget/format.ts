/** Display formatting only: amounts stay integer kobo everywhere else. */
const naira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', minimumFractionDigits: 2 });

export const formatKobo = (kobo: number) => naira.format(kobo / 100);

const wholeNaira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', maximumFractionDigits: 0 });
/** A headline amount: `₦43,750` when it is whole naira, else with its kobo (`₦43,750.50`). */
export const formatKoboShort = (kobo: number) => (kobo % 100 ? naira : wholeNaira).format(kobo / 100);

export const formatBps = (bps: number) => `${(bps / 100).toLocaleString('en-NG', { maximumFractionDigits: 2 })}%`;

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/**
 * A due date in the borrower's language (`currentLocale()` from the i18n module, passed in so the
 * dashboard's use stays English without loading the texts): `27 Nov 2026` in English and Pidgin, the
 * month named in full in Yorùbá, Hausa and Igbo (`27 Oṣù Bélú 2026`), and digits (`27/11/2026`) when
 * the browser does not know the language, never an English month inside another language.
 */
export function formatDate(iso: string, locale = 'en'): string {
  let format = dateFormats.get(locale);
  if (!format) {
    const tag = locale === 'en' || locale === 'pcm' ? 'en-NG' : `${locale}-NG`;
    const known = tag === 'en-NG' || Intl.DateTimeFormat.supportedLocalesOf(tag).length > 0;
    format = known
      ? new Intl.DateTimeFormat(tag, { day: 'numeric', month: tag === 'en-NG' ? 'short' : 'long', year: 'numeric', timeZone: 'UTC' })
      : new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' });
    dateFormats.set(locale, format);
  }
  return format.format(new Date(iso));
}

/** `"150,000.50"` → 15000050 kobo, by string arithmetic (no floats); null unless a positive amount with at most 2 decimals. */
export function parseNairaToKobo(text: string): number | null {
  const cleaned = text.trim().replace(/[,\s₦]/g, '');
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  const kobo = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return kobo > 0 && Number.isSafeInteger(kobo) ? kobo : null;
}
