import { html, LitElement } from 'lit';
import { dashStyles } from '../ui/styles';

/** "Sign in with a passkey" on the sign-in page (fires `signed-in` `{ next }` like the password form). */
export class DashPasskeySignIn extends LitElement {
  static override styles = dashStyles;
  override render() {
    return html``;
  }
}
customElements.define('dash-passkey-sign-in', DashPasskeySignIn);
