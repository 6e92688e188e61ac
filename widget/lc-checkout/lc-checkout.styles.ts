import { designTokens } from '../step-styles';

/** Light-DOM styles of the checkout shell, scoped by the element name; themed through custom properties. */
export const checkoutStyles = `${designTokens}
lc-checkout {
  display: block; max-width: 30rem; margin-inline: auto; padding: var(--lc-s3) var(--lc-s4) var(--lc-s5); box-sizing: border-box;
  font-family: var(--lc-font); font-size: var(--lc-t-md);
  color: var(--lc-text, #111827); line-height: 1.5;
}
/* The hosted page (server/checkout/page.ts, the only page with this h1): no body margin on a phone. */
body:has(.lc-page-title) { margin: 0; }
h1.lc-page-title, lc-checkout .lc-visually-hidden {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
}
lc-checkout p { margin-block: 0 var(--lc-s3); }
lc-checkout .lc-bar { display: flex; flex-wrap: wrap; align-items: center; gap: var(--lc-s2); min-height: 2.5rem; padding-bottom: var(--lc-s3); border-bottom: 1px solid var(--lc-subtle, #e5e7eb); }
lc-checkout .lc-brand { flex: 1 1 auto; min-width: 0; display: flex; align-items: center; }
lc-checkout .lc-logo { display: block; height: 2rem; width: auto; max-width: 100%; object-fit: contain; }
lc-checkout .lc-name { font-weight: 600; font-size: var(--lc-t-lg); line-height: 1.25; overflow-wrap: anywhere; }
lc-checkout .lc-badge {
  margin: calc(-1 * var(--lc-s3)) calc(-1 * var(--lc-s4)) var(--lc-s2); padding: 0.125rem; line-height: 1.25rem; text-align: center;
  font-size: var(--lc-t-xs); font-weight: 700; letter-spacing: 0.06em; text-transform: uppercase; background: #fef3c7; color: #7c2d12;
}
lc-checkout .lc-language { flex: none; margin-left: auto; position: relative; display: flex; align-items: center; color: var(--lc-muted, #4b5563); }
lc-checkout .lc-language svg { position: absolute; left: var(--lc-s2); pointer-events: none; }
lc-checkout .lc-language select {
  font: inherit; font-size: var(--lc-t-sm); min-height: 2.5rem; max-width: 10rem; field-sizing: content; padding: 0 var(--lc-s1) 0 1.75rem;
  border: 1px solid var(--lc-subtle, #e5e7eb); border-radius: 1.25rem; background: var(--lc-surface, #fff); color: var(--lc-text, #111827);
}
lc-checkout .lc-progress { display: flex; align-items: center; gap: var(--lc-s3); margin: var(--lc-s4) 0 0; font-size: var(--lc-t-sm); color: var(--lc-muted, #4b5563); }
lc-checkout .lc-meter { flex: 1; display: flex; gap: var(--lc-s1); }
lc-checkout .lc-meter span { flex: 1; height: 0.25rem; border-radius: 1rem; background: var(--lc-subtle, #e5e7eb); }
lc-checkout .lc-meter .lc-on { background: var(--lc-primary, #1d4ed8); }
lc-checkout h2 { font-size: var(--lc-t-xl); font-weight: 600; line-height: 1.25; margin: var(--lc-s3) 0 var(--lc-s4); }
lc-checkout h2:focus { outline: none; }
lc-checkout .lc-error { color: var(--lc-danger, #b91c1c); }
lc-checkout button {
  font: inherit; font-weight: 600; min-height: var(--lc-control); padding: var(--lc-s2) var(--lc-s5); border-radius: var(--lc-radius, 0.5rem); cursor: pointer;
  border: 1px solid var(--lc-primary, #1d4ed8); background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff);
}
/* The phone step renders in the light DOM: its main action spans the width like every step's primary action. */
lc-checkout lc-otp button:not(.lc-secondary) { width: 100%; }
lc-checkout .lc-exit { margin-top: var(--lc-s5); }
lc-checkout .lc-exit button { background: transparent; color: var(--lc-link, #1d4ed8); border-color: var(--lc-border, #6b7280); }
lc-checkout .lc-done { text-align: center; padding-top: var(--lc-s4); }
lc-checkout .lc-done svg { width: 3rem; height: 3rem; padding: var(--lc-s3); border-radius: 50%; background: #d1fae5; color: var(--lc-success, #047857); }
lc-checkout .lc-receipt { margin: var(--lc-s5) 0; padding: 0 var(--lc-s4); border-radius: var(--lc-radius, 0.5rem); background: #f3f4f6; }
lc-checkout .lc-receipt dt { padding-top: var(--lc-s3); font-size: var(--lc-t-sm); color: var(--lc-muted, #4b5563); }
lc-checkout .lc-receipt dd { margin: 0; padding-bottom: var(--lc-s3); font-weight: 600; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
lc-checkout .lc-receipt dd:not(:last-child) { border-bottom: 1px solid var(--lc-subtle, #e5e7eb); }
lc-checkout .lc-done ~ p { text-align: center; font-size: var(--lc-t-sm); color: var(--lc-muted, #4b5563); }
lc-checkout .lc-ref { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: var(--lc-t-xs); font-weight: 500; }
lc-checkout .lc-foot { margin-top: var(--lc-s6); padding-top: var(--lc-s4); border-top: 1px solid var(--lc-subtle, #e5e7eb); font-size: var(--lc-t-sm); color: var(--lc-muted, #4b5563); text-align: center; }
lc-checkout .lc-foot p { display: flex; flex-wrap: wrap; justify-content: center; align-items: center; gap: var(--lc-s1) var(--lc-s4); margin: 0 0 var(--lc-s2); }
lc-checkout .lc-foot p:first-child { gap: var(--lc-s1); }
lc-checkout .lc-foot a { color: inherit; }
lc-checkout :focus-visible { outline: 3px solid var(--lc-focus, #f59e0b); outline-offset: 2px; }
`;
