import type { RailName } from './payment-rail';
import type { AuthorisationRecord } from './sandbox-rail-records';
import { escapeHtml } from '../../shared/escape-html';
import { newNonce, renderPageShell, type PagePolicy } from '../../shared/page-shell';

/**
 * The sandbox rails' borrower-facing HTML: the authorisation page and the pages that follow it.
 * Plain HTML and one inline `<style>` (allowed by a per-response nonce), no script, no external
 * assets; readable at 320 px, keyboard and screen-reader friendly (WCAG 2.2 AA contrast, 44 px
 * targets, visible focus). The authorisation code never appears here.
 */

// Plain words a bank's staff and a borrower recognise; both rails are sandbox stand-ins for direct-debit providers (the badge says "Sandbox").
const RAIL_LABELS: Record<RailName, string> = { rail_a: 'Direct debit mandate', rail_b: 'Direct debit mandate (second provider)' };

export interface Page {
  html: string;
  /** What the page may load (the router serialises it, deciding who may frame the page). */
  policy: PagePolicy;
}

/** Display only: integer kobo as `₦1,234.56`, with no float arithmetic. */
export function formatNaira(amountKobo: number): string {
  const naira = Math.trunc(amountKobo / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `₦${naira}.${(amountKobo % 100).toString().padStart(2, '0')}`;
}

/**
 * The page's own policy (the app-wide one is `default-src 'none'`): our inline style by nonce,
 * the form posting to us, and — because browsers apply `form-action` to the redirect that follows
 * the POST — the callback's origin.
 */
function securityPolicy(nonce: string, callbackUrl: string | null): PagePolicy {
  return { styleNonce: nonce, formAction: ["'self'", ...(callbackUrl ? [new URL(callbackUrl).origin] : [])] };
}

const STYLE = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4a5360; --brand: #0a5c36; --line: #d5dae1; --bg: #f3f5f8; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 26rem; margin: 0 auto; padding: 1rem; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 1.25rem; }
.bank { display: flex; align-items: center; gap: .5rem; margin: 0 0 1rem; font-weight: 600; color: var(--brand); }
.badge { margin-left: auto; font-size: .75rem; font-weight: 600; color: #5c3b00; background: #fff1c2; border-radius: 999px; padding: .125rem .5rem; }
h1 { font-size: 1.375rem; line-height: 1.3; margin: 0 0 .5rem; }
p { margin: 0 0 1rem; color: var(--muted); }
dl { margin: 0 0 1.25rem; border-top: 1px solid var(--line); }
dl div { display: flex; justify-content: space-between; gap: 1rem; padding: .625rem 0; border-bottom: 1px solid var(--line); }
dt { color: var(--muted); }
dd { margin: 0; font-weight: 600; text-align: right; overflow-wrap: anywhere; }
.amount { font-size: 1.25rem; }
.actions { display: grid; gap: .75rem; }
button { min-height: 48px; width: 100%; border-radius: 8px; font: inherit; font-weight: 600; cursor: pointer; border: 2px solid var(--brand); }
.approve { background: var(--brand); color: #fff; }
.refuse { background: #fff; color: var(--brand); }
button:focus-visible { outline: 3px solid #1a56db; outline-offset: 2px; }
.fine { font-size: .875rem; margin: 1rem 0 0; }
a.back { display: flex; align-items: center; justify-content: center; min-height: 48px; border-radius: 8px; font-weight: 600; background: var(--brand); color: #fff; text-decoration: none; }
a.back:focus-visible { outline: 3px solid #1a56db; outline-offset: 2px; }
`;

function layout(nonce: string, rail: RailName | null, title: string, body: string): string {
  const label = rail ? RAIL_LABELS[rail] : 'Sandbox bank';
  return renderPageShell({
    title: `${title} · ${label}`,
    nonce,
    styles: [STYLE],
    body: `<main>
<div class="card">
<p class="bank"><span aria-hidden="true">▣</span> ${label} <span class="badge">Sandbox</span></p>
${body}
</div>
</main>`,
  });
}

const STATE_MESSAGES: Record<AuthorisationRecord['status'], string> = {
  pending: '',
  approved: 'You approved this direct debit. Your bank is confirming it.',
  active: 'You approved this direct debit and it is now active.',
  refused: 'You refused this direct debit. Nothing will be taken from your account.',
  cancelled: 'This direct debit authorisation was cancelled. Nothing will be taken from your account.',
};

/**
 * Where a decided authorisation sends the borrower back: the callback with the same opaque
 * `reference` and `status` the decision's redirect carried (never a dead end once decided).
 */
export function returnUrl(authorisation: Pick<AuthorisationRecord, 'callbackUrl' | 'providerReference' | 'status'>): string | null {
  if (!authorisation.callbackUrl || authorisation.status === 'pending') return null;
  const target = new URL(authorisation.callbackUrl);
  target.searchParams.set('reference', authorisation.providerReference);
  target.searchParams.set('status', authorisation.status === 'active' ? 'approved' : authorisation.status);
  return target.toString();
}

/** The page at `authorizationUrl`: the mandate's details and Approve / Refuse while pending; once decided, the outcome and the way back. */
export function authorisationPage(authorisation: AuthorisationRecord, formAction: string): Page {
  const nonce = newNonce();
  const back = returnUrl(authorisation);
  const details = `<dl>
<div><dt>Amount</dt><dd class="amount">${formatNaira(authorisation.amountKobo)}</dd></div>
<div><dt>Account</dt><dd>${authorisation.accountNumberMasked ? escapeHtml(authorisation.accountNumberMasked) : 'Chosen at your bank'}</dd></div>
<div><dt>Email</dt><dd>${escapeHtml(authorisation.email)}</dd></div>
<div><dt>Reference</dt><dd>${escapeHtml(authorisation.providerReference)}</dd></div>
</dl>`;
  const body =
    authorisation.status === 'pending'
      ? `<h1 id="title">Authorise a direct debit</h1>
<p>A lender asks to debit your account by direct debit. Check the details, then approve or refuse.</p>
${details}
<form method="post" action="${escapeHtml(formAction)}" class="actions" aria-labelledby="title">
<button type="submit" name="decision" value="approve" class="approve">Approve</button>
<button type="submit" name="decision" value="refuse" class="refuse">Refuse</button>
</form>
<p class="fine">Sandbox bank: no real money moves. You can cancel a direct debit at any time.</p>`
      : `<h1>Direct debit ${escapeHtml(authorisation.status === 'active' ? 'approved' : authorisation.status)}</h1>
<p role="status">${STATE_MESSAGES[authorisation.status]}${back ? '' : ' You can close this page.'}</p>
${details}
${back ? `<a class="back" href="${escapeHtml(back)}">Back to the checkout</a>` : ''}`;
  return { html: layout(nonce, authorisation.rail, 'Authorise a direct debit', body), policy: securityPolicy(nonce, authorisation.callbackUrl) };
}

/** After a decision without a callback URL, or when something is wrong (unknown link, too late). */
export function messagePage(rail: RailName | null, title: string, message: string): Page {
  const nonce = newNonce();
  const body = `<h1>${escapeHtml(title)}</h1>\n<p role="status">${escapeHtml(message)}</p>`;
  return { html: layout(nonce, rail, title, body), policy: securityPolicy(nonce, null) };
}
