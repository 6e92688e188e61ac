/** Shadow-DOM styles of the passkey offer; themed through the same custom properties. */
export const passkeyStyles = `
:host { display: block; }
.lc-actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1rem; }
button {
  font: inherit; min-height: 2.75rem; padding: 0.5rem 1rem; border-radius: var(--lc-radius, 0.5rem); cursor: pointer;
  border: 1px solid var(--lc-primary, #1d4ed8); background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff);
}
button.lc-secondary { background: transparent; color: var(--lc-link, #1d4ed8); border-color: var(--lc-link, #1d4ed8); }
button:disabled { opacity: 0.6; cursor: not-allowed; }
:focus-visible { outline: 3px solid var(--lc-focus, #f59e0b); outline-offset: 2px; }
.lc-error { color: var(--lc-danger, #b91c1c); }
`;
