import { LcKyc } from './lc-kyc.component';

if (!customElements.get('lc-kyc')) customElements.define('lc-kyc', LcKyc);

declare global {
  interface HTMLElementTagNameMap {
    'lc-kyc': LcKyc;
  }
}
