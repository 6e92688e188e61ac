import { html, LitElement } from 'lit';
import { dashStyles } from '../ui/styles';

/** Pre-approvals. */
export class DashPreapprovalsPage extends LitElement {
  static override styles = dashStyles;
  static override properties = { mode: {} };
  mode: 'test' | 'live' = 'test';

  override render() {
    return html`<h1 tabindex="-1">Pre-approvals</h1><p class="muted">This page is being built.</p>`;
  }
}
customElements.define('dash-preapprovals-page', DashPreapprovalsPage);
