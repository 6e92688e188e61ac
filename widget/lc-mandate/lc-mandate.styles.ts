/** Shadow-DOM styles of the mandate step. */
export const mandateStyles = `
input[aria-invalid='true'] { border-color: var(--lc-danger, #b91c1c); }
a.lc-rail-link {
  display: inline-block; font: inherit; min-height: 2.75rem; box-sizing: border-box; padding: 0.5rem 1rem; border-radius: var(--lc-radius, 0.5rem);
  border: 1px solid var(--lc-primary, #1d4ed8); background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff); text-decoration: none;
}
.lc-summary { border: 1px solid var(--lc-border, #d1d5db); border-radius: var(--lc-radius, 0.5rem); padding: 0.75rem; margin-block: 0.75rem; }
.lc-summary h3 { font-size: 1rem; margin: 0 0 0.5rem; }
.lc-summary dl { display: grid; grid-template-columns: auto 1fr; gap: 0.25rem 1rem; margin: 0; }
.lc-summary dt { color: var(--lc-muted, #4b5563); }
.lc-summary dd { margin: 0; text-align: end; font-weight: 600; overflow-wrap: anywhere; }
.lc-failure { border-inline-start: 4px solid var(--lc-danger, #b91c1c); padding: 0.25rem 0.75rem; margin-block: 0.5rem 0.75rem; }
.lc-failure p { margin: 0.25rem 0; }
.lc-failure:focus { outline: none; }
.lc-failure:focus-visible { outline: 3px solid var(--lc-focus, #f59e0b); outline-offset: 2px; }
.lc-actions { display: grid; gap: 0.75rem; }
.lc-contact { color: var(--lc-muted, #4b5563); font-size: 0.9375rem; }
`;
