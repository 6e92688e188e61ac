import { LcTestHints } from './lc-test-hints.component';

if (!customElements.get('lc-test-hints')) customElements.define('lc-test-hints', LcTestHints);

declare global {
  interface HTMLElementTagNameMap {
    'lc-test-hints': LcTestHints;
  }
}
