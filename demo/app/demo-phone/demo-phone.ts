import { DemoPhone } from './demo-phone.component';

if (!customElements.get('demo-phone')) customElements.define('demo-phone', DemoPhone);

declare global {
  interface HTMLElementTagNameMap {
    'demo-phone': DemoPhone;
  }
}
