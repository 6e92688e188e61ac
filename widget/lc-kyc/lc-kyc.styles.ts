/** Shadow-DOM styles of the KYC step. */
export const kycStyles = `
input[aria-invalid='true'] { border-color: var(--lc-danger, #b91c1c); }
`;
