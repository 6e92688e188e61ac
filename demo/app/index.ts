/** The sales demo page's bundle: the page's own reset, then the `demo-*` elements. */
const sheet = new CSSStyleSheet();
sheet.replaceSync('html, body { margin: 0; background: #eef1f5; }');
document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

import './demo-app/demo-app';
