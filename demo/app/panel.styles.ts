import { css } from 'lit';

/** Shared look of the demo's side panels. */
export const panelStyles = css`
  :host { display: block; min-height: 0; }
  .panel { display: flex; flex-direction: column; height: 100%; box-sizing: border-box; background: #fff; border: 1px solid #d5dae1; border-radius: 12px; }
  .panel > header { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: .5rem; padding: .5rem .875rem; border-bottom: 1px solid #e4e8ee; }
  .panel > header h2 { white-space: nowrap; }
  h2 { margin: 0; font-size: .9375rem; }
  .hint { margin: 0; font-size: .8125rem; color: #4a5360; }
  .body { flex: 1; min-height: 0; overflow: auto; padding: .5rem .875rem .75rem; }
  .empty { color: #4a5360; font-size: .875rem; margin: .5rem 0; }
  .error { color: #8a1c1c; font-size: .8125rem; margin: .25rem 0; }
  ol, ul { list-style: none; margin: 0; padding: 0; }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
`;
