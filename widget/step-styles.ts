/**
 * What every step rendered in its own shadow root needs besides its own rules: the checkout's
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
`;
