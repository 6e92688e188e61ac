import { LcBank } from './lc-bank.component';

if (!customElements.get('lc-bank')) customElements.define('lc-bank', LcBank);

declare global {
  interface HTMLElementTagNameMap {
    'lc-bank': LcBank;
  }
}
