import { html, LitElement } from 'lit';
import { dashStyles } from '../ui/styles';

/** Webhooks. */
export class DashWebhooksPage extends LitElement {
  static override styles = dashStyles;
  static override properties = { mode: {} };
  mode: 'test' | 'live' = 'test';

  override render() {
    return html`<h1 tabindex="-1">Webhooks</h1><p class="muted">This page is being built.</p>`;
  }
}
customElements.define('dash-webhooks-page', DashWebhooksPage);
