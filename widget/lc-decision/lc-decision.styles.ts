/** Shadow-DOM styles of the financing decision (tenor choice) step. */
export const decisionStyles = `
fieldset { border: 0; padding: 0; margin: 0 0 1rem; display: grid; gap: 0.5rem; }
legend { font-weight: 600; margin-bottom: 0.5rem; }
label.lc-option {
  display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 0.75rem; align-items: start; padding: 0.75rem;
  border: 1px solid var(--lc-border, #6b7280); border-radius: var(--lc-radius, 0.5rem); cursor: pointer;
}
label.lc-option input { margin-top: 0.25rem; }
.lc-option-facts { grid-column: 2; color: var(--lc-muted, #374151); }
`;
