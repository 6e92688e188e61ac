/**
 * Display formatting for offer letters. Amounts are integer kobo and rates integer basis points;
 * everything here is exact string work on integers, never float arithmetic, so a letter always
 * shows the same figures the ledger holds.
 */

function assertWholeNonNegative(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a non-negative safe integer, got ${value}`);
  }
}

/** `123456` → `"1,234.56"`: integer kobo as grouped naira with two decimals. */
export function formatKoboAmount(kobo: number): string {
  assertWholeNonNegative(kobo, 'kobo amount');
  const digits = String(kobo).padStart(3, '0');
  const naira = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${naira}.${digits.slice(-2)}`;
}

/** `123456` → `"₦1,234.56"`. For screens, e-mails and SMS; not for the PDF (see formatNairaPdf). */
export function formatNaira(kobo: number): string {
  return `₦${formatKoboAmount(kobo)}`;
}

/**
 * `123456` → `"NGN 1,234.56"`. The PDF uses pdfkit's built-in Helvetica, whose WinAnsi encoding
 * has no "₦" glyph, so the letter writes the ISO code instead.
 */
export function formatNairaPdf(kobo: number): string {
  return `NGN ${formatKoboAmount(kobo)}`;
}

/** `2550` bps → `"25.50%"`. */
export function formatBpsPercent(bps: number): string {
  assertWholeNonNegative(bps, 'basis points');
  return `${Math.floor(bps / 100)}.${String(bps % 100).padStart(2, '0')}%`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTHS_LONG = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** West Africa Time is UTC+1 all year (no daylight saving), so a fixed offset is exact. */
const WAT_OFFSET_MS = 60 * 60 * 1000;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseInstant(iso: string, what: string): Date {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`${what} is not an ISO date-time: ${iso}`);
  return date;
}

/** Wall-clock fields in Lagos for an instant. */
function lagosFields(iso: string, what: string): { year: number; month: number; day: number; hh: string; mm: string; ss: string } {
  const wat = new Date(parseInstant(iso, what).getTime() + WAT_OFFSET_MS);
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    year: wat.getUTCFullYear(),
    month: wat.getUTCMonth(),
    day: wat.getUTCDate(),
    hh: pad(wat.getUTCHours()),
    mm: pad(wat.getUTCMinutes()),
    ss: pad(wat.getUTCSeconds()),
  };
}

/**
 * A due date as `"5 Mar 2025"`. A calendar date (`YYYY-MM-DD`) is printed as written; a full
 * date-time is read as the calendar day in Lagos.
 */
export function formatDueDate(value: string): string {
  const match = CALENDAR_DATE.exec(value);
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const check = new Date(Date.UTC(year, month - 1, day));
    if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) throw new RangeError(`due date does not exist: ${value}`);
    return `${day} ${MONTHS[month - 1]} ${match[1]}`;
  }
  const { year, month, day } = lagosFields(value, 'due date');
  return `${day} ${MONTHS[month]} ${year}`;
}

/** An instant as `"5 March 2025"` in Lagos. */
export function formatLongDate(iso: string): string {
  const { year, month, day } = lagosFields(iso, 'date');
  return `${day} ${MONTHS_LONG[month]} ${year}`;
}

/**
 * The letter's date in its language, as the checkout writes dates: `"5 March 2025"` in English and
 * Pidgin, digits (`"05/03/2025"`) in Yorùbá, Hausa and Igbo, never an English month in their text.
 */
export function formatLetterDate(iso: string, locale: string): string {
  if (locale === 'en' || locale === 'pcm') return formatLongDate(iso);
  const { year, month, day } = lagosFields(iso, 'date');
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(day)}/${pad(month + 1)}/${year}`;
}

/** An instant as `"5 March 2025, 14:05:09 WAT"`. */
export function formatDateTimeWat(iso: string): string {
  const { year, month, day, hh, mm, ss } = lagosFields(iso, 'date-time');
  return `${day} ${MONTHS_LONG[month]} ${year}, ${hh}:${mm}:${ss} WAT`;
}

/** The instant itself, for the PDF's `CreationDate`. */
export function instantOf(iso: string, what: string): Date {
  return parseInstant(iso, what);
}

const FREQUENCY_LABELS: Record<string, string> = {
  daily: 'Daily',
  weekly: 'Weekly',
  biweekly: 'Every two weeks',
  monthly: 'Monthly',
};

export function formatRepaymentFrequency(frequency: string): string {
  return FREQUENCY_LABELS[frequency] ?? frequency;
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** Unicode code points outside Latin-1 that WinAnsiEncoding still carries (€, ‘’ “”, – —, …). */
const WIN_ANSI_EXTRAS = new Set([
  0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c,
  0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);

function isWinAnsi(code: number): boolean {
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(code);
}

/**
 * Makes text drawable with the built-in fonts, which would otherwise print garbage for characters
 * outside WinAnsi. A letter keeps the marks WinAnsi can show and loses the others (Yoruba "ọ̀"
 * → "ò", "ẹ" → "e"; "é" stays); anything else becomes "?"; control characters become spaces.
 */
export function toWinAnsi(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  let out = '';
  // One base character with its combining marks at a time, decomposed.
  for (const cluster of text.normalize('NFD').match(/\P{M}\p{M}*|\p{M}+/gu) ?? []) {
    const composed = cluster.normalize('NFC');
    if (composed.length === 1 && isWinAnsi(composed.charCodeAt(0))) {
      out += composed;
      continue;
    }
    const [base = '', ...marks] = [...cluster];
    const code = base.codePointAt(0) ?? 0;
    if (/\p{M}/u.test(base)) continue;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) {
      out += ' ';
      continue;
    }
    if (!isWinAnsi(code)) {
      out += '?';
      continue;
    }
    let kept = base;
    for (const mark of marks) {
      const candidate = (kept + mark).normalize('NFC');
      if (candidate.length === 1 && isWinAnsi(candidate.charCodeAt(0))) kept = candidate;
    }
    out += kept;
  }
  return out;
}
