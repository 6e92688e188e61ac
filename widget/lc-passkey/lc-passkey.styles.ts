/** Shadow-DOM styles of the passkey offer; themed through the same custom properties. */
export const passkeyStyles = `
.lc-actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1rem; }
`;
