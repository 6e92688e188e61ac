/** Shadow-DOM styles of the bank step. */
export const bankStyles = `
input[aria-invalid='true'] { border-color: var(--lc-danger, #b91c1c); }
.lc-confirm { padding: 0.75rem; border: 1px solid var(--lc-border, #d1d5db); border-radius: var(--lc-radius, 0.5rem); margin-block: 0.75rem; }
`;
