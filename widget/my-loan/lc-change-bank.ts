import { LcChangeBank } from './lc-change-bank.component';

if (!customElements.get('lc-change-bank')) customElements.define('lc-change-bank', LcChangeBank);

declare global {
  interface HTMLElementTagNameMap {
    'lc-change-bank': LcChangeBank;
  }
}

export { LcChangeBank };
