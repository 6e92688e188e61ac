/** Light-DOM styles of the checkout shell, scoped by the element name; themed through custom properties. */
export const checkoutStyles = `
lc-checkout {
  display: block; max-width: 32rem; margin-inline: auto; padding: 1rem;
  font-family: var(--lc-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
  color: var(--lc-text, #111827); line-height: 1.5;
}
h1.lc-page-title {
  max-width: 32rem; margin: 1rem auto 0; padding-inline: 1rem; font-size: 1.5rem;
  font-family: var(--lc-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif); color: var(--lc-text, #111827);
}
lc-checkout .lc-head { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 0.5rem; }
lc-checkout .lc-language { display: flex; gap: 0.375rem; align-items: center; font-size: 0.875rem; color: var(--lc-muted, #4b5563); }
lc-checkout .lc-language select { font: inherit; min-height: 2.75rem; padding: 0.25rem 0.5rem; border: 1px solid var(--lc-border, #6b7280); border-radius: var(--lc-radius, 0.5rem); background: var(--lc-surface, #fff); color: var(--lc-text, #111827); }
lc-checkout .lc-org { margin: 0; color: var(--lc-muted, #4b5563); font-size: 0.875rem; }
lc-checkout .lc-progress { margin: 0.25rem 0 0; color: var(--lc-muted, #4b5563); font-size: 0.875rem; }
lc-checkout h2 { font-size: 1.375rem; margin: 0.5rem 0 0.75rem; }
lc-checkout h2:focus { outline: none; }
lc-checkout h2:focus-visible { outline: 3px solid var(--lc-focus, #f59e0b); outline-offset: 2px; }
lc-checkout .lc-error { color: var(--lc-danger, #b91c1c); }
lc-checkout button {
  font: inherit; min-height: 2.75rem; padding: 0.5rem 1rem; border-radius: var(--lc-radius, 0.5rem); cursor: pointer;
  border: 1px solid var(--lc-primary, #1d4ed8); background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff);
}
lc-checkout .lc-exit { margin-top: 1.5rem; }
lc-checkout .lc-exit button { background: transparent; color: var(--lc-primary, #1d4ed8); }
lc-checkout .lc-visually-hidden {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
}
lc-checkout :focus-visible { outline: 3px solid var(--lc-focus, #f59e0b); outline-offset: 2px; }
`;
