import { LcOffer } from './lc-offer.component';

if (!customElements.get('lc-offer')) customElements.define('lc-offer', LcOffer);

declare global {
  interface HTMLElementTagNameMap {
    'lc-offer': LcOffer;
  }
}
