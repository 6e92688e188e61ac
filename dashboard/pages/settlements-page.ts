import { html, LitElement } from 'lit';
import { dashStyles } from '../ui/styles';

/** Settlements. */
export class DashSettlementsPage extends LitElement {
  static override styles = dashStyles;
  static override properties = { mode: {} };
  mode: 'test' | 'live' = 'test';

  override render() {
    return html`<h1 tabindex="-1">Settlements</h1><p class="muted">This page is being built.</p>`;
  }
}
customElements.define('dash-settlements-page', DashSettlementsPage);
