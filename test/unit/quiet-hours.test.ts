import { describe, expect, it } from 'vitest';
import { TenantSettingsSchema } from '../../server/platform/domain/organisations/organisation';
import { DEFAULT_QUIET_HOURS, firstSendableAt, inQuietHours, isTimeZone, localInstant } from '../../server/platform/domain/organisations/quiet-hours';

/** Lagos is UTC+1 all year: 21:00–08:00 Lagos is 20:00–07:00 UTC. */
describe('quiet hours', () => {
  it('the default spans midnight in Lagos: 20:59 UTC is quiet, 19:59 and 07:00 UTC are not', () => {
    expect(inQuietHours(new Date('2026-05-04T19:59:00Z'), DEFAULT_QUIET_HOURS)).toBe(false);
    expect(inQuietHours(new Date('2026-05-04T20:00:00Z'), DEFAULT_QUIET_HOURS)).toBe(true);
    expect(inQuietHours(new Date('2026-05-05T06:59:00Z'), DEFAULT_QUIET_HOURS)).toBe(true);
    expect(inQuietHours(new Date('2026-05-05T07:00:00Z'), DEFAULT_QUIET_HOURS)).toBe(false);
  });

  it('a time inside them waits until they end: the evening part to the next morning, the early part to the same morning', () => {
    expect(firstSendableAt(new Date('2026-05-04T22:30:00Z'), DEFAULT_QUIET_HOURS).toISOString()).toBe('2026-05-05T07:00:00.000Z');
    expect(firstSendableAt(new Date('2026-05-04T23:30:00Z'), DEFAULT_QUIET_HOURS).toISOString()).toBe('2026-05-05T07:00:00.000Z');
    expect(firstSendableAt(new Date('2026-05-05T03:00:00Z'), DEFAULT_QUIET_HOURS).toISOString()).toBe('2026-05-05T07:00:00.000Z');
    const outside = new Date('2026-05-05T12:00:00Z');
    expect(firstSendableAt(outside, DEFAULT_QUIET_HOURS)).toBe(outside);
  });

  it('quiet hours within one day, none when start equals end, and another time zone (London in summer, UTC+1; in winter, UTC)', () => {
    const day = { start: '06:00', end: '22:00', timeZone: 'Africa/Lagos' };
    expect(inQuietHours(new Date('2026-05-05T08:00:00Z'), day)).toBe(true);
    expect(firstSendableAt(new Date('2026-05-05T08:00:00Z'), day).toISOString()).toBe('2026-05-05T21:00:00.000Z');
    expect(inQuietHours(new Date('2026-05-05T03:00:00Z'), { start: '08:00', end: '08:00', timeZone: 'Africa/Lagos' })).toBe(false);
    const london = { start: '21:00', end: '08:00', timeZone: 'Europe/London' };
    expect(firstSendableAt(new Date('2026-07-01T22:00:00Z'), london).toISOString()).toBe('2026-07-02T07:00:00.000Z');
    expect(firstSendableAt(new Date('2026-01-10T22:00:00Z'), london).toISOString()).toBe('2026-01-11T08:00:00.000Z');
  });

  it('the start of a local day some days before, and which zone names are real', () => {
    // 13:00 Lagos on 1 April: three Lagos days before starts at 23:00 UTC on 28 March.
    expect(localInstant(new Date('2026-04-01T12:00:00Z'), 'Africa/Lagos', -3, 0).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    // 00:30 Lagos on 2 April is still 1 April in UTC: the Lagos day counts.
    expect(localInstant(new Date('2026-04-01T23:30:00Z'), 'Africa/Lagos', 0, 0).toISOString()).toBe('2026-04-01T23:00:00.000Z');
    expect(isTimeZone('Africa/Lagos')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('an organisation sets them as HH:MM and an IANA zone; anything else is refused', () => {
    expect(TenantSettingsSchema.safeParse({ quietHoursStart: '22:30', quietHoursEnd: '07:00', quietHoursTimeZone: 'Africa/Lagos' }).success).toBe(true);
    for (const bad of [{ quietHoursStart: '24:00' }, { quietHoursEnd: '7:00' }, { quietHoursStart: '9pm' }, { quietHoursTimeZone: 'Lagos' }]) {
      expect(TenantSettingsSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
