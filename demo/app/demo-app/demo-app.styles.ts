import { css } from 'lit';

export const appStyles = css`
  /*
   * One screen, no scrolling, from a 1024×768 projector up: the story, the phone (a 360×640 screen
   * in a 384×688 frame, scaled by --phone-scale) and the inbox and feed side by side, all as tall
   * as the phone. Narrow windows stack them instead.
   */
  :host {
    display: block;
    min-height: 100vh;
    background: #eef1f5;
    color: #1b1f24;
    font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    --brand: #0a5c36;
    --phone-scale: 1;
    --column-height: calc(688px * var(--phone-scale));
  }
  .top { display: flex; align-items: center; justify-content: space-between; gap: 1rem; min-height: 44px; padding: .25rem 1rem; background: var(--brand); color: #fff; }
  .top > div { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 1rem; }
  h1 { margin: 0; font-size: 1.0625rem; }
  .top p { margin: 0; font-size: .8125rem; }
  .grid { display: grid; grid-template-columns: minmax(0, 380px) auto minmax(0, 1fr); gap: .75rem; padding: .75rem 1rem; align-items: start; }
  .grid > * { min-width: 0; }
  .story { box-sizing: border-box; background: #fff; border: 1px solid #d5dae1; border-radius: 12px; padding: .875rem 1rem 1rem; max-height: var(--column-height); overflow: auto; }
  .phone-col { display: flex; justify-content: center; }
  .side { display: grid; grid-template-rows: minmax(0, 36%) minmax(0, 1fr); gap: .75rem; height: var(--column-height); }
  h2 { margin: 0 0 .5rem; font-size: 1.125rem; line-height: 1.3; }
  h2:focus { outline: none; }
  .step { margin: 0 0 .125rem; font-size: .75rem; font-weight: 700; letter-spacing: .06em; text-transform: uppercase; color: var(--brand); }
  .scenario-name { font-weight: 600; letter-spacing: 0; text-transform: none; color: #4a5360; }
  .caption { margin: 0 0 .75rem; }
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
  .waiting { margin: 0 0 1rem; padding: .5rem .75rem; border-left: 4px solid #8a6d00; border-radius: 6px; background: #fff8e1; font-size: .875rem; }
  .secondary { flex: none; min-height: 36px; padding: .25rem .875rem; border: 1px solid #fff; background: transparent; color: #fff; font-weight: 600; white-space: nowrap; }
  .actions { display: grid; gap: .5rem; margin: 0 0 1rem; }
  .alert { margin: 0 0 1rem; padding: .5rem .75rem; border-radius: 8px; background: #fdecec; color: #8a1c1c; }
  /* The run's facts as tiles, two a row: what changes (loan, direct debit, money) first. */
  dl { display: grid; grid-template-columns: repeat(auto-fill, minmax(7.25rem, 1fr)); column-gap: .75rem; margin: 0; border-top: 1px solid #e4e8ee; font-size: .875rem; }
  dl div { padding: .3125rem 0; border-bottom: 1px solid #e4e8ee; }
  dt { font-size: .75rem; color: #4a5360; }
  dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
  /* The run's state tile takes a whole row: its pill ("Awaiting acceptance") is wider than a tile and would lie over its neighbour. */
  dl div.state { grid-column: 1 / -1; }
  .status { display: inline-block; box-sizing: border-box; max-width: 100%; padding: 0 .5rem; border-radius: 999px; background: #e6ecf5; color: #0a3d5c; font-size: .8125rem; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; vertical-align: top; }
  .status[data-status='completed'], .status[data-status='active'] { background: #e6f4ec; color: var(--brand); }
  .status[data-status='rejected'], .status[data-status='under_review'], .status[data-status='declined'], .status[data-status='terms_declined'] { background: #fdecec; color: #8a1c1c; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  @media (max-width: 1279px), (max-height: 819px) {
    :host { --phone-scale: .92; }
  }
  @media (max-width: 1279px) {
    .grid { grid-template-columns: minmax(0, 1fr) auto minmax(0, 1fr); }
  }
  @media (max-height: 739px) {
    :host { --phone-scale: .86; }
  }
  @media (max-height: 679px) {
    :host { --phone-scale: .75; }
  }
  @media (max-width: 899px) {
    :host { --phone-scale: .86; }
    .grid { grid-template-columns: minmax(0, 1fr); }
    .story { max-height: none; }
    .side { height: auto; grid-template-rows: 16rem 24rem; }
  }
  @media (max-width: 360px) {
    :host { --phone-scale: .8; }
  }
`;
