import { LcEnded } from './lc-ended.component';

if (!customElements.get('lc-ended')) customElements.define('lc-ended', LcEnded);

declare global {
  interface HTMLElementTagNameMap {
    'lc-ended': LcEnded;
  }
}
