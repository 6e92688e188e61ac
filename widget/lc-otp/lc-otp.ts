import { LcOtp } from './lc-otp.component';

if (!customElements.get('lc-otp')) customElements.define('lc-otp', LcOtp);

declare global {
  interface HTMLElementTagNameMap {
    'lc-otp': LcOtp;
  }
}
