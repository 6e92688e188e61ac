import { css } from 'lit';

export const fillsStyles = css`
  :host { display: block; }
  .fills { margin: 0 0 .75rem; padding: .5rem .625rem; border: 1px dashed #9fb3a8; border-radius: 10px; background: #f6fbf8; }
  .label { margin: 0 0 .375rem; font-size: .75rem; font-weight: 700; letter-spacing: .04em; text-transform: uppercase; color: #0a5c36; }
  .chips { display: flex; flex-wrap: wrap; gap: .375rem; }
  button { font: inherit; font-size: .875rem; min-height: 40px; padding: .25rem .75rem; border: 1px solid #0a5c36; border-radius: 999px; background: #fff; color: #0a5c36; font-weight: 600; cursor: pointer; }
  button.quiet { border-color: #8a6d00; color: #6b5400; }
  button[disabled] { border-color: #b8c0ca; color: #4a5360; cursor: default; font-weight: 500; }
  button:focus-visible { outline: 3px solid #f2b01e; outline-offset: 2px; }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; letter-spacing: .05em; }
  .note { margin: .375rem 0 0; font-size: .8125rem; color: #4a5360; }
  .note.error { color: #8a1c1c; }
`;
