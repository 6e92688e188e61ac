/** Shadow-DOM styles of the offer step. */
export const offerStyles = `
:host { display: block; }
dl { display: grid; grid-template-columns: 1fr auto; gap: 0.25rem 1rem; margin: 0 0 1rem; }
dt { color: var(--lc-muted, #4b5563); }
dd { margin: 0; text-align: end; font-variant-numeric: tabular-nums; }
dd.lc-total, dt.lc-total { font-weight: 700; color: var(--lc-text, #111827); }
table { width: 100%; border-collapse: collapse; font-size: 0.875rem; margin-block: 0.5rem 1rem; }
th, td { padding: 0.25rem; text-align: end; border-bottom: 1px solid var(--lc-border, #d1d5db); }
th:first-child, td:first-child { text-align: start; }
.lc-field { display: grid; gap: 0.375rem; margin-block: 0.75rem; }
input[type='text'], input[type='email'], textarea {
  font: inherit; padding: 0.625rem 0.75rem; border: 1px solid var(--lc-border, #6b7280); border-radius: var(--lc-radius, 0.5rem);
  color: var(--lc-text, #111827); background: var(--lc-surface, #fff);
}
.lc-check { display: flex; gap: 0.5rem; align-items: flex-start; margin-block: 0.75rem; }
.lc-check input { width: 1.25rem; height: 1.25rem; margin-top: 0.15rem; }
.lc-actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1rem; }
button {
  font: inherit; min-height: 2.75rem; padding: 0.5rem 1rem; border-radius: var(--lc-radius, 0.5rem); cursor: pointer;
  border: 1px solid var(--lc-primary, #1d4ed8); background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff);
}
button.lc-secondary { background: transparent; color: var(--lc-link, #1d4ed8); border-color: var(--lc-link, #1d4ed8); }
button:disabled { opacity: 0.6; cursor: not-allowed; }
a { color: var(--lc-link, #1d4ed8); }
:focus-visible { outline: 3px solid var(--lc-focus, #f59e0b); outline-offset: 2px; }
.lc-error { color: var(--lc-danger, #b91c1c); }
`;
