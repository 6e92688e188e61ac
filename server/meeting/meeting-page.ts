import { escapeHtml } from '../shared/escape-html';
import { contentSecurityPolicy, renderPageShell } from '../shared/page-shell';

export type MeetingPageState = 'ready' | 'invalid' | 'too_early' | 'ended' | 'cancelled';

const MESSAGES: Record<MeetingPageState, { heading: string; text: string }> = {
  ready: { heading: 'Your consultation', text: 'Loading the meeting…' },
  invalid: { heading: 'This meeting link is not valid', text: 'Check that you opened the whole link you were sent, or ask the clinic for a new one.' },
  too_early: { heading: 'This meeting has not opened yet', text: 'Open the link again a few minutes before your appointment.' },
  ended: { heading: 'This meeting has ended', text: 'The consultation is over. The clinic will share your summary and any prescription.' },
  cancelled: { heading: 'This appointment was cancelled', text: 'Contact the clinic to book another time.' },
};

/**
 * The meeting page: a shell with `<tm-meeting>` and its own bundle (never the checkout's). Only a
 * `ready` page carries the component; every other state is plain text that names nothing of the
 * appointment, so a wrong or expired key opens nothing.
 */
export function renderMeetingPage(state: MeetingPageState, opensAt?: string): string {
  const message = MESSAGES[state];
  const extra = state === 'too_early' && opensAt ? ` It opens at ${escapeHtml(new Date(opensAt).toUTCString())}.` : '';
  const content =
    state === 'ready'
      ? `<tm-meeting api="/meet/api" signalling="/meet/ws"><p role="status">${escapeHtml(message.text)}</p></tm-meeting>`
      : `<h1>${escapeHtml(message.heading)}</h1>
    <p>${escapeHtml(message.text)}${extra}</p>`;
  return renderPageShell({
    title: message.heading,
    body: `  <main>
    ${content}
  </main>`,
    scripts: state === 'ready' ? ['/meet/meeting.js'] : [],
  });
}

/** Its own bundle, and the camera and microphone streams (`blob:`, `mediastream:`) in its media elements. */
export const MEETING_PAGE_CSP = contentSecurityPolicy({ ownAssets: true, media: ["'self'", 'blob:', 'mediastream:'] });
