import { css } from 'lit';

export const phoneStyles = css`
  /* The frame is 384×688 CSS pixels; --phone-scale (set by the page for the window) shrinks it, box and all, while the checkout inside keeps its 360×640 viewport. */
  :host { display: block; width: calc(384px * var(--phone-scale, 1)); height: calc(688px * var(--phone-scale, 1)); }
  .phone {
    width: 360px;
    padding: 14px 12px 18px;
    border-radius: 36px;
    background: #16191d;
    box-shadow: 0 12px 32px rgb(0 0 0 / 0.25);
    transform: scale(var(--phone-scale, 1));
    transform-origin: top left;
  }
  .speaker { width: 72px; height: 6px; margin: 0 auto 10px; border-radius: 3px; background: #3a3f46; }
  .screen { width: 360px; height: 640px; overflow: hidden; border-radius: 18px; background: #fff; }
  iframe { display: block; width: 360px; height: 640px; border: 0; }
  .placeholder { box-sizing: border-box; height: 100%; display: grid; place-items: center; padding: 2rem; text-align: center; color: #4a5360; background: #f3f5f8; }
  .placeholder p { margin: 0; font-size: 1rem; line-height: 1.5; }
`;
