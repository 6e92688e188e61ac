import { css } from 'lit';

export const inboxStyles = css`
  li { padding: .5rem 0; border-bottom: 1px solid #eef1f5; }
  li:last-child { border-bottom: 0; }
  .meta { display: flex; justify-content: space-between; font-size: .75rem; color: #4a5360; }
  .text { margin: .25rem 0 0; font-size: .875rem; overflow-wrap: anywhere; }
  .code { display: inline-block; margin-top: .25rem; padding: .125rem .5rem; border-radius: 6px; background: #e6f4ec; color: #0a5c36; font-size: 1.25rem; font-weight: 700; letter-spacing: .15em; }
`;
