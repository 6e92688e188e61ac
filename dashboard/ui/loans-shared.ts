import { css, html } from 'lit';

/**
 * Shared by the loans, loan and pre-approvals pages (issue 18): status badges and the filter bar's layout. The three
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
  form.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(8.5rem, 1fr)); gap: 0 0.75rem; align-items: end; margin-bottom: 1rem; }
  form.filters .search { grid-column: span 2; }
  form.filters .buttons { display: flex; flex-wrap: wrap; gap: 0.5rem; padding-top: 0.75rem; min-width: 0; }
  @media (max-width: 520px) { form.filters .search { grid-column: 1 / -1; } }
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
