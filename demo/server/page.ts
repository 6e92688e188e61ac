import { escapeHtml } from '../../server/shared/escape-html';
import { DEMO_NAME } from '../shared/demo-name';

/**
 * The demo page: a shell with one `<demo-app>` and the demo bundle. No key, no token, no
 * personal data in the HTML; the app reads everything through the demo's JSON routes.
 */
export function renderDemoPage(options: { basePath: string }): string {
  const base = escapeHtml(options.basePath);
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>${escapeHtml(DEMO_NAME)}</title>
</head>
<body>
  <demo-app api="${base}/api">
    <p>Loading the demo…</p>
  </demo-app>
  <script type="module" src="${base}/assets/demo.js"></script>
</body>
</html>`;
}
