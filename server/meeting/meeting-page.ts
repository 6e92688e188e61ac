import { escapeHtml } from '../shared/escape-html';
import type { Locale } from '../shared/locales';
import { meetingPageText } from '../shared/meeting-page-texts';
import { contentSecurityPolicy, renderPageShell } from '../shared/page-shell';

export type MeetingPageState = 'ready' | 'invalid' | 'too_early' | 'ended' | 'cancelled';

/** The zone the opening time is written in: the platform's users are in Nigeria (West Africa Time, no daylight saving). */
const TIME_ZONE = 'Africa/Lagos';
const ZONE_LABEL = 'WAT (UTC+1)';

/**
 * When a closed meeting opens, for the `too_early` sentence: `{time}` as 24-hour `15:05 WAT (UTC+1)` (never a 12-hour
 * clock without its am/pm, never without the zone) and `{date}` as the day with the month's name in the page's
 * language (`27 Oṣù Bélú 2026`), or `2026-11-27` where this Node has no calendar data for it.
 */
export function openingTime(iso: string, locale: Locale): { time: string; date: string } {
  const at = new Date(iso);
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: TIME_ZONE }).format(at);
  const tag = locale === 'en' || locale === 'pcm' ? 'en-NG' : `${locale}-NG`;
  const date = Intl.DateTimeFormat.supportedLocalesOf(tag).length
    ? new Intl.DateTimeFormat(tag, { day: 'numeric', month: 'long', year: 'numeric', timeZone: TIME_ZONE }).format(at)
    : new Intl.DateTimeFormat('en-CA', { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: TIME_ZONE }).format(at);
  return { time: `${time} ${ZONE_LABEL}`, date };
}

/**
 * The meeting page: a shell with `<tm-meeting>` and its own bundle (never the checkout's). Only a
 * `ready` page carries the component; every other state is plain text that names nothing of the
 * appointment, so a wrong or expired key opens nothing. Everything is in `locale` (`meetingLocale`:
 * the participant's, else a patient's appointment's, else `Accept-Language`, else English): the texts,
 * `<html lang>`, and the component's `locale` attribute.
 */
export function renderMeetingPage(state: MeetingPageState, options: { locale: Locale; opensAt?: string }): string {
  const { locale } = options;
  const heading = meetingPageText(locale, `${state}.title`);
  const text = meetingPageText(locale, `${state}.body`);
  const extra = state === 'too_early' && options.opensAt ? ` ${meetingPageText(locale, 'too_early.opensAt', openingTime(options.opensAt, locale))}` : '';
  const content =
    state === 'ready'
      ? `<tm-meeting api="/meet/api" signalling="/meet/ws" locale="${escapeHtml(locale)}"><p role="status">${escapeHtml(text)}</p></tm-meeting>`
      : `<h1>${escapeHtml(heading)}</h1>
    <p>${escapeHtml(text + extra)}</p>`;
  return renderPageShell({
    title: heading,
    lang: locale,
    body: `  <main>
    ${content}
  </main>`,
    scripts: state === 'ready' ? ['/meet/meeting.js'] : [],
  });
}

/** Its own bundle, and the camera and microphone streams (`blob:`, `mediastream:`) in its media elements. */
export const MEETING_PAGE_CSP = contentSecurityPolicy({ ownAssets: true, media: ["'self'", 'blob:', 'mediastream:'] });
