import { LcPasskey } from './lc-passkey.component';

if (!customElements.get('lc-passkey')) customElements.define('lc-passkey', LcPasskey);

declare global {
  interface HTMLElementTagNameMap {
    'lc-passkey': LcPasskey;
  }
}
