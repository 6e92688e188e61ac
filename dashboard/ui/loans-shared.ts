import { css, html } from 'lit';

/**
 * Shared by the loans, loan and pre-approvals pages: status badges and the filter bar's layout. The three
 * pages are separate chunks; this small module is the one piece they share.
 */
const GOOD = new Set(['active', 'completed', 'disbursed', 'accepted', 'terms_accepted']);
const BAD = new Set(['rejected', 'cancelled', 'defaulted', 'declined', 'terms_declined', 'expired', 'failed']);

export const statusLabel = (status: string): string => status.replaceAll('_', ' ');

export function statusBadge(status: string, extra = '') {
  const tone = GOOD.has(status) ? 'ok' : BAD.has(status) ? 'bad' : 'warn';
  return html`<span class="badge ${tone}" data-loan-status=${status}>${statusLabel(status)}${extra}</span>`;
}

export const filterStyles = css`
  /* One line on a laptop, the buttons' bottom on the fields' bottom; on a phone the fields wrap two by two. */
  form.filters { display: flex; flex-wrap: wrap; gap: 0 0.75rem; align-items: flex-end; margin-bottom: 1rem; }
  form.filters > * { flex: 1 1 8.5rem; min-width: 0; }
  form.filters .search { flex: 2 1 14rem; }
  form.filters .buttons { flex: 0 0 auto; display: flex; flex-wrap: nowrap; gap: 0.5rem; padding-top: 0.75rem; }
  .card > h2:first-child { margin-top: 0; }
  .more { display: flex; justify-content: center; padding: 0.75rem; }
  .empty { padding: 1.25rem; text-align: center; }
  td a { font-weight: 600; }
  td.nowrap, th.nowrap { white-space: nowrap; }
`;

/** Keeps a list's filters in the address (replaceState: Back leaves the page, a copied link reopens the same list). */
export function keepInAddress(query: Record<string, string>): void {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const search = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}`);
}
