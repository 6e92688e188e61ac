import type { CheckoutTheme } from '../../widget/theme';
import { escapeHtml } from '../shared/escape-html';

/** What the server knows when it renders the hosted page; the widget takes over from there. */
export type PageState = 'ready' | 'expired' | 'revoked' | 'unknown' | 'missing' | 'unavailable' | 'returned';

const FALLBACK: Record<PageState, string> = {
  ready: 'Loading your loan checkout…',
  expired: 'This link has expired. Ask the lender who sent it for a new one.',
  revoked: 'This link has been withdrawn. Ask the lender who sent it for a new one.',
  unknown: 'We do not recognise this link. Check that you opened the whole link from the text message, or ask the lender to send it again.',
  missing: 'Open the link the lender sent you to continue.',
  unavailable: 'We cannot reach the lending service right now. Please try again in a moment.',
  returned: 'You are done at your bank. Close this tab and go back to finish your loan checkout.',
};

/**
 * The hosted checkout page: a shell with one `<lc-checkout>` element and the widget script. The
 * element gets the JSON endpoints' base and the state the server saw; the text inside it is what
 * shows before (or without) the script. No token, no personal data and no key in the HTML.
 */
export function renderCheckoutPage(options: {
  basePath: string;
  state: PageState;
  theme?: CheckoutTheme;
  /** The widget bundle's content-hashed URL (immutable); default the stable `{basePath}/widget.js`. */
  widgetSrc?: string;
}): string {
  const base = escapeHtml(options.basePath);
  const theme = options.theme ? ` theme="${escapeHtml(JSON.stringify(options.theme))}"` : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>Complete your loan</title>
</head>
<body>
  <main>
    <h1 class="lc-page-title">Complete your loan</h1>
    <lc-checkout api="${base}/api" state="${options.state}"${theme}>
      <p role="status">${escapeHtml(FALLBACK[options.state])}</p>
    </lc-checkout>
  </main>
  <script type="module" src="${options.widgetSrc ? escapeHtml(options.widgetSrc) : `${base}/widget.js`}"></script>
</body>
</html>`;
}
