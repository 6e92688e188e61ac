import { LcCheckout } from './lc-checkout.component';

if (!customElements.get('lc-checkout')) customElements.define('lc-checkout', LcCheckout);

declare global {
  interface HTMLElementTagNameMap {
    'lc-checkout': LcCheckout;
  }
}
