import { css } from 'lit';

/** Phone first: one column, tiles stacked; two columns from 720px. Themed by --tm-* custom properties. */
export const meetingStyles = css`
  :host { display: block; font-family: var(--tm-font, system-ui, sans-serif); color: var(--tm-text, #111827); max-width: 1100px; margin: 0 auto; padding: 0.75rem; }
  h1, h2 { line-height: 1.2; }
  h1 { font-size: 1.4rem; margin: 0.25rem 0 0.5rem; }
  h2 { font-size: 1.1rem; }
  .notice { background: var(--tm-notice, #eff6ff); border-radius: 0.5rem; padding: 0.5rem 0.75rem; margin: 0.5rem 0; }
  .error { color: var(--tm-danger, #b91c1c); }
  .layout { display: grid; gap: 1rem; }
  @media (min-width: 720px) { .layout.doctor { grid-template-columns: 3fr 2fr; } }
  .tiles { display: grid; gap: 0.5rem; grid-template-columns: 1fr; }
  @media (min-width: 520px) { .tiles { grid-template-columns: 1fr 1fr; } }
  figure { margin: 0; position: relative; background: #0b1020; border-radius: 0.5rem; overflow: hidden; aspect-ratio: 4 / 3; }
  video { width: 100%; height: 100%; object-fit: cover; display: block; }
  figcaption { position: absolute; left: 0.5rem; bottom: 0.5rem; color: #fff; background: rgba(0, 0, 0, 0.55); padding: 0.125rem 0.5rem; border-radius: 0.25rem; font-size: 0.875rem; }
  .audio-only { display: grid; place-items: center; height: 100%; color: #e5e7eb; font-size: 2rem; }
  .controls { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.75rem 0; }
  button { font: inherit; min-height: 2.75rem; padding: 0.5rem 1rem; border-radius: 0.5rem; cursor: pointer; border: 1px solid var(--tm-primary, #1d4ed8); background: var(--tm-primary, #1d4ed8); color: #fff; }
  button.secondary { background: transparent; color: var(--tm-primary, #1d4ed8); }
  button.danger { background: var(--tm-danger, #b91c1c); border-color: var(--tm-danger, #b91c1c); }
  button:disabled { opacity: 0.6; cursor: not-allowed; }
  :focus-visible { outline: 3px solid var(--tm-focus, #f59e0b); outline-offset: 2px; }
  .status { color: var(--tm-muted, #4b5563); font-size: 0.9rem; }
`;
