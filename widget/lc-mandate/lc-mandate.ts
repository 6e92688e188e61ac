import { LcMandate } from './lc-mandate.component';

if (!customElements.get('lc-mandate')) customElements.define('lc-mandate', LcMandate);

declare global {
  interface HTMLElementTagNameMap {
    'lc-mandate': LcMandate;
  }
}
