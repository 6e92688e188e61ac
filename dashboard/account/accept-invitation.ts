import { html, LitElement } from 'lit';
import { dashStyles } from '../ui/styles';

/** Accepting an invitation (the e-mailed `/dashboard/accept-invitation?token=…`). */
export class DashAcceptInvitation extends LitElement {
  static override styles = dashStyles;
  override render() {
    return html`<h1>Join an organisation</h1><p>Invitations are not available yet.</p>`;
  }
}
customElements.define('dash-accept-invitation', DashAcceptInvitation);
