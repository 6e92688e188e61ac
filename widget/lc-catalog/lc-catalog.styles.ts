/** Shadow-DOM styles of the catalog step. */
export const catalogStyles = `
fieldset { border: 0; padding: 0; margin: 0.75rem 0; min-width: 0; }
legend { padding: 0; font-weight: 600; }
.lc-option { display: flex; gap: 0.625rem; align-items: flex-start; padding: 0.625rem 0.75rem; margin-top: 0.5rem;
  border: 1px solid var(--lc-border, #d1d5db); border-radius: var(--lc-radius, 0.5rem); }
.lc-option:has(input:checked) { border-color: var(--lc-primary, #1d4ed8); box-shadow: 0 0 0 1px var(--lc-primary, #1d4ed8); }
.lc-option input { width: 1.25rem; height: 1.25rem; margin: 0.15rem 0 0; flex: none; }
.lc-option label { display: grid; gap: 0.125rem; cursor: pointer; flex: 1; }
.lc-where { color: var(--lc-muted, #4b5563); font-size: 0.875rem; }
.lc-actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1rem; }
`;
