/** Shadow-DOM styles of the financing identity step. */
export const identityStyles = `
input[aria-invalid='true'] { border-color: var(--lc-danger, #b91c1c); }
`;
