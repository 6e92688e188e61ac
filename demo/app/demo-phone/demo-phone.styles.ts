import { css } from 'lit';

export const phoneStyles = css`
  :host { display: block; }
  .phone {
    width: 360px;
    padding: 14px 12px 18px;
    border-radius: 36px;
    background: #16191d;
    box-shadow: 0 12px 32px rgb(0 0 0 / 0.25);
    transform-origin: top center;
  }
  .speaker { width: 72px; height: 6px; margin: 0 auto 10px; border-radius: 3px; background: #3a3f46; }
  .screen { width: 360px; height: 640px; overflow: hidden; border-radius: 18px; background: #fff; }
  iframe { display: block; width: 360px; height: 640px; border: 0; }
  .placeholder { box-sizing: border-box; height: 100%; display: grid; place-items: center; padding: 2rem; text-align: center; color: #4a5360; background: #f3f5f8; }
  .placeholder p { margin: 0; font-size: 1rem; line-height: 1.5; }
  @media (max-height: 760px) {
    .phone { transform: scale(0.86); margin-bottom: calc(-0.14 * 672px); }
  }
`;
