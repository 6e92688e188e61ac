import { DemoInbox } from './demo-inbox.component';

if (!customElements.get('demo-inbox')) customElements.define('demo-inbox', DemoInbox);

declare global {
  interface HTMLElementTagNameMap {
    'demo-inbox': DemoInbox;
  }
}
