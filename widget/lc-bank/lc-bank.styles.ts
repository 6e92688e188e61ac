/** Shadow-DOM styles of the bank step (the bank combobox's list sits in the flow, so nothing is clipped on a small phone). */
export const bankStyles = `
input[aria-invalid='true'] { border-color: var(--lc-danger, #b91c1c); }
.lc-confirm { padding: 0.75rem; border: 1px solid var(--lc-border, #d1d5db); border-radius: var(--lc-radius, 0.5rem); margin-block: 0.75rem; }
.lc-confirm p { margin-block: 0.25rem; }
.lc-warning { border: 2px solid var(--lc-danger, #b91c1c); }
.lc-actions { display: flex; flex-wrap: wrap; gap: 0.5rem; }
[role='listbox'] {
  list-style: none; margin: 0; padding: 0.25rem 0; max-height: 13rem; overflow-y: auto;
  border: 1px solid var(--lc-border, #6b7280); border-radius: var(--lc-radius, 0.5rem); background: var(--lc-surface, #fff);
}
[role='option'] { padding: 0.625rem 0.75rem; cursor: pointer; }
[role='option'][aria-selected='true'] { background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff); }
`;
