import { css } from 'lit';

export const doctorPanelStyles = css`
  :host { display: block; }
  form { display: grid; gap: 0.625rem; border: 1px solid var(--tm-border, #d1d5db); border-radius: 0.5rem; padding: 0.75rem; margin-bottom: 1rem; }
  h2 { font-size: 1.1rem; margin: 0; }
  label { display: grid; gap: 0.25rem; font-size: 0.95rem; }
  input, textarea { font: inherit; padding: 0.5rem; border: 1px solid var(--tm-border, #6b7280); border-radius: 0.375rem; }
  textarea { min-height: 4rem; }
  fieldset { border: 1px dashed var(--tm-border, #d1d5db); border-radius: 0.375rem; display: grid; gap: 0.5rem; grid-template-columns: 1fr 1fr; }
  fieldset label:first-of-type { grid-column: 1 / -1; }
  legend { font-weight: 600; }
  button { font: inherit; min-height: 2.5rem; padding: 0.5rem 1rem; border-radius: 0.5rem; cursor: pointer; border: 1px solid var(--tm-primary, #1d4ed8); background: var(--tm-primary, #1d4ed8); color: #fff; justify-self: start; }
  button.secondary { background: transparent; color: var(--tm-primary, #1d4ed8); }
  .error { color: var(--tm-danger, #b91c1c); }
  .saved { color: var(--tm-success, #166534); }
  ul { padding-left: 1.25rem; margin: 0.25rem 0; }
  :focus-visible { outline: 3px solid var(--tm-focus, #f59e0b); outline-offset: 2px; }
`;
