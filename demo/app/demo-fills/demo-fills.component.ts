import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { fieldsOnScreen, fillBank, fillBvn, fillCode, fillSignature, sandboxAccountNumber, SANDBOX_SOMEONE_ELSES_SERIAL, type PhoneField } from '../phone-fill';
import { fillsStyles } from './demo-fills.styles';

/** How often the phone's screen is looked at for boxes to fill (it changes as the borrower taps through). */
const WATCH_MS = 400;

/**
 * One-tap fills for the borrower's phone, so the presenter never types: a chip per box the phone's
 * current screen shows — the one-time code from the inbox, the signature name, the sandbox bank and
 * account (or, to show the name check, the sandbox's someone-else's account), the managed tier's
 * BVN. A chip gives the box its value as typing would (`phone-fill.ts`); the borrower's own buttons
 * stay taps in the phone. Shows nothing while the screen has nothing to fill.
 *
 * @prop frame - returns the phone's checkout document (same origin), or null while the phone is empty
 * @prop code - the newest one-time code in the borrower's inbox (`demo-code` from the inbox)
 * @prop signature - the borrower's name as they sign it
 * @prop bvn - a sandbox BVN that verifies, for the managed tier (made in the browser, never from the server)
 */
export class DemoFills extends LitElement {
  static override styles = fillsStyles;
  static override properties = {
    frame: { attribute: false },
    code: { attribute: false },
    signature: {},
    bvn: {},
    fields: { state: true },
    note: { state: true },
  };

  declare frame: () => Document | null;
  declare code: string | null;
  declare signature: string;
  declare bvn: string;
  declare private fields: Set<PhoneField>;
  declare private note: { text: string; error: boolean } | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor() {
    super();
    this.frame = () => null;
    this.code = null;
    this.signature = '';
    this.bvn = '';
    this.fields = new Set();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.timer = setInterval(() => this.look(), WATCH_MS);
    this.look();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.timer);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // A new code in the inbox is news for the presenter, not an old fill's note.
    if (changed.has('code') && changed.get('code') !== undefined) this.note = undefined;
  }

  /** Re-reads which boxes the phone shows; renders only when that changed. */
  private look() {
    let shown: Set<PhoneField>;
    try {
      shown = fieldsOnScreen(this.frame());
    } catch {
      shown = new Set(); // the frame is between pages (or navigated off origin, the rail's page): nothing to fill
    }
    const same = shown.size === this.fields.size && [...shown].every((f) => this.fields.has(f));
    if (same) return;
    this.fields = shown;
    this.note = undefined;
  }

  private async fill(what: string, action: (doc: Document | null) => void | Promise<void>) {
    try {
      await action(this.frame());
      this.note = { text: `Filled in the phone: ${what}.`, error: false };
    } catch (error) {
      this.note = { text: (error as Error).message, error: true };
    }
  }

  private renderChips() {
    const chips = [];
    if (this.fields.has('code')) {
      chips.push(
        this.code
          ? html`<button type="button" data-fill="code" aria-label=${`Fill the code ${this.code} from the inbox`} @click=${() => this.fill(`the code ${this.code}`, (d) => fillCode(d, this.code!))}>
              Code <code>${this.code}</code>
            </button>`
          : html`<button type="button" data-fill="code" disabled>Code: tap “Send code” in the phone</button>`,
      );
    }
    if (this.fields.has('signature') && this.signature) {
      chips.push(html`<button type="button" data-fill="signature" @click=${() => this.fill(`the name ${this.signature}`, (d) => fillSignature(d, this.signature))}>Sign as ${this.signature}</button>`);
    }
    if (this.fields.has('bank')) {
      const own = sandboxAccountNumber();
      const someoneElses = sandboxAccountNumber(SANDBOX_SOMEONE_ELSES_SERIAL);
      chips.push(
        html`<button type="button" data-fill="bank" aria-label=${`Fill GTBank account ${own}, the borrower’s`} @click=${() => this.fill(`GTBank ${own}`, (d) => fillBank(d, own))}>
          GTBank <code>${own}</code>
        </button>`,
        html`<button type="button" class="quiet" data-fill="bank-mismatch" aria-label=${`Fill GTBank account ${someoneElses}, someone else’s`} @click=${() => this.fill(`GTBank ${someoneElses}, someone else’s`, (d) => fillBank(d, someoneElses))}>
          Someone else’s account
        </button>`,
      );
    }
    if (this.fields.has('bvn') && this.bvn) {
      chips.push(html`<button type="button" data-fill="bvn" aria-label=${`Fill the BVN ${this.bvn}, one the sandbox verifies`} @click=${() => this.fill(`the BVN ${this.bvn}`, (d) => fillBvn(d, this.bvn))}>BVN <code>${this.bvn}</code></button>`);
    }
    return chips;
  }

  override render() {
    const chips = this.renderChips();
    if (chips.length === 0) return nothing;
    return html`<div class="fills" role="group" aria-labelledby="fills-label">
      <p class="label" id="fills-label">Tap to fill in the phone</p>
      <div class="chips">${chips}</div>
      ${this.note ? html`<p class=${this.note.error ? 'note error' : 'note'} role=${this.note.error ? 'alert' : 'status'}>${this.note.text}</p>` : nothing}
    </div>`;
  }
}
