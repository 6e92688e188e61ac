/** Shadow-DOM styles of the offer step. */
export const offerStyles = `
dl { display: grid; grid-template-columns: 1fr auto; gap: 0.25rem 1rem; margin: 0 0 1rem; }
dt { color: var(--lc-muted, #4b5563); }
dd { margin: 0; text-align: end; font-variant-numeric: tabular-nums; }
dd.lc-total, dt.lc-total { font-weight: 700; color: var(--lc-text, #111827); }
table { width: 100%; border-collapse: collapse; font-size: 0.875rem; margin-block: 0.5rem 1rem; }
th, td { padding: 0.25rem; text-align: end; border-bottom: 1px solid var(--lc-border, #d1d5db); }
th:first-child, td:first-child { text-align: start; }
.lc-check { display: flex; gap: 0.5rem; align-items: flex-start; margin-block: 0.75rem; }
.lc-check input { width: 1.25rem; height: 1.25rem; margin-top: 0.15rem; }
.lc-actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1rem; }
`;
