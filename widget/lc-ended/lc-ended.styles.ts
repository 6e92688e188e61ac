/** lc-ended renders into the light DOM of the checkout shell; scoped by the element name, themed through the same custom properties. */
export const endedStyles = `
lc-ended { display: block; }
lc-ended .lc-actions { margin-block: 1rem; }
lc-ended .lc-error { color: var(--lc-danger, #b91c1c); }
lc-ended .lc-muted { color: var(--lc-muted, #4b5563); }
lc-ended .lc-sent { padding: 0.75rem; border-radius: var(--lc-radius, 0.5rem); background: var(--lc-notice-bg, #ecfdf5); }
lc-ended .lc-contact { margin-top: 1.25rem; }
lc-ended .lc-contact ul { list-style: none; padding: 0; margin: 0.25rem 0 0; display: grid; gap: 0.5rem; }
lc-ended .lc-contact a { color: var(--lc-link, #1d4ed8); display: inline-block; min-height: 2.75rem; line-height: 2.75rem; }
`;
