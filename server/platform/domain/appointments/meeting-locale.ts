import { isLocale, localeOfAcceptLanguage, type Locale } from '../../../shared/locales';
import type { MeetingSeat } from './meeting-access';

export type MeetingLocaleSource = 'participant' | 'appointment' | 'accept_language' | 'default';

/**
 * The language of a participant's meeting page (the server's states and `<tm-meeting locale>`):
 * 1. the participant's own `locale` (`participants[].locale` at booking);
 * 2. for a patient, the appointment's `locale` (documented as the patient's language; a doctor is not
 *    given the patient's language);
 * 3. the browser's `Accept-Language` (the only signal on a link that names no appointment);
 * 4. English.
 * Stored values that are not a shipped locale are skipped, as in `negotiateLocale`.
 */
export function meetingLocale(seat: MeetingSeat | null, acceptLanguage: string | null | undefined): { locale: Locale; source: MeetingLocaleSource } {
  if (isLocale(seat?.participant.locale)) return { locale: seat.participant.locale, source: 'participant' };
  if (seat?.participant.role === 'patient' && isLocale(seat.appointment.locale)) return { locale: seat.appointment.locale, source: 'appointment' };
  const accepted = localeOfAcceptLanguage(acceptLanguage);
  if (accepted) return { locale: accepted, source: 'accept_language' };
  return { locale: 'en', source: 'default' };
}
