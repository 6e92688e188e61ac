import { DemoApp } from './demo-app.component';

if (!customElements.get('demo-app')) customElements.define('demo-app', DemoApp);

declare global {
  interface HTMLElementTagNameMap {
    'demo-app': DemoApp;
  }
}
