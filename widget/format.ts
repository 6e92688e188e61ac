import { currentLocale } from './i18n/i18n';

/** Display formatting only: amounts stay integer kobo everywhere else. */
const naira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', minimumFractionDigits: 2 });

export const formatKobo = (kobo: number) => naira.format(kobo / 100);

const wholeNaira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', maximumFractionDigits: 0 });
/** A headline amount: `₦43,750` when it is whole naira, else with its kobo (`₦43,750.50`). */
export const formatKoboShort = (kobo: number) => (kobo % 100 ? naira : wholeNaira).format(kobo / 100);

export const formatBps = (bps: number) => `${(bps / 100).toLocaleString('en-NG', { maximumFractionDigits: 2 })}%`;

/**
 * A due date: `27 Nov 2026` in English and Pidgin, digits (`27/11/2026`, `07/02/2027`) in Yorùbá, Hausa and Igbo,
 * never an English month inside another language (browsers' `Intl` mostly lacks these three
 * languages' month names, and would fall back to English ones).
 */
export const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-NG', { day: 'numeric', month: /^(en|pcm)$/.test(currentLocale()) ? 'short' : 'numeric', year: 'numeric', timeZone: 'UTC' });

/** `"150,000.50"` → 15000050 kobo, by string arithmetic (no floats); null unless a positive amount with at most 2 decimals. */
export function parseNairaToKobo(text: string): number | null {
  const cleaned = text.trim().replace(/[,\s₦]/g, '');
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  const kobo = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return kobo > 0 && Number.isSafeInteger(kobo) ? kobo : null;
}
