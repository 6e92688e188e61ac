/** Shadow-DOM styles of the financing decision (tenor choice) step. */
export const decisionStyles = `
:host { display: block; }
fieldset { border: 0; padding: 0; margin: 0 0 1rem; display: grid; gap: 0.5rem; }
legend { font-weight: 600; margin-bottom: 0.5rem; }
label.lc-option {
  display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 0.75rem; align-items: start; padding: 0.75rem;
  border: 1px solid var(--lc-border, #6b7280); border-radius: var(--lc-radius, 0.5rem); cursor: pointer;
}
label.lc-option input { margin-top: 0.25rem; }
.lc-option-facts { grid-column: 2; color: var(--lc-muted, #374151); }
button {
  font: inherit; min-height: 2.75rem; padding: 0.5rem 1rem; border-radius: var(--lc-radius, 0.5rem); cursor: pointer;
  border: 1px solid var(--lc-primary, #1d4ed8); background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff);
}
button:disabled { opacity: 0.6; cursor: not-allowed; }
:focus-visible { outline: 3px solid var(--lc-focus, #f59e0b); outline-offset: 2px; }
.lc-error { color: var(--lc-danger, #b91c1c); }
`;
