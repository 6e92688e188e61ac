import { describe, expect, it } from 'vitest';
import { cssStringsPlugin, minifyCss } from '../../widget/build/vite-css-strings';

describe('the styles\' CSS strings at build time', () => {
  it('drops only the whitespace and comments a browser ignores: descendant combinators, value lists and quoted names stay', () => {
    const css = `
      /* the shell */
      lc-checkout .lc-bar > span ,  a:hover {
        margin: 0 var(--lc-s2) ;
        font-family: 'Segoe UI', sans-serif;
      }
      lc-checkout :focus-visible { outline: 3px solid var(--lc-focus, #f59e0b); }
    `;
    expect(minifyCss(css)).toBe(
      "lc-checkout .lc-bar>span,a:hover{margin:0 var(--lc-s2);font-family:'Segoe UI',sans-serif}lc-checkout :focus-visible{outline:3px solid var(--lc-focus,#f59e0b)}",
    );
  });

  it('minifies the template literals of styles files and keeps their interpolations; other files pass through', () => {
    const plugin = cssStringsPlugin() as { transform(code: string, id: string): { code: string } | null };
    const source = 'export const s = `${tokens}\n  a { color: red; }\n`;';
    expect(plugin.transform(source, '/repo/widget/lc-checkout/lc-checkout.styles.ts')?.code).toBe('export const s = `${tokens}a{color:red}`;');
    expect(plugin.transform(source, '/repo/widget/lc-offer/lc-offer.component.ts')).toBeNull();
  });
});
