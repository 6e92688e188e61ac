/** Light-DOM styles of the bank step, scoped by the element name. */
export const bankStyles = `
lc-bank { display: block; }
lc-bank .lc-field { display: grid; gap: 0.375rem; margin-block: 0.75rem; }
lc-bank select, lc-bank input {
  font: inherit; padding: 0.625rem 0.75rem; border: 1px solid var(--lc-border, #6b7280); border-radius: var(--lc-radius, 0.5rem);
  color: var(--lc-text, #111827); background: var(--lc-surface, #fff);
}
lc-bank input[aria-invalid='true'] { border-color: var(--lc-danger, #b91c1c); }
lc-bank .lc-confirm { padding: 0.75rem; border: 1px solid var(--lc-border, #d1d5db); border-radius: var(--lc-radius, 0.5rem); margin-block: 0.75rem; }
lc-bank button {
  font: inherit; min-height: 2.75rem; padding: 0.5rem 1rem; border-radius: var(--lc-radius, 0.5rem); cursor: pointer;
  border: 1px solid var(--lc-primary, #1d4ed8); background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff);
}
lc-bank button:disabled { opacity: 0.6; cursor: not-allowed; }
lc-bank :focus-visible { outline: 3px solid var(--lc-focus, #f59e0b); outline-offset: 2px; }
lc-bank .lc-error { color: var(--lc-danger, #b91c1c); }
`;
