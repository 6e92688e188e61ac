import { z } from 'zod';

/**
 * An organisation's quiet hours: no reminder is texted to a borrower between `start` and `end` (local wall-clock
 * `HH:MM` in `timeZone`, an IANA name); a reminder that falls due then waits until they end. `start` after `end`
 * spans midnight (the default, 21:00–08:00 Africa/Lagos); `start` equal to `end` means no quiet hours. Pure: the
 * time comes from the caller's clock.
 */
export interface QuietHours {
  start: string;
  end: string;
  timeZone: string;
}

export const DEFAULT_QUIET_HOURS: QuietHours = { start: '21:00', end: '08:00', timeZone: 'Africa/Lagos' };

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
export const QuietHoursTimeSchema = z.string().regex(HH_MM, 'a 24-hour time HH:MM, e.g. 21:00');
export const TimeZoneSchema = z
  .string()
  .max(64)
  .refine((zone) => isTimeZone(zone), 'an IANA time zone, e.g. Africa/Lagos');

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock fields of `at` in `timeZone`. */
export function localFields(at: Date, timeZone: string): { year: number; month: number; day: number; minutes: number } {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(at).map((p) => [p.type, p.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** How far `timeZone`'s wall clock is ahead of UTC at `at`, in ms (whole minutes). */
function offsetMs(at: Date, timeZone: string): number {
  const f = localFields(at, timeZone);
  const asUtc = Date.UTC(f.year, f.month - 1, f.day) + f.minutes * 60_000;
  return asUtc - Math.floor(at.getTime() / 60_000) * 60_000;
}

/** The instant the wall clock in `timeZone` reads `minutes` past midnight on the local day `dayOffset` days after `at`'s. */
export function localInstant(at: Date, timeZone: string, dayOffset: number, minutes: number): Date {
  const f = localFields(at, timeZone);
  const wall = Date.UTC(f.year, f.month - 1, f.day + dayOffset) + minutes * 60_000;
  // Twice: the offset at the target instant may differ from the offset now (a daylight-saving change between).
  let guess = wall - offsetMs(at, timeZone);
  guess = wall - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

/** Whether `at` is inside the quiet hours. */
export function inQuietHours(at: Date, quiet: QuietHours): boolean {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return false;
  const now = localFields(at, quiet.timeZone).minutes;
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/** `at` itself when it is outside the quiet hours, else the moment they end. */
export function firstSendableAt(at: Date, quiet: QuietHours): Date {
  if (!inQuietHours(at, quiet)) return at;
  const end = minutesOf(quiet.end);
  const now = localFields(at, quiet.timeZone).minutes;
  // Before the end on the same local day (the early-morning part), or the end on the next day (the evening part).
  return localInstant(at, quiet.timeZone, now < end ? 0 : 1, end);
}
