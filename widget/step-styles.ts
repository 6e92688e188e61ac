/**
 * What every step rendered in its own shadow root shares (fields, text inputs, buttons, errors, focus): the checkout's
 * document styles do not reach inside. Themed through the same `--lc-*` custom properties, which
 * do cross the shadow boundary (as do inherited font and colour).
 */
export const stepBaseStyles = `
:host { display: block; }
:host([hidden]) { display: none; }
.lc-visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.lc-error { color: var(--lc-danger, #b91c1c); }
a { color: var(--lc-link, #1d4ed8); }
:focus-visible { outline: 3px solid var(--lc-focus, #f59e0b); outline-offset: 2px; }
.lc-field { display: grid; gap: 0.375rem; margin-block: 0.75rem; }
input:not([type='radio'], [type='checkbox']), select, textarea {
  font: inherit; padding: 0.625rem 0.75rem; border: 1px solid var(--lc-border, #6b7280); border-radius: var(--lc-radius, 0.5rem);
  color: var(--lc-text, #111827); background: var(--lc-surface, #fff);
}
button {
  font: inherit; min-height: 2.75rem; padding: 0.5rem 1rem; border-radius: var(--lc-radius, 0.5rem); cursor: pointer;
  border: 1px solid var(--lc-primary, #1d4ed8); background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff);
}
button.lc-secondary { background: transparent; color: var(--lc-link, #1d4ed8); border-color: var(--lc-link, #1d4ed8); }
button:disabled { opacity: 0.6; cursor: not-allowed; }
`;
