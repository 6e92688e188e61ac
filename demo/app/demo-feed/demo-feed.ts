import { DemoFeed } from './demo-feed.component';

if (!customElements.get('demo-feed')) customElements.define('demo-feed', DemoFeed);

declare global {
  interface HTMLElementTagNameMap {
    'demo-feed': DemoFeed;
  }
}
