import { css } from 'lit';

export const feedStyles = css`
  li { padding: .4375rem 0; border-bottom: 1px solid #eef1f5; animation: arrive .6s ease-out; }
  li:last-child { border-bottom: 0; }
  .row { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: .5rem; }
  .name { overflow-wrap: anywhere; }
  time { font-size: .75rem; color: #4a5360; font-variant-numeric: tabular-nums; }
  .name { font-weight: 600; font-size: .875rem; color: #0a3d5c; }
  .label { font-size: .8125rem; color: #1b1f24; }
  .summary { margin: .125rem 0 0; font-size: .8125rem; color: #4a5360; }
  details { margin-top: .125rem; font-size: .75rem; }
  summary { cursor: pointer; color: #0a5c36; }
  summary:focus-visible { outline: 2px solid #0a5c36; outline-offset: 2px; }
  pre { margin: .25rem 0 0; padding: .5rem; max-height: 12rem; overflow: auto; background: #f3f5f8; border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
  @keyframes arrive { from { background: #fff7d6; } to { background: transparent; } }
  @media (prefers-reduced-motion: reduce) { li { animation: none; } }
`;
