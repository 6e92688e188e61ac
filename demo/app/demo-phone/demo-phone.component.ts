import { html, LitElement } from 'lit';
import { phoneStyles } from './demo-phone.styles';

/**
 * A phone-sized frame (360×640 CSS pixels) showing the borrower's hosted checkout in an iframe
 * from the same origin, or a line saying why there is nothing on the phone.
 *
 * @csspart phone - the phone's body
 */
export class DemoPhone extends LitElement {
  static override styles = phoneStyles;
  static override properties = { src: {}, placeholder: {} };

  /** Same-origin path of the page to show (the loan's checkout link), or null. */
  declare src: string | null;
  /** What the screen says while there is no page to show. */
  declare placeholder: string;

  constructor() {
    super();
    this.src = null;
    this.placeholder = '';
  }

  /** The checkout's document (same origin), for the page's one-tap fills; null while the phone shows no page. */
  frameDocument(): Document | null {
    return this.renderRoot.querySelector('iframe')?.contentDocument ?? null;
  }

  /** Reloads the checkout (after a step taken outside it, such as the lender's approval). */
  reload(): void {
    this.renderRoot.querySelector('iframe')?.contentWindow?.location.reload();
  }

  override render() {
    return html`<div class="phone" part="phone">
      <div class="speaker" aria-hidden="true"></div>
      <div class="screen">
        ${this.src
          ? html`<iframe title="Borrower’s phone: the hosted checkout" src=${this.src} width="360" height="640"></iframe>`
          : html`<div class="placeholder"><p>${this.placeholder}</p></div>`}
      </div>
    </div>`;
  }
}
