import type { PricedInstalment } from './types';

/** A UTC day is always 86 400 000 ms in JS time (no DST, no leap seconds). */
const DAY_MS = 86_400_000;

/** Due dates as ISO strings: start (a Date) + dayOffset days, at the same UTC time of day. */
export function dueDates(start: Date, instalments: readonly Pick<PricedInstalment, 'dayOffset'>[]): string[] {
  const startMs = start.getTime();
  if (Number.isNaN(startMs)) throw new RangeError('dueDates: start is an invalid Date');
  return instalments.map((instalment) => new Date(startMs + instalment.dayOffset * DAY_MS).toISOString());
}
