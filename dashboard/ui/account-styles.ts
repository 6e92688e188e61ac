import { css } from 'lit';

/**
 * Tables of the account and audit pages on a phone: below 40rem each row becomes a small card, each cell a
 * "label: value" line (the label from the cell's `data-label`), so nothing hides behind a horizontal scroll.
 * Apply with class `stack` on the table.
 */
export const accountStackedTables = css`
  @media (max-width: 40rem) {
    table.stack thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
    table.stack, table.stack tbody, table.stack tr, table.stack td { display: block; width: auto; }
    table.stack tr { border-bottom: 1px solid var(--dash-border); padding: 0.5rem 0; }
    table.stack tr:last-child { border-bottom: none; }
    table.stack td { border: none; padding: 0.2rem 0.75rem; display: grid; grid-template-columns: 6.5rem 1fr; gap: 0.5rem; max-width: none; min-width: 0; }
    table.stack td[data-label]::before { content: attr(data-label); font-weight: 600; color: var(--dash-muted); }
    table.stack td:not([data-label]) { display: block; }
    table.stack td > * { min-width: 0; overflow-wrap: anywhere; }
  }
`;
