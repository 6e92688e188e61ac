import { html, LitElement } from 'lit';
import { dashStyles } from './styles';

/** Copies `value` to the clipboard and says so (politely, for screen readers too). `<dash-copy-button .value=${secret} label="Copy secret key">`. */
export class DashCopyButton extends LitElement {
  static override styles = dashStyles;
  static override properties = { value: {}, label: {}, copied: { state: true } };
  value = '';
  label = 'Copy';
  copied = false;

  private async copy() {
    try {
      await navigator.clipboard.writeText(this.value);
      this.copied = true;
      setTimeout(() => (this.copied = false), 2000);
    } catch {
      // No clipboard permission (an embedded browser): the value stays on screen to select by hand.
      this.copied = false;
    }
  }

  override render() {
    return html`<button type="button" class="secondary" @click=${this.copy}>${this.label}</button><span role="status" class="muted">${this.copied ? ' Copied' : ''}</span>`;
  }
}
customElements.define('dash-copy-button', DashCopyButton);
