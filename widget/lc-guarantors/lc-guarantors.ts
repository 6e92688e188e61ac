import { LcGuarantors } from './lc-guarantors.component';

if (!customElements.get('lc-guarantors')) customElements.define('lc-guarantors', LcGuarantors);

declare global {
  interface HTMLElementTagNameMap {
    'lc-guarantors': LcGuarantors;
  }
}
