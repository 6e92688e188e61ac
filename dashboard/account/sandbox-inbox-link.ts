import { html, LitElement, nothing } from 'lit';
import { dashStyles } from '../ui/styles';

let available: Promise<boolean> | undefined;
/** Whether this server serves the sandbox inbox to this browser (development, on its own machine): asked once per page load. */
const inboxAvailable = () =>
  (available ??= fetch('/sandbox/mail', { method: 'HEAD', credentials: 'omit', cache: 'no-store' }).then((res) => res.ok, () => false));

/**
 * Where the e-mail went, where a screen waits for one: a link to the sandbox inbox page (`/sandbox/mail`), shown only
 * when the server answers it (never in production, where the sandbox routes are off, nor from another machine).
 */
export class DashSandboxInboxLink extends LitElement {
  static override styles = [dashStyles];
  static override properties = { shown: { state: true } };
  shown = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void inboxAvailable().then((ok) => (this.shown = ok));
  }

  override render() {
    return this.shown ? html`<p class="muted">In the sandbox, the e-mail is in the <a href="/sandbox/mail" target="_blank" rel="noopener">sandbox inbox</a>.</p>` : nothing;
  }
}
customElements.define('dash-sandbox-inbox-link', DashSandboxInboxLink);
