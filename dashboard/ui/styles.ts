import { css } from 'lit';

/**
 * The dashboard's shared look: every page adopts it (`static styles = [dashStyles, css\`…\`]`). Colours reach 4.5:1 on
 * their backgrounds (axe runs on every page); controls are at least 44 px tall on touch screens.
 */
export const dashStyles = css`
  :host {
    display: block;
    color: #1a1f36;
    font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    --dash-primary: #4338ca;
    --dash-primary-dark: #3730a3;
    --dash-muted: #4f566b;
    --dash-border: #d8dbe3;
    --dash-danger: #b42318;
    --dash-ok: #067647;
    --dash-warn: #93370d;
    --dash-surface: #f6f7fb;
  }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; }
  h2 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; }
  p { margin: 0 0 0.75rem; }
  .muted { color: var(--dash-muted); }
  a { color: var(--dash-primary); }
  button, .button {
    font: inherit; min-height: 40px; padding: 0.45rem 0.9rem; border-radius: 8px; cursor: pointer;
    border: 1px solid var(--dash-primary); background: var(--dash-primary); color: #fff; text-decoration: none; display: inline-flex; align-items: center; gap: 0.4rem;
  }
  button:hover:not([disabled]) { background: var(--dash-primary-dark); }
  button.secondary, .button.secondary { background: #fff; color: var(--dash-primary); }
  button.secondary:hover:not([disabled]) { background: var(--dash-surface); }
  button.danger { background: var(--dash-danger); border-color: var(--dash-danger); }
  button[disabled] { opacity: 0.55; cursor: not-allowed; }
  :focus-visible { outline: 3px solid #6366f1; outline-offset: 2px; }
  label { display: block; font-weight: 600; margin: 0.75rem 0 0.25rem; }
  input, select, textarea {
    font: inherit; width: 100%; box-sizing: border-box; min-height: 40px; padding: 0.4rem 0.6rem;
    border: 1px solid #8a90a2; border-radius: 8px; background: #fff; color: inherit;
  }
  .hint { font-size: 0.85rem; color: var(--dash-muted); margin-top: 0.2rem; }
  .error { color: var(--dash-danger); }
  .field-error { margin: 0.25rem 0 0; font-size: 0.9rem; font-weight: 600; }
  [aria-invalid='true'] { border-color: var(--dash-danger); box-shadow: 0 0 0 1px var(--dash-danger); }
  [role='alert'].error { background: #fef3f2; border: 1px solid #fda29b; border-radius: 8px; padding: 0.6rem 0.8rem; margin: 0.75rem 0; }
  .notice { background: #eef4ff; border: 1px solid #a4bcfd; border-radius: 8px; padding: 0.6rem 0.8rem; margin: 0.75rem 0; }
  .card { background: #fff; border: 1px solid var(--dash-border); border-radius: 12px; padding: 1rem; margin: 0 0 1rem; }
  .row { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; }
  .spread { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: center; justify-content: space-between; }
  .table-wrap { position: relative; overflow-x: auto; border: 1px solid var(--dash-border); border-radius: 12px; background: #fff; }
  table { border-collapse: collapse; width: 100%; font-size: 0.92rem; }
  th, td { text-align: left; padding: 0.55rem 0.75rem; border-bottom: 1px solid var(--dash-border); vertical-align: top; }
  th { background: var(--dash-surface); font-weight: 600; white-space: nowrap; }
  tr:last-child td { border-bottom: none; }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
  code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.88em; word-break: break-all; }
  .badge { display: inline-block; padding: 0.05rem 0.5rem; border-radius: 999px; font-size: 0.8rem; font-weight: 600; background: #eef0f5; color: #1a1f36; }
  .badge.ok { background: #dcfae6; color: var(--dash-ok); }
  .badge.warn { background: #fef0c7; color: var(--dash-warn); }
  .badge.bad { background: #fee4e2; color: var(--dash-danger); }
  .badge.test { background: #fef0c7; color: var(--dash-warn); }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  @media (pointer: coarse) { button, .button, input, select { min-height: 44px; } }
  /*
   * A table of class "cards" becomes one card per row on a phone: nothing scrolls sideways, every cell is labelled by
   * its column (the cell's data-label), amounts and the row's actions stay in view.
   */
  @media (max-width: 640px) {
    .table-wrap.has-cards { overflow-x: visible; }
    table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
    table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; }
    table.cards tr { padding: 0.6rem 0.75rem; border-bottom: 1px solid var(--dash-border); }
    table.cards tr:last-child { border-bottom: none; }
    table.cards td { display: flex; justify-content: space-between; align-items: baseline; gap: 0.75rem; padding: 0.2rem 0; border: none; text-align: right; min-width: 0; }
    table.cards td > * { min-width: 0; }
    /* Visual only (empty alternative text): a screen reader has the column header, and the cell's name stays its value. */
    table.cards td::before { content: attr(data-label); content: attr(data-label) / ''; flex: none; font-weight: 600; color: var(--dash-muted); text-align: left; }
    table.cards td.num { text-align: right; }
    table.cards td.actions { display: block; padding-top: 0.4rem; white-space: normal; }
    table.cards td.actions::before { content: none; }
    table.cards td.actions .row { justify-content: flex-end; }
  }
`;
