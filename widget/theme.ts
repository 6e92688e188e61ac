/**
 * Partner theming: a brand colour, a corner radius and a font, turned into the `--lc-*` custom
 * properties the components read. Whatever brand colour a partner picks, text stays WCAG AA: the
 * text on brand-coloured buttons is white, ink or black, the first reaching 4.5:1 (black or white
 * always does), and brand-coloured text on the white page is darkened until it reaches 4.5:1.
 */
export interface CheckoutTheme {
  /** Any CSS hex colour (`#1d4ed8`, `#0a0`) or `rgb(r, g, b)`. */
  brandColor?: string;
  /** A CSS length, e.g. `0.5rem` or `12px`. */
  radius?: string;
  /** A CSS font-family list. */
  fontFamily?: string;
}

type Rgb = [number, number, number];

export function parseColor(input: string): Rgb | undefined {
  const text = input.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(text);
  if (hex) {
    const digits = hex[1]!.length === 3 ? [...hex[1]!].map((d) => d + d).join('') : hex[1]!;
    return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as Rgb;
  }
  const rgb = /^rgba?\(\s*(\d{1,3})[\s,]+(\d{1,3})[\s,]+(\d{1,3})\s*(?:[,/]\s*[\d.]+%?\s*)?\)$/.exec(text);
  if (rgb) {
    const channels = rgb.slice(1, 4).map(Number) as Rgb;
    return channels.every((c) => c <= 255) ? channels : undefined;
  }
  return undefined;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2.x relative luminance. */
export function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const WHITE: Rgb = [255, 255, 255];
const INK: Rgb = [17, 24, 39]; // the components' text colour, #111827

const BLACK: Rgb = [0, 0, 0];

/**
 * The text colour for content on a brand-coloured surface: white, else the components' ink, else
 * black — the first that reaches 4.5:1. Black or white always does (the worst case, a surface of
 * luminance ≈ 0.18, still gives 4.58:1).
 */
export function textOn(brand: Rgb): Rgb {
  if (contrast(brand, WHITE) >= 4.5) return WHITE;
  if (contrast(brand, INK) >= 4.5) return INK;
  return BLACK;
}

/** The brand colour itself, darkened just enough to read as text (links, focus) on `background`. */
export function readableOn(brand: Rgb, background: Rgb = WHITE, ratio = 4.5): Rgb {
  let colour = brand;
  for (let step = 0; step < 100 && contrast(colour, background) < ratio; step += 1) {
    colour = colour.map((c) => c * 0.95) as Rgb;
  }
  return colour;
}

/** The custom properties for a theme; unknown or unparsable values are ignored (and reported). */
export function themeProperties(theme: CheckoutTheme): Record<string, string> {
  const props: Record<string, string> = {};
  if (theme.brandColor !== undefined) {
    const brand = parseColor(theme.brandColor);
    if (brand) {
      props['--lc-primary'] = toHex(brand);
      props['--lc-on-primary'] = toHex(textOn(brand));
      props['--lc-link'] = toHex(readableOn(brand));
    } else {
      console.warn('[LoanCheckout] theme.brandColor %o is not a hex or rgb() colour; keeping the default', theme.brandColor);
    }
  }
  if (theme.radius !== undefined && /^\d+(\.\d+)?(px|rem|em)$/.test(theme.radius.trim())) props['--lc-radius'] = theme.radius.trim();
  if (theme.fontFamily !== undefined && /^[\w\s,'"-]+$/.test(theme.fontFamily)) props['--lc-font'] = theme.fontFamily;
  return props;
}

/** Sets a theme's properties on an element (the mounted `lc-checkout`). */
export function applyTheme(element: HTMLElement, theme: CheckoutTheme | undefined): void {
  for (const [name, value] of Object.entries(themeProperties(theme ?? {}))) element.style.setProperty(name, value);
}
