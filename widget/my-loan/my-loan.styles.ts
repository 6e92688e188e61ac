import { designTokens } from '../step-styles';

/**
 * Light-DOM styles of the loan page, scoped by its element names, on the checkout's design tokens (spacing and type
 * scales, 48 px controls, AA colours themed through the same `--lc-*` properties). A phone at 360 px first.
 */
export const myLoanStyles = `${designTokens.replace('lc-checkout', 'lc-my-loan')}
body:has(lc-my-loan) { margin: 0; }
h1.lc-page-title, lc-my-loan .lc-visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
lc-my-loan {
  display: block; max-width: 30rem; margin-inline: auto; padding: var(--lc-s3) var(--lc-s4) var(--lc-s5); box-sizing: border-box;
  font-family: var(--lc-font); font-size: var(--lc-t-md); color: var(--lc-text, #111827); line-height: 1.5; overflow-wrap: anywhere;
}
lc-my-loan p { margin-block: 0 var(--lc-s3); }
lc-my-loan .lc-badge {
  margin: calc(-1 * var(--lc-s3)) calc(-1 * var(--lc-s4)) var(--lc-s2); padding: 0.125rem; line-height: 1.25rem; text-align: center;
  font-size: var(--lc-t-xs); font-weight: 700; letter-spacing: 0.06em; text-transform: uppercase; background: #fef3c7; color: #7c2d12;
}
lc-my-loan .lc-bar { display: flex; flex-wrap: wrap; align-items: center; gap: var(--lc-s2); min-height: 2.5rem; padding-bottom: var(--lc-s3); border-bottom: 1px solid var(--lc-subtle, #e5e7eb); }
lc-my-loan .lc-name { flex: 1 1 auto; min-width: 0; font-weight: 600; font-size: var(--lc-t-lg); line-height: 1.25; }
lc-my-loan .lc-language { flex: none; margin-left: auto; position: relative; display: flex; align-items: center; color: var(--lc-muted, #4b5563); }
lc-my-loan .lc-language svg { position: absolute; left: var(--lc-s2); pointer-events: none; }
lc-my-loan .lc-language select {
  font: inherit; font-size: var(--lc-t-sm); min-height: 2.5rem; max-width: 10rem; field-sizing: content; padding: 0 var(--lc-s1) 0 1.75rem;
  border: 1px solid var(--lc-subtle, #e5e7eb); border-radius: 1.25rem; background: var(--lc-surface, #fff); color: var(--lc-text, #111827);
}
lc-my-loan h2 { font-size: var(--lc-t-xl); font-weight: 600; line-height: 1.25; margin: var(--lc-s4) 0 var(--lc-s3); }
lc-my-loan h3 { font-size: var(--lc-t-lg); font-weight: 600; line-height: 1.25; margin: var(--lc-s5) 0 var(--lc-s3); }
lc-my-loan h2:focus, lc-my-loan h3:focus { outline: none; }
lc-my-loan :focus-visible { outline: 3px solid var(--lc-focus, #f59e0b); outline-offset: 2px; }
lc-my-loan .lc-error { color: var(--lc-danger, #b91c1c); }
lc-my-loan .lc-muted { color: var(--lc-muted, #4b5563); font-size: var(--lc-t-sm); }
lc-my-loan .lc-notice { padding: var(--lc-s3); border-radius: var(--lc-radius, 0.5rem); background: var(--lc-notice-bg, #eff6ff); }
lc-my-loan .lc-success { padding: var(--lc-s3); border-radius: var(--lc-radius, 0.5rem); background: #ecfdf5; color: #065f46; }
lc-my-loan .lc-warning { padding: var(--lc-s3); border-radius: var(--lc-radius, 0.5rem); background: #fef2f2; color: #991b1b; }
lc-my-loan a { color: var(--lc-link, #1d4ed8); }
lc-my-loan button {
  font: inherit; font-weight: 600; min-height: var(--lc-control); padding: var(--lc-s2) var(--lc-s5); border-radius: var(--lc-radius, 0.5rem); cursor: pointer;
  border: 1px solid var(--lc-primary, #1d4ed8); background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff);
}
lc-my-loan button.lc-secondary { background: transparent; color: var(--lc-link, #1d4ed8); border-color: var(--lc-border, #6b7280); }
lc-my-loan button.lc-link { min-height: 2.75rem; padding: 0; border: 0; background: none; color: var(--lc-link, #1d4ed8); text-decoration: underline; font-weight: 500; text-align: left; }
lc-my-loan button:disabled { opacity: 0.6; cursor: not-allowed; }
lc-my-loan .lc-actions { display: grid; gap: var(--lc-s3); margin-top: var(--lc-s4); }
lc-my-loan .lc-field { display: grid; gap: var(--lc-s1); margin-block: var(--lc-s4); }
lc-my-loan .lc-field > label { font-weight: 500; }
lc-my-loan .lc-field > span:not(.lc-error) { font-size: var(--lc-t-sm); color: var(--lc-muted, #4b5563); }
lc-my-loan .lc-field .lc-error { font-size: var(--lc-t-sm); }
lc-my-loan .lc-field input {
  font: inherit; font-size: var(--lc-t-md); box-sizing: border-box; width: 100%; min-height: var(--lc-control);
  padding: var(--lc-s2) var(--lc-s3); border: 1px solid var(--lc-border, #6b7280); border-radius: var(--lc-radius, 0.5rem);
  color: var(--lc-text, #111827); background: var(--lc-surface, #fff);
}
lc-my-loan .lc-field input[aria-invalid='true'] { border-color: var(--lc-danger, #b91c1c); }
lc-my-loan lc-otp button:not(.lc-secondary) { width: 100%; }
lc-my-loan .lc-card { margin: var(--lc-s3) 0; padding: var(--lc-s4); border: 1px solid var(--lc-subtle, #e5e7eb); border-radius: var(--lc-radius, 0.5rem); background: var(--lc-surface, #fff); }
lc-my-loan .lc-loan-link { display: grid; gap: var(--lc-s1); width: 100%; text-align: left; background: var(--lc-surface, #fff); color: var(--lc-text, #111827); border-color: var(--lc-subtle, #e5e7eb); font-weight: 400; padding: var(--lc-s3) var(--lc-s4); }
lc-my-loan .lc-loan-link strong { font-size: var(--lc-t-lg); }
lc-my-loan .lc-amount { display: block; font-size: var(--lc-t-2xl); font-weight: 700; line-height: 1.2; font-variant-numeric: tabular-nums; }
lc-my-loan .lc-pill { display: inline-block; padding: 0 var(--lc-s2); border-radius: 1rem; font-size: var(--lc-t-sm); font-weight: 600; background: #f3f4f6; color: #374151; }
lc-my-loan .lc-pill.lc-paid { background: #d1fae5; color: #065f46; }
lc-my-loan .lc-pill.lc-late { background: #fee2e2; color: #991b1b; }
lc-my-loan .lc-pill.lc-due { background: #e0e7ff; color: #3730a3; }
lc-my-loan dl.lc-facts { display: grid; gap: var(--lc-s2); margin: var(--lc-s3) 0 0; }
lc-my-loan dl.lc-facts > div { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: baseline; gap: 0 var(--lc-s3); }
lc-my-loan dl.lc-facts dt { color: var(--lc-muted, #4b5563); font-size: var(--lc-t-sm); overflow-wrap: normal; }
lc-my-loan dl.lc-facts dd { margin: 0 0 0 auto; font-weight: 600; text-align: right; font-variant-numeric: tabular-nums; }
lc-my-loan .lc-back { margin-top: var(--lc-s3); }
lc-my-loan ul.lc-loans { list-style: none; margin: 0; padding: 0; display: grid; gap: var(--lc-s3); }
lc-my-loan ol.lc-list, lc-my-loan ul.lc-list { list-style: none; margin: 0; padding: 0; }
lc-my-loan .lc-list li { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: var(--lc-s1) var(--lc-s3); padding: var(--lc-s3) 0; border-bottom: 1px solid var(--lc-subtle, #e5e7eb); }
lc-my-loan .lc-list li > span:first-child { display: grid; }
lc-my-loan .lc-ref { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: var(--lc-t-xs); }
lc-my-loan .lc-foot { margin-top: var(--lc-s6); padding-top: var(--lc-s4); border-top: 1px solid var(--lc-subtle, #e5e7eb); text-align: center; }
lc-my-loan .lc-foot button { width: 100%; }
lc-my-loan .lc-gap { margin-top: var(--lc-s3); }
lc-my-loan .lc-contact { display: grid; gap: var(--lc-s1); }
`;
