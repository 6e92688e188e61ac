/**
 * The checkout's design system: one spacing scale, one type scale and the states of controls
 * (focus, invalid, disabled), as `--lc-*` custom properties defined once on `lc-checkout` with zero
 * specificity (`:where`), so a partner's own `lc-checkout { --lc-… }` rule always wins. Custom
 * properties cross shadow boundaries, so every step reads the same scale.
 *
 * Spacing (4 px grid): `--lc-s1` 4 · `--lc-s2` 8 · `--lc-s3` 12 · `--lc-s4` 16 · `--lc-s5` 24 · `--lc-s6` 32.
 * Type: `--lc-t-xs` 12 · `--lc-t-sm` 14 · `--lc-t-md` 16 (body, and every input: iOS zooms below 16) ·
 * `--lc-t-lg` 18 · `--lc-t-xl` 20 (step headings) · `--lc-t-2xl` 28 (the offer's headline amount);
 * weights 400 body, 500 labels, 600 headings and buttons, 700 amounts. Controls are 48 px tall; a
 * step's primary action (`part="button primary"`) spans the width, as a thumb expects on a phone.
 * Colours (`--lc-primary`, `--lc-on-primary`, `--lc-link`, `--lc-text`, `--lc-muted`, `--lc-border`,
 * `--lc-surface`, `--lc-subtle`, `--lc-danger`, `--lc-success`, `--lc-focus`) keep their fallbacks at
 * each use: the theme (`theme.ts`) sets the brand ones with the AA guarantee.
 */
export const designTokens = `
:where(lc-checkout) {
  --lc-s1: 0.25rem; --lc-s2: 0.5rem; --lc-s3: 0.75rem; --lc-s4: 1rem; --lc-s5: 1.5rem; --lc-s6: 2rem;
  --lc-t-xs: 0.75rem; --lc-t-sm: 0.875rem; --lc-t-md: 1rem; --lc-t-lg: 1.125rem; --lc-t-xl: 1.25rem; --lc-t-2xl: 1.75rem;
  --lc-control: 3rem;
  --lc-font: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
}
`;

/**
 * What every step rendered in its own shadow root shares (fields, text inputs, buttons, errors,
 * focus): the checkout's document styles do not reach inside. Themed through the same `--lc-*`
 * custom properties, which do cross the shadow boundary (as do inherited font and colour).
 */
export const stepBaseStyles = `
:host { display: block; }
:host([hidden]) { display: none; }
p { margin-block: 0 var(--lc-s3); }
.lc-visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.lc-error { color: var(--lc-danger, #b91c1c); font-size: var(--lc-t-sm); }
a { color: var(--lc-link, #1d4ed8); }
:focus-visible { outline: 3px solid var(--lc-focus, #f59e0b); outline-offset: 2px; }
.lc-field { display: grid; gap: var(--lc-s1); margin-block: var(--lc-s4); }
.lc-field > label { font-weight: 500; }
.lc-field > span:not(.lc-error) { font-size: var(--lc-t-sm); color: var(--lc-muted, #4b5563); }
input:not([type='radio'], [type='checkbox']), select, textarea {
  font: inherit; font-size: var(--lc-t-md); box-sizing: border-box; width: 100%; min-height: var(--lc-control);
  padding: var(--lc-s2) var(--lc-s3); border: 1px solid var(--lc-border, #6b7280); border-radius: var(--lc-radius, 0.5rem);
  color: var(--lc-text, #111827); background: var(--lc-surface, #fff);
}
input:focus, select:focus, textarea:focus { border-color: var(--lc-primary, #1d4ed8); box-shadow: 0 0 0 1px var(--lc-primary, #1d4ed8); }
[aria-invalid='true'] { border-color: var(--lc-danger, #b91c1c); }
button {
  font: inherit; font-weight: 600; min-height: var(--lc-control); padding: var(--lc-s2) var(--lc-s5); border-radius: var(--lc-radius, 0.5rem); cursor: pointer;
  border: 1px solid var(--lc-primary, #1d4ed8); background: var(--lc-primary, #1d4ed8); color: var(--lc-on-primary, #fff);
}
[part~='primary'] { width: 100%; }
button.lc-secondary { background: transparent; color: var(--lc-link, #1d4ed8); border-color: var(--lc-border, #6b7280); }
button:disabled { opacity: 0.6; cursor: not-allowed; }
.lc-actions { display: grid; gap: var(--lc-s3); margin-top: var(--lc-s5); }
`;
