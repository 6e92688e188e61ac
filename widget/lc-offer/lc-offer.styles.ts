/** Shadow-DOM styles of the offer step (on the design system's scale, `step-styles.ts`). */
export const offerStyles = `
.lc-hero { margin: 0 0 var(--lc-s4); padding: var(--lc-s4); border-radius: var(--lc-radius, 0.5rem); background: #f3f4f6; }
.lc-hero p { margin: 0; }
.lc-hero-label, .lc-hero-sub, .lc-note { font-size: var(--lc-t-sm); color: var(--lc-muted, #4b5563); }
.lc-hero .lc-hero-amount { font-size: var(--lc-t-lg); line-height: 1.3; margin-block: var(--lc-s1); }
.lc-hero-amount strong { font-size: var(--lc-t-2xl); font-weight: 700; font-variant-numeric: tabular-nums; }
dl { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: var(--lc-s2) 0; margin: 0 0 var(--lc-s3); font-size: 0.9375rem; }
dt { color: var(--lc-muted, #4b5563); }
dd { margin: 0; padding-inline-start: var(--lc-s3); text-align: end; font-variant-numeric: tabular-nums; }
.lc-total { font-weight: 700; color: var(--lc-text, #111827); padding-bottom: var(--lc-s2); border-bottom: 1px solid var(--lc-subtle, #e5e7eb); }
h3 { font-size: var(--lc-t-md); font-weight: 600; margin: var(--lc-s5) 0 var(--lc-s2); }
table { width: 100%; border-collapse: collapse; font-size: var(--lc-t-sm); margin-bottom: var(--lc-s3); font-variant-numeric: tabular-nums; }
th, td { padding: var(--lc-s2) 0; text-align: end; border-bottom: 1px solid var(--lc-subtle, #e5e7eb); }
th { font-weight: 500; color: var(--lc-muted, #4b5563); }
th:first-child, td:first-child { text-align: start; }
form { margin-top: var(--lc-s5); padding-top: var(--lc-s2); border-top: 1px solid var(--lc-subtle, #e5e7eb); }
.lc-check { display: flex; gap: var(--lc-s3); align-items: flex-start; margin-block: var(--lc-s4); }
.lc-check input { flex: none; width: 1.25rem; height: 1.25rem; margin-top: 0.15rem; }
`;
