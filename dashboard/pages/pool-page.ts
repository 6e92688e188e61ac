import { html, LitElement } from 'lit';
import { dashStyles } from '../ui/styles';

/** Capital pool. */
export class DashPoolPage extends LitElement {
  static override styles = dashStyles;
  static override properties = { mode: {} };
  mode: 'test' | 'live' = 'test';

  override render() {
    return html`<h1 tabindex="-1">Capital pool</h1><p class="muted">This page is being built.</p>`;
  }
}
customElements.define('dash-pool-page', DashPoolPage);
