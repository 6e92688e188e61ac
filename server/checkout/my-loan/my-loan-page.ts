import type { CheckoutTheme } from '../../../widget/theme';
import { escapeHtml } from '../../shared/escape-html';
import { renderPageShell } from '../../shared/page-shell';

/** What the server saw when it rendered `/my-loan`: signed in (a cookie), not, a bad `/s/<token>` link, or an unknown address. */
export type MyLoanPageState = 'ready' | 'signed-out' | 'unknown' | 'not-found';

/** What shows before (or without) the script; the page says the same in the borrower's language once it runs. */
const FALLBACK: Record<MyLoanPageState, string> = {
  ready: 'Loading your loans…',
  'signed-out': 'Loading the sign-in…',
  unknown: 'We do not recognise this link. Open the whole link your lender sent, or sign in with your phone number.',
  'not-found': 'This page does not exist. Open your loans to continue.',
};

const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Cpath fill='%231d4ed8' d='M16 2 4 7v8c0 7.5 5.1 13.6 12 15 6.9-1.4 12-7.5 12-15V7z'/%3E%3Cpath fill='none' stroke='%23fff' stroke-width='3' stroke-linecap='round' stroke-linejoin='round' d='m10.5 16.5 4 4 7-8'/%3E%3C/svg%3E";

/**
 * The borrower's loan page: a shell with one `<lc-my-loan>` and its bundle. The element gets its JSON endpoints
 * (`api`), where the language tables are (`locales`: the checkout's own), the mode sign-in asks for (`mode`), and
 * the state the server saw. No token, no personal data in the HTML. The `<h1>` is for assistive technology; the
 * element keeps it and the `<title>` in the borrower's language.
 */
export function renderMyLoanPage(options: { basePath: string; state: MyLoanPageState; mode: 'test' | 'live'; theme?: CheckoutTheme; scriptSrc: string }): string {
  const base = escapeHtml(options.basePath);
  const theme = options.theme ? ` theme="${escapeHtml(JSON.stringify(options.theme))}"` : '';
  return renderPageShell({
    title: 'My loan',
    head: ['<meta name="theme-color" content="#ffffff">', `<link rel="icon" href="${FAVICON}">`],
    body: `  <main>
    <h1 class="lc-page-title">My loan</h1>
    <lc-my-loan api="${base}/my-loan/api" locales="${base}/api" home="${base}/my-loan/" mode="${options.mode}" state="${options.state}"${theme}>
      <p role="status">${escapeHtml(FALLBACK[options.state])}</p>
    </lc-my-loan>
  </main>`,
    scripts: [options.scriptSrc],
  });
}
