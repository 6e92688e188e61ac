/**
 * lc-otp renders into the light DOM (so iOS/Android one-time-code autofill reaches its input);
 * its styles are scoped by the element name and themed through the same custom properties.
 */
export const otpStyles = `
lc-otp { display: block; }
lc-otp .lc-field { display: grid; gap: 0.375rem; margin-block: 1rem; }
lc-otp input {
  font: inherit; font-size: 1.5rem; letter-spacing: 0.4em; padding: 0.625rem 0.75rem; max-width: 12ch;
  border: 1px solid var(--lc-border, #6b7280); border-radius: var(--lc-radius, 0.5rem);
  color: var(--lc-text, #111827); background: var(--lc-surface, #fff);
}
lc-otp input[aria-invalid='true'] { border-color: var(--lc-danger, #b91c1c); }
lc-otp button {
  font: inherit; min-height: 2.75rem; padding: 0.5rem 1rem; border-radius: var(--lc-radius, 0.5rem); cursor: pointer;
  border: 1px solid var(--lc-primary, #1d4ed8); background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff);
}
lc-otp button.lc-secondary { background: transparent; color: var(--lc-link, #1d4ed8); border-color: var(--lc-link, #1d4ed8); }
lc-otp button:disabled { opacity: 0.6; cursor: not-allowed; }
lc-otp :focus-visible { outline: 3px solid var(--lc-focus, #f59e0b); outline-offset: 2px; }
lc-otp .lc-error { color: var(--lc-danger, #b91c1c); }
lc-otp .lc-muted { color: var(--lc-muted, #4b5563); }
lc-otp .lc-notice { margin: 0.5rem 0 0; padding: 0.5rem 0.75rem; border-radius: var(--lc-radius, 0.5rem); background: var(--lc-notice-bg, #eff6ff); color: var(--lc-text, #111827); }
lc-otp .lc-actions { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; }
`;
