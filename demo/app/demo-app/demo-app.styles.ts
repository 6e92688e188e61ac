import { css } from 'lit';

export const appStyles = css`
  :host {
    display: block;
    min-height: 100vh;
    background: #eef1f5;
    color: #1b1f24;
    font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    --brand: #0a5c36;
  }
  .top { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: .5rem 1.25rem; background: var(--brand); color: #fff; }
  h1 { margin: 0; font-size: 1.125rem; }
  .top p { margin: 0; font-size: .8125rem; }
  .grid { display: grid; grid-template-columns: minmax(290px, 360px) 384px minmax(300px, 1fr); gap: 1rem; padding: 1rem 1.25rem; align-items: start; }
  .story { box-sizing: border-box; background: #fff; border: 1px solid #d5dae1; border-radius: 12px; padding: 1rem; max-height: calc(100vh - 5.5rem); overflow: auto; }
  .phone-col { display: flex; justify-content: center; }
  .side { display: grid; grid-template-rows: minmax(150px, 34%) 1fr; gap: 1rem; height: min(672px, calc(100vh - 5.5rem)); min-height: 420px; }
  h2 { margin: 0 0 .5rem; font-size: 1.125rem; line-height: 1.3; }
  h2:focus { outline: none; }
  .step { margin: 0 0 .125rem; font-size: .75rem; font-weight: 700; letter-spacing: .06em; text-transform: uppercase; color: var(--brand); }
  .caption { margin: 0 0 1rem; }
  fieldset { margin: 0 0 1rem; padding: 0; border: 0; display: grid; gap: .5rem; }
  legend { padding: 0; margin-bottom: .5rem; font-weight: 600; }
  .scenario { display: flex; gap: .625rem; align-items: flex-start; padding: .5rem .75rem; border: 1px solid #d5dae1; border-radius: 10px; cursor: pointer; }
  .scenario:has(input:checked) { border-color: var(--brand); background: #eef8f2; }
  .scenario input { margin-top: .25rem; accent-color: var(--brand); }
  .scenario strong { display: block; font-size: .9375rem; }
  .scenario span span { display: block; font-size: .8125rem; color: #4a5360; }
  button { font: inherit; min-height: 44px; padding: .5rem 1rem; border-radius: 10px; cursor: pointer; }
  button:focus-visible, input:focus-visible { outline: 3px solid #f2b01e; outline-offset: 2px; }
  .primary { width: 100%; border: 0; background: var(--brand); color: #fff; font-weight: 600; }
  .primary[disabled] { opacity: .6; cursor: progress; }
  .start { position: sticky; bottom: -1rem; margin: 0 -1rem -1rem; padding: .75rem 1rem 1rem; background: #fff; border-top: 1px solid #e4e8ee; }
  .quiet { width: 100%; border: 2px solid var(--brand); background: #fff; color: var(--brand); font-weight: 600; }
  .note { margin: -.25rem 0 0; font-size: .8125rem; color: #4a5360; }
  .secondary { border: 1px solid #fff; background: transparent; color: #fff; font-weight: 600; }
  .actions { display: grid; gap: .5rem; margin: 0 0 1rem; }
  .alert { margin: 0 0 1rem; padding: .5rem .75rem; border-radius: 8px; background: #fdecec; color: #8a1c1c; }
  dl { margin: 0; border-top: 1px solid #e4e8ee; font-size: .875rem; }
  dl div { display: flex; justify-content: space-between; gap: 1rem; padding: .375rem 0; border-bottom: 1px solid #e4e8ee; }
  dt { color: #4a5360; }
  dd { margin: 0; font-weight: 600; text-align: right; overflow-wrap: anywhere; }
  .status { display: inline-block; padding: 0 .5rem; border-radius: 999px; background: #e6ecf5; color: #0a3d5c; }
  .status[data-status='completed'], .status[data-status='active'] { background: #e6f4ec; color: var(--brand); }
  .status[data-status='rejected'], .status[data-status='under_review'], .status[data-status='declined'], .status[data-status='terms_declined'] { background: #fdecec; color: #8a1c1c; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  @media (max-width: 1100px) {
    .grid { grid-template-columns: 1fr; }
    .story, .side { max-height: none; height: auto; }
    .side { grid-template-rows: auto auto; }
  }
`;
