import type { CheckoutTheme } from '../../widget/theme';
import { escapeHtml } from '../shared/escape-html';
import { contentSecurityPolicy, renderPageShell } from '../shared/page-shell';

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
 * The tab's icon: a small shield with a tick, inline (a data: URI, which the page's CSP allows for
 * images), so the page makes no extra request for it and never shows the browser's blank page icon.
 */
const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Cpath fill='%231d4ed8' d='M16 2 4 7v8c0 7.5 5.1 13.6 12 15 6.9-1.4 12-7.5 12-15V7z'/%3E%3Cpath fill='none' stroke='%23fff' stroke-width='3' stroke-linecap='round' stroke-linejoin='round' d='m10.5 16.5 4 4 7-8'/%3E%3C/svg%3E";

/**
 * The hosted checkout page: a shell with one `<lc-checkout>` element and the widget script. The
 * element gets the JSON endpoints' base and the state the server saw; the text inside it is what
 * shows before (or without) the script. No token, no personal data and no key in the HTML.
 *
 * The page's `<h1>` names the task for assistive technology and stays out of sight once the widget's
 * styles load (the widget's header shows the lender, each step its own heading); the widget keeps
 * it and the `<title>` in the borrower's language, with the lender's name, and says when the loan is confirmed.
 */
export function renderCheckoutPage(options: {
  basePath: string;
  state: PageState;
  theme?: CheckoutTheme;
  /** The widget bundle's content-hashed URL (immutable); default the stable `{basePath}/widget.js`. */
  widgetSrc?: string;
  /** A name for the page's `<main>`, when it is shown inside another page's frame beside that page's own (the dashboard's preview). */
  mainLabel?: string;
}): string {
  const base = escapeHtml(options.basePath);
  const theme = options.theme ? ` theme="${escapeHtml(JSON.stringify(options.theme))}"` : '';
  return renderPageShell({
    title: 'Complete your loan',
    head: ['<meta name="theme-color" content="#ffffff">', `<link rel="icon" href="${FAVICON}">`],
    body: `  <main${options.mainLabel ? ` aria-label="${escapeHtml(options.mainLabel)}"` : ''}>
    <h1 class="lc-page-title">Complete your loan</h1>
    <lc-checkout api="${base}/api" state="${options.state}"${theme}>
      <p role="status">${escapeHtml(FALLBACK[options.state])}</p>
    </lc-checkout>
  </main>`,
    scripts: [options.widgetSrc ?? `${options.basePath}/widget.js`],
  });
}

/**
 * The hosted page's policy: its own bundle, the lender's logo from any https address (checkout
 * settings; plain http on loopback only for a test-mode session), forms to itself, framed only by
 * the router's `frameAncestors`. Also sent with the `/c/<token>` redirect.
 */
export function checkoutPageCsp(options: { testSession: boolean; frameAncestors?: readonly string[] }): string {
  return contentSecurityPolicy({
    ownAssets: true,
    img: ['https:', ...(options.testSession ? ['http://localhost:*', 'http://127.0.0.1:*'] : [])],
    font: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: options.frameAncestors,
  });
}
