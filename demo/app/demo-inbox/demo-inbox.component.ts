import { html, LitElement, nothing, type PropertyValues } from 'lit';
import type { DemoApi, SmsMessage } from '../demo-api';
import { formatTime } from '../format';
import { panelStyles } from '../panel.styles';
import { Poller } from '../poller';
import { inboxStyles } from './demo-inbox.styles';

const POLL_MS = 1_500;

/** The one-time code in a text, if it carries one. */
export const codeIn = (body: string) => /^(\d{6}) is /.exec(body)?.[1];

/**
 * The borrower's sandbox SMS inbox (newest first), so the one-time code can be read out and put
 * into the phone. Polls the demo server, which reads the sandbox inbox (`GET /sandbox/sms`) for the
 * run's borrower: the phone number never goes into a URL of this page.
 *
 * @event demo-code - the newest text's one-time code changed (`detail.code`, null when there is none): the page's
 *   code chip fills it into the phone
 */
export class DemoInbox extends LitElement {
  static override styles = [panelStyles, inboxStyles];
  static override properties = { api: { attribute: false }, runId: { attribute: false }, phone: {}, contacted: { type: Boolean }, messages: { state: true } };

  declare api: DemoApi;
  declare runId: string | null;
  declare phone: string;
  /** Whether this run's borrower is contacted at all (a declined or held application is not). */
  declare contacted: boolean;
  declare private messages: SmsMessage[];
  private readonly poller = new Poller(this, (signal) => this.load(signal), POLL_MS);

  constructor() {
    super();
    this.runId = null;
    this.phone = '';
    this.contacted = true;
    this.messages = [];
  }

  private lastCode: string | null = null;

  private async load(signal: AbortSignal) {
    if (!this.runId) return;
    this.messages = (await this.api.sms(this.runId, signal)).messages;
    this.announceCode();
  }

  /** The newest code among the texts (newest first), told to the page when it changes. */
  private announceCode() {
    const code = this.messages.map((m) => codeIn(m.body)).find((c) => c !== undefined) ?? null;
    if (code === this.lastCode) return;
    this.lastCode = code;
    this.dispatchEvent(new CustomEvent('demo-code', { detail: { code }, bubbles: true, composed: true }));
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('runId')) return;
    this.messages = [];
    this.announceCode();
    if (this.runId) this.poller.start();
    else this.poller.stop();
  }

  override render() {
    return html`<section class="panel" aria-labelledby="inbox-title">
      <header>
        <h2 id="inbox-title">SMS inbox</h2>
        <p class="hint">${this.phone ? `sandbox texts to ${this.phone}` : 'sandbox texts to the borrower'}</p>
      </header>
      <!-- Focusable so a keyboard can scroll it once the texts overflow (the receipt text after the code). -->
      <div class="body" tabindex="0">
        ${this.poller.error ? html`<p class="error" role="alert">${this.poller.error.message}</p>` : nothing}
        ${this.messages.length === 0
          ? html`<p class="empty">
              ${this.contacted ? 'No texts yet. The borrower gets a code when they tap “Send code” in the checkout.' : 'No texts: this borrower is not contacted.'}
            </p>`
          : html`<ol aria-label="Texts, newest first">
              ${this.messages.map((m) => {
                const code = codeIn(m.body);
                return html`<li class="message">
                  <div class="meta"><span>From ${m.from}</span><time datetime=${m.sentAt}>${formatTime(m.sentAt)}</time></div>
                  <p class="text">${m.body}</p>
                  ${code ? html`<span class="code" aria-label=${`One-time code ${code}`}>${code}</span>` : nothing}
                </li>`;
              })}
            </ol>`}
      </div>
    </section>`;
  }
}
