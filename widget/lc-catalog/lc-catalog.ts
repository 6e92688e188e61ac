import { LcCatalog } from './lc-catalog.component';

if (!customElements.get('lc-catalog')) customElements.define('lc-catalog', LcCatalog);

declare global {
  interface HTMLElementTagNameMap {
    'lc-catalog': LcCatalog;
  }
}
