import { LcIdentity } from './lc-identity.component';

if (!customElements.get('lc-identity')) customElements.define('lc-identity', LcIdentity);

declare global {
  interface HTMLElementTagNameMap {
    'lc-identity': LcIdentity;
  }
}
