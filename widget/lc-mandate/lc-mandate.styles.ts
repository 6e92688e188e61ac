/** Shadow-DOM styles of the mandate step. */
export const mandateStyles = `
input[aria-invalid='true'] { border-color: var(--lc-danger, #b91c1c); }
a.lc-rail-link {
  display: inline-block; font: inherit; min-height: 2.75rem; box-sizing: border-box; padding: 0.5rem 1rem; border-radius: var(--lc-radius, 0.5rem);
  border: 1px solid var(--lc-primary, #1d4ed8); background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff); text-decoration: none;
}
`;
