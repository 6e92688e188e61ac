/** lc-ended renders into the light DOM of the checkout shell (whose button styles it uses); scoped by the element name. */
export const endedStyles = `
lc-ended .lc-error { color: var(--lc-danger, #b91c1c); }
lc-ended .lc-sent { padding: 0.75rem; border-radius: var(--lc-radius, 0.5rem); background: var(--lc-notice-bg, #ecfdf5); }
lc-ended a { color: var(--lc-link, #1d4ed8); display: inline-block; min-height: 2.75rem; line-height: 2.75rem; }
`;
