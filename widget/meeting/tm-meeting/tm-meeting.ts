import { TmMeeting } from './tm-meeting.component';

if (!customElements.get('tm-meeting')) customElements.define('tm-meeting', TmMeeting);

declare global {
  interface HTMLElementTagNameMap {
    'tm-meeting': TmMeeting;
  }
}
