/** Shadow-DOM styles of the mandate step. */
export const mandateStyles = `
input[aria-invalid='true'] { border-color: var(--lc-danger, #b91c1c); }
a.lc-rail-link {
  display: inline-block; font: inherit; min-height: 2.75rem; box-sizing: border-box; padding: 0.5rem 1rem; border-radius: var(--lc-radius, 0.5rem);
  border: 1px solid var(--lc-primary, #1d4ed8); background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff); text-decoration: none;
}
.lc-summary { border: 1px solid var(--lc-border, #6b7280); border-radius: var(--lc-radius, 0.5rem); padding: 0.75rem; margin-block: 0.75rem; }
.lc-summary h3 { font-size: 1rem; margin: 0 0 0.5rem; }
dl { margin: 0; }
dl > div { display: flex; flex-wrap: wrap; justify-content: space-between; gap: 0 0.75rem; padding-block: 0.25rem; }
dt, .lc-contact { color: var(--lc-muted, #4b5563); }
dd { margin: 0 0 0 auto; text-align: end; font-weight: 600; white-space: nowrap; }
.lc-failure { border-inline-start: 4px solid var(--lc-danger, #b91c1c); padding: 0.25rem 0.75rem; margin-block: 0.5rem 0.75rem; }
.lc-actions { display: grid; gap: 0.75rem; }
`;
