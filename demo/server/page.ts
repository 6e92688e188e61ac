import { escapeHtml } from '../../server/shared/escape-html';
import { contentSecurityPolicy, renderPageShell } from '../../server/shared/page-shell';
import { DEMO_NAME } from '../shared/demo-name';

/**
 * The demo page: a shell with one `<demo-app>` and the demo bundle. No key, no token, no
 * personal data in the HTML; the app reads everything through the demo's JSON routes.
 */
export function renderDemoPage(options: { basePath: string }): string {
  return renderPageShell({
    title: DEMO_NAME,
    body: `  <demo-app api="${escapeHtml(options.basePath)}/api">
    <p>Loading the demo…</p>
  </demo-app>`,
    scripts: [`${options.basePath}/assets/demo.js`],
  });
}

/** Its own bundle, and the phone frame showing the hosted checkout (and the sandbox rail's page) from this origin. */
export const DEMO_PAGE_CSP = contentSecurityPolicy({ ownAssets: true, frame: ["'self'"] });
