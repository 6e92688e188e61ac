import { LcDecision } from './lc-decision.component';

if (!customElements.get('lc-decision')) customElements.define('lc-decision', LcDecision);

declare global {
  interface HTMLElementTagNameMap {
    'lc-decision': LcDecision;
  }
}
