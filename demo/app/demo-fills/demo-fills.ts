import { DemoFills } from './demo-fills.component';

if (!customElements.get('demo-fills')) customElements.define('demo-fills', DemoFills);

declare global {
  interface HTMLElementTagNameMap {
    'demo-fills': DemoFills;
  }
  interface HTMLElementEventMap {
    'demo-code': CustomEvent<{ code: string | null }>;
  }
}
