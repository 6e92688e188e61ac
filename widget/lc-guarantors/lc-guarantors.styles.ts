/** Shadow-DOM styles of the guarantors step. */
export const guarantorStyles = `
ul { padding-inline-start: 1.25rem; }
.lc-actions { display: flex; flex-wrap: wrap; gap: 0.75rem; }
`;
