import { html, LitElement } from 'lit';
import { dashStyles } from '../ui/styles';

/** API keys. */
export class DashKeysPage extends LitElement {
  static override styles = dashStyles;
  static override properties = { mode: {} };
  mode: 'test' | 'live' = 'test';

  override render() {
    return html`<h1 tabindex="-1">API keys</h1><p class="muted">This page is being built.</p>`;
  }
}
customElements.define('dash-keys-page', DashKeysPage);
