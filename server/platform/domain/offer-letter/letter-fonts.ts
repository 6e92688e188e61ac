import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import { loadOnce } from '../../../shared/load-once';

/**
 * Noto Sans for letters, from `@fontsource/noto-sans`. That package ships the font split into
 * subsets by Unicode range, and the letters' languages need three of them: `latin` (ASCII, é, the
 * combining grave/acute/macron/dot below), `latin-ext` (Hausa ɓ ɗ ƙ ƴ, Yoruba ṣ, Igbo ṅ, ₦) and
 * `vietnamese` (Yoruba and Igbo ẹ ọ ị ụ and their capitals). No single subset covers a Yoruba
 * name, so every string is cut into runs, each drawn with the first subset whose `unicode-range`
 * (the package's `unicode.json`) has every code point of a grapheme (a base letter with its combining marks stays in one subset, which keeps
 * the marks positioned by that font's `mark` feature). pdfkit (fontkit) embeds each used subset.
 */
const SUBSETS = ['latin', 'latin-ext', 'vietnamese'] as const;
export type LetterWeight = 'regular' | 'bold';
const WEIGHT_FILES: Record<LetterWeight, string> = { regular: '400', bold: '700' };

/** A font parsed by pdfkit's own fontkit, shared by every letter (parsing is most of a letter's cost). */
export interface ParsedFont {
  layout(text: string, features?: unknown): unknown;
}

export interface LetterFont {
  /** The name registered with pdfkit. */
  name: string;
  font: ParsedFont;
  covers: ReadonlySet<number>;
}

export type LetterFonts = Record<LetterWeight, readonly LetterFont[]>;

const require = createRequire(import.meta.url);

/** `"U+0300-0301,U+0323"` → the code points, as the package's `unicode.json` lists each subset's range. */
export function parseUnicodeRange(range: string): Set<number> {
  const points = new Set<number>();
  for (const part of range.split(',')) {
    const match = /^U\+([0-9A-F]+)(?:-([0-9A-F]+))?$/i.exec(part.trim());
    if (!match) throw new Error(`not a unicode-range: ${part}`);
    const first = parseInt(match[1]!, 16);
    const last = match[2] ? parseInt(match[2], 16) : first;
    for (let code = first; code <= last; code++) points.add(code);
  }
  return points;
}

type Fontkit = { create(bytes: Uint8Array): ParsedFont };

/** The fontkit pdfkit itself depends on (and accepts parsed fonts from), not a second copy. */
async function loadFontkit(): Promise<Fontkit> {
  const path = createRequire(require.resolve('pdfkit')).resolve('fontkit');
  const module = (await import(pathToFileURL(path).href)) as Fontkit & { default?: Fontkit };
  return typeof module.create === 'function' ? module : module.default!;
}

/**
 * WOFF 1.0 → the TrueType file it wraps (inflate each table, write the offset table). fontkit reads
 * WOFF directly but inflates tables again for every document it subsets, which made a letter some
 * five times slower; the plain file is built once.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF 1.0 file');
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, index) => {
    const at = 44 + index * 20;
    const [tag, offset, compLength, origLength, checksum] = [0, 4, 8, 12, 16].map((delta) => woff.readUInt32BE(at + delta)) as [number, number, number, number, number];
    const stored = woff.subarray(offset, offset + compLength);
    return { tag, checksum, data: compLength < origLength ? inflateSync(stored) : stored };
  });
  const headerSize = 12 + numTables * 16;
  const padded = (length: number) => (length + 3) & ~3;
  const out = Buffer.alloc(tables.reduce((sum, table) => sum + padded(table.data.length), headerSize));
  const entrySelector = Math.floor(Math.log2(numTables));
  out.writeUInt32BE(woff.readUInt32BE(4), 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(16 * 2 ** entrySelector, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(numTables * 16 - 16 * 2 ** entrySelector, 10);
  let offset = headerSize;
  tables.forEach((table, index) => {
    const at = 12 + index * 16;
    out.writeUInt32BE(table.tag, at);
    out.writeUInt32BE(table.checksum, at + 4);
    out.writeUInt32BE(offset, at + 8);
    out.writeUInt32BE(table.data.length, at + 12);
    table.data.copy(out, offset);
    offset += padded(table.data.length);
  });
  return out;
}

async function loadFont(fontkit: Fontkit, subset: string, weight: LetterWeight, ranges: Record<string, string>): Promise<LetterFont> {
  const path = require.resolve(`@fontsource/noto-sans/files/noto-sans-${subset}-${WEIGHT_FILES[weight]}-normal.woff`);
  return { name: `NotoSans-${subset}-${weight}`, font: fontkit.create(woffToSfnt(await readFile(path))), covers: parseUnicodeRange(ranges[subset]!) };
}

/** Loaded with the first letter and kept (six WOFF files, some 450 KB). */
export const loadLetterFonts = loadOnce(async (): Promise<LetterFonts> => {
  const fontkit = await loadFontkit();
  const ranges = JSON.parse(await readFile(require.resolve('@fontsource/noto-sans/unicode.json'), 'utf8')) as Record<string, string>;
  const [regular, bold] = await Promise.all(
    (['regular', 'bold'] as const).map((weight) => Promise.all(SUBSETS.map((subset) => loadFont(fontkit, subset, weight, ranges)))),
  );
  return { regular: regular!, bold: bold! };
});

export interface Run {
  font: string;
  text: string;
}

const GRAPHEME = /\P{M}\p{M}*|\p{M}+/gu;

/**
 * Cuts `text` into runs of one font each. A grapheme stays in the current run's font when that
 * font has it (fewer switches, kerning kept), else takes the first subset that has all its code
 * points (composed, then decomposed); a grapheme no subset has becomes "?", and a control
 * character a space, so nothing prints as an empty box.
 */
export function runsOf(fonts: readonly LetterFont[], text: string): Run[] {
  const runs: Run[] = [];
  let current: LetterFont | undefined;
  for (const grapheme of text.normalize('NFC').match(GRAPHEME) ?? []) {
    let piece = grapheme;
    const code = piece.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) piece = ' ';
    const has = (font: LetterFont, value: string) => [...value].every((c) => font.covers.has(c.codePointAt(0)!));
    let font = current && has(current, piece) ? current : fonts.find((f) => has(f, piece));
    if (!font) {
      const decomposed = piece.normalize('NFD');
      font = fonts.find((f) => has(f, decomposed));
      if (font) piece = decomposed;
    }
    if (!font) {
      piece = '?';
      font = fonts[0]!;
    }
    if (font === current) runs[runs.length - 1]!.text += piece;
    else runs.push({ font: font.name, text: piece });
    current = font;
  }
  return runs;
}
