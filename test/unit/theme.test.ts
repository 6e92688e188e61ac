import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contrast, parseColor, readableOn, textOn, themeProperties } from '../../widget/theme';

const rgb = fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }));

describe('partner theme', () => {
  it('parses hex and rgb() colours and refuses anything else', () => {
    expect(parseColor('#1D4ED8')).toEqual([29, 78, 216]);
    expect(parseColor('#0a0')).toEqual([0, 170, 0]);
    expect(parseColor('rgb(255, 0, 10)')).toEqual([255, 0, 10]);
    expect(parseColor('rgba(1 2 3 / 50%)')).toEqual([1, 2, 3]);
    expect(parseColor('rgb(256, 0, 0)')).toBeUndefined();
    expect(parseColor('red; background: url(x)')).toBeUndefined();
  });

  it('matches the WCAG contrast of known pairs', () => {
    expect(contrast([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrast([119, 119, 119], [255, 255, 255])).toBeCloseTo(4.48, 2);
  });

  it('text on any brand colour reaches AA (4.5:1)', () => {
    fc.assert(fc.property(rgb, (brand) => contrast(textOn(brand), brand) >= 4.5), { numRuns: 2000 });
  });

  it('brand-coloured text on white reaches AA, and a dark enough brand is left as it is', () => {
    fc.assert(fc.property(rgb, (brand) => contrast(readableOn(brand), [255, 255, 255]) >= 4.5), { numRuns: 2000 });
    expect(readableOn([29, 78, 216])).toEqual([29, 78, 216]);
  });

  it('turns a theme into custom properties, ignoring what is not a colour, a length or a font list', () => {
    expect(themeProperties({ brandColor: '#ffd700', radius: '12px', fontFamily: "'Inter', sans-serif" })).toEqual({
      '--lc-primary': '#ffd700',
      '--lc-on-primary': '#111827',
      '--lc-link': expect.stringMatching(/^#[0-9a-f]{6}$/),
      '--lc-radius': '12px',
      '--lc-font': "'Inter', sans-serif",
    });
    expect(themeProperties({ brandColor: 'javascript:alert(1)', radius: '1px; color: red', fontFamily: 'x;}' })).toEqual({});
  });
});
