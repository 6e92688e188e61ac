/**
 * How many parts an SMS costs. A text entirely in the GSM 03.38 alphabet (GSM-7) fits 160
 * characters in one part (153 a part when concatenated; the extension characters `^{}\[~]|€`
 * count twice); one character outside it (a Yoruba ẹ, a Hausa ƙ, a "₦") makes the whole text
 * UCS-2: 70 UTF-16 code units in one part, 67 a part when concatenated. Combining tone marks are
 * code units too, so "ẹ́" costs two.
 */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENSION = '^{}\\[~]|€\f';
const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsMeasure {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
}

export function measureSms(text: string): SmsMeasure {
  const chars = [...text];
  if (chars.every((c) => BASIC.has(c) || EXTENSION.has(c))) {
    const units = chars.reduce((sum, c) => sum + (EXTENSION.has(c) ? 2 : 1), 0);
    return { encoding: 'GSM-7', units, segments: units <= 160 ? 1 : Math.ceil(units / 153) };
  }
  const units = text.length;
  return { encoding: 'UCS-2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}
