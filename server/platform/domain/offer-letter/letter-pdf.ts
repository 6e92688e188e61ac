import { loadOnce } from '../../../shared/load-once';
import { loadLetterFonts, runsOf, type LetterFonts, type LetterWeight } from './letter-fonts';

/**
 * Layout primitives for letters, drawn in Noto Sans embedded from `@fontsource/noto-sans` (see
 * `letter-fonts.ts`), so Yoruba, Hausa and Igbo names and texts print with their marks. Text is
 * cut into one run per font subset; lines are measured and wrapped here, not by pdfkit's line
 * wrapper (which knows one font per string and dominates render time).
 */
export type Pdf = PDFKit.PDFDocument;

const MARGIN = 50;
const INK = '#1a1a1a';
const MUTED = '#555555';
const RULE = '#c8c8c8';
const STRIPE = '#f2f2f2';

export interface LetterPdfOptions {
  title: string;
  author: string;
  subject: string;
  createdAt: Date;
  /** Text printed at the foot of every page, given the 1-based page number and page count. */
  footer: (page: number, pages: number) => string;
}

/** pdfkit (with its font metrics, some 6 MB of heap) is loaded with the first document, not at startup. */
type PdfKit = new (options?: PDFKit.PDFDocumentOptions) => Pdf;
const loadPdfKit = loadOnce(() => import('pdfkit').then((module) => (module as unknown as { default: PdfKit }).default));

interface Typeface {
  fonts: LetterFonts;
  weight: LetterWeight;
  size: number;
}
const typefaces = new WeakMap<Pdf, Typeface>();

function typeface(doc: Pdf): Typeface {
  const face = typefaces.get(doc);
  if (!face) throw new Error('letter fonts are not registered on this document');
  return face;
}

/** Sets the weight and size every following measure and draw uses. */
function setFont(doc: Pdf, weight: LetterWeight, size: number): void {
  const face = typeface(doc);
  face.weight = weight;
  face.size = size;
  doc.font(face.fonts[weight][0]!.name).fontSize(size);
}

/** The width of `text` in the current weight and size, summed over its font runs. */
function widthOf(doc: Pdf, text: string): number {
  const face = typeface(doc);
  let width = 0;
  for (const run of runsOf(face.fonts[face.weight], text)) width += doc.font(run.font).widthOfString(run.text, { features: featuresOf(run.text) });
  return width;
}

function lineHeight(doc: Pdf): number {
  const face = typeface(doc);
  return doc.font(face.fonts[face.weight][0]!.name).currentLineHeight(true);
}

/** Draws one line at (x, y) without pdfkit's wrapper, leaving `doc.y` alone. */
function drawLine(doc: Pdf, text: string, x: number, y: number): void {
  const face = typeface(doc);
  let left = x;
  for (const run of runsOf(face.fonts[face.weight], text)) {
    doc.font(run.font);
    doc.text(run.text, left, y, { lineBreak: false, features: featuresOf(run.text) });
    left += doc.widthOfString(run.text, { features: featuresOf(run.text) });
  }
}

/**
 * Noto's `ccmp` feature decomposes a precomposed letter (ọ → o + dot below) into a glyph with no
 * code point of its own, which pdfkit writes into the ToUnicode map as nothing, and PDF.js then
 * extracts as a control character: copied text would not match. Precomposed letters have their
 * own glyphs, and combining marks are still placed by `mark`/`mkmk`, so `ccmp` is left off.
 */
const NO_CCMP = { ccmp: false } as unknown as PDFKit.Mixins.TextOptions['features'];
/** ASCII has nothing to decompose, and pdfkit caches the layout of words only without `features`. */
const featuresOf = (text: string) => (/^[\x20-\x7e]*$/.test(text) ? undefined : NO_CCMP);

const GRAPHEME = /\P{M}\p{M}*|\p{M}+/gu;

/** Greedy word wrap; a word wider than the line is broken between graphemes. */
function wrap(doc: Pdf, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  const push = (word: string) => {
    const candidate = line ? `${line} ${word}` : word;
    if (!line || widthOf(doc, candidate) <= width) {
      line = candidate;
      return;
    }
    lines.push(line);
    line = word;
  };
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (widthOf(doc, word) <= width) {
      push(word);
      continue;
    }
    let piece = '';
    for (const grapheme of word.normalize('NFC').match(GRAPHEME) ?? []) {
      if (piece && widthOf(doc, piece + grapheme) > width) {
        push(piece);
        piece = '';
      }
      piece += grapheme;
    }
    if (piece) push(piece);
  }
  if (line) lines.push(line);
  return lines.length ? lines : [''];
}

/**
 * Creates an A4 document, lets `draw` fill it, stamps the footer on every page and resolves with
 * the bytes. `CreationDate` comes from the caller, and pdfkit derives the file ID from the info
 * dictionary, so the same input gives the same bytes.
 */
export async function renderLetterPdf(options: LetterPdfOptions, draw: (doc: Pdf) => void): Promise<Buffer> {
  const [PDFDocument, fonts] = await Promise.all([loadPdfKit(), loadLetterFonts()]);
  return new Promise<Buffer>((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
      bufferPages: true,
      info: {
        Title: options.title,
        Author: options.author,
        Subject: options.subject,
        CreationDate: options.createdAt,
      },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      for (const font of [...fonts.regular, ...fonts.bold]) doc.registerFont(font.name, font.font as unknown as Buffer);
      typefaces.set(doc, { fonts, weight: 'regular', size: 10 });
      setFont(doc, 'regular', 10);
      doc.fillColor(INK);
      draw(doc);
      placeHeading(doc, 0);
      stampFooters(doc, options.footer);
      doc.end();
    } catch (error) {
      reject(error);
    }
  });
}

function stampFooters(doc: Pdf, footer: LetterPdfOptions['footer']): void {
  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index++) {
    doc.switchToPage(index);
    const text = footer(index - start + 1, count);
    setFont(doc, 'regular', 8);
    doc.fillColor(MUTED);
    // One line whatever the reference's length: shrink rather than run past the margin.
    const width = widthOf(doc, text);
    if (width > contentWidth(doc)) doc.fontSize((8 * contentWidth(doc)) / width);
    drawLine(doc, text, MARGIN, doc.page.height - MARGIN + 18);
  }
}

const contentWidth = (doc: Pdf) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
const bottomOf = (doc: Pdf) => doc.page.height - doc.page.margins.bottom;

/** Starts a new page unless `height` points still fit on this one. */
export function ensureSpace(doc: Pdf, height: number): void {
  if (doc.y + height > bottomOf(doc)) doc.addPage();
}

function singleLine(doc: Pdf, text: string, x: number, y: number): number {
  drawLine(doc, text, x, y);
  return lineHeight(doc);
}

interface Measured {
  lines: string[];
  height: number;
}

/** Measures once, so drawing need not measure again. */
function measure(doc: Pdf, text: string, width: number): Measured {
  const lines = widthOf(doc, text) <= width ? [text] : wrap(doc, text, width);
  return { lines, height: lines.length * lineHeight(doc) };
}

function draw(doc: Pdf, { lines }: Measured, x: number, y: number): void {
  const step = lineHeight(doc);
  lines.forEach((line, index) => drawLine(doc, line, x, y + index * step));
}

export function title(doc: Pdf, text: string, subtitle: string[]): void {
  placeHeading(doc, 0);
  let y = doc.y;
  setFont(doc, 'bold', 17);
  doc.fillColor(INK);
  y += singleLine(doc, text, MARGIN, y) + 4;
  setFont(doc, 'regular', 9);
  doc.fillColor(MUTED);
  for (const line of subtitle) y += singleLine(doc, line, MARGIN, y) + 1;
  doc.fillColor(INK);
  doc.y = y + 12;
}

/**
 * A section heading. It is drawn by the block that follows it (`placeHeading`), which knows its
 * own height: a heading always shares its page with the start of its section, never stranded at
 * the foot of one. `keepWithNext` asks for more of what follows to fit under it (a block kept whole).
 */
export function heading(doc: Pdf, text: string, keepWithNext = 0): void {
  placeHeading(doc, 0);
  pendingHeadings.set(doc, { text, keepWithNext });
}

const pendingHeadings = new WeakMap<Pdf, { text: string; keepWithNext: number }>();

/** Draws the pending heading, if any, on a page where `following` points of its section fit under it. */
function placeHeading(doc: Pdf, following: number): void {
  const pending = pendingHeadings.get(doc);
  if (!pending) return;
  pendingHeadings.delete(doc);
  const { weight, size } = typeface(doc);
  setFont(doc, 'bold', 12);
  ensureSpace(doc, 8 + lineHeight(doc) + 8 + Math.max(following, pending.keepWithNext));
  const top = doc.y + 8;
  doc.fillColor(INK);
  const y = top + singleLine(doc, pending.text, MARGIN, top) + 1;
  doc.moveTo(MARGIN, y).lineTo(MARGIN + contentWidth(doc), y).lineWidth(0.5).strokeColor(RULE).stroke();
  doc.y = y + 7;
  setFont(doc, weight, size);
}

/**
 * Starts the next part of a letter (the English text after the translated key facts) on a new
 * page, unless this page holds only the short tail of the part before (under a third of the page):
 * then the next part follows on it after a gap, so no page is left almost empty.
 */
export function startPart(doc: Pdf): void {
  placeHeading(doc, 0);
  const used = doc.y - doc.page.margins.top;
  if (used > (bottomOf(doc) - doc.page.margins.top) / 3) doc.addPage();
  else if (used > 0) doc.y += 24;
}

export function paragraph(doc: Pdf, text: string, options: { bold?: boolean } = {}): void {
  setFont(doc, options.bold ? 'bold' : 'regular', 10);
  doc.fillColor(INK);
  const width = contentWidth(doc);
  const value = measure(doc, text, width);
  placeHeading(doc, value.height);
  ensureSpace(doc, value.height);
  const top = doc.y;
  draw(doc, value, MARGIN, top);
  doc.x = MARGIN;
  doc.y = top + value.height + 5;
}

export type FactRows = ReadonlyArray<readonly [label: string, value: string]>;

const LABEL_WIDTH = 165;
const LABEL_GAP = 10;
const FACT_SPACING = 5;

function measureFacts(doc: Pdf, rows: FactRows) {
  const valueWidth = contentWidth(doc) - LABEL_WIDTH - LABEL_GAP;
  setFont(doc, 'regular', 10);
  return rows.map(([label, value]) => {
    const measured = { label: measure(doc, label, LABEL_WIDTH), value: measure(doc, value, valueWidth) };
    return { ...measured, valueWidth, height: Math.max(measured.label.height, measured.value.height) };
  });
}

/** The height `facts(doc, rows)` will take, to keep a block together. */
export function factsHeight(doc: Pdf, rows: FactRows): number {
  return measureFacts(doc, rows).reduce((sum, row) => sum + row.height + FACT_SPACING, 0);
}

/** Label / value pairs in two columns; a pair never splits across pages. */
export function facts(doc: Pdf, rows: FactRows): void {
  const measured = measureFacts(doc, rows);
  // The heading stays with the first two pairs.
  placeHeading(doc, measured.slice(0, 2).reduce((sum, row) => sum + row.height + FACT_SPACING, 0));
  for (const { label, value, height } of measured) {
    ensureSpace(doc, height + FACT_SPACING);
    const top = doc.y;
    doc.fillColor(MUTED);
    draw(doc, label, MARGIN, top);
    doc.fillColor(INK);
    draw(doc, value, MARGIN + LABEL_WIDTH + LABEL_GAP, top);
    doc.y = top + height + FACT_SPACING;
  }
  doc.x = MARGIN;
}

export interface Column<Row> {
  header: string;
  width: number;
  align: 'left' | 'right';
  cell: (row: Row) => string;
}

const ROW_HEIGHT = 13;
const CELL_PADDING = 4;

/**
 * A table that flows onto as many pages as it needs, repeating its header on each. Cells are
 * single lines drawn without pdfkit's line wrapper, which keeps long schedules fast; column
 * widths must fit the widest value.
 */
export function table<Row>(doc: Pdf, columns: ReadonlyArray<Column<Row>>, rows: readonly Row[], continuedTitle: string): void {
  const drawHeader = () => {
    setFont(doc, 'bold', 8.5);
    doc.fillColor(INK);
    drawCells(doc, columns, doc.y, (column) => column.header, (text) => widthOf(doc, text));
    const y = doc.y + ROW_HEIGHT;
    doc.moveTo(MARGIN, y - 2).lineTo(MARGIN + contentWidth(doc), y - 2).lineWidth(0.75).strokeColor(INK).stroke();
    doc.y = y;
    setFont(doc, 'regular', 8.5);
  };
  // Schedules repeat the same amounts row after row; measure each distinct one once.
  const widths = new Map<string, number>();
  const cachedWidth = (text: string) => {
    let width = widths.get(text);
    if (width === undefined) widths.set(text, (width = widthOf(doc, text)));
    return width;
  };
  placeHeading(doc, ROW_HEIGHT * 3);
  ensureSpace(doc, ROW_HEIGHT * 3);
  drawHeader();
  rows.forEach((row, index) => {
    if (doc.y + ROW_HEIGHT > bottomOf(doc)) {
      doc.addPage();
      setFont(doc, 'bold', 10);
      doc.fillColor(MUTED);
      doc.y += singleLine(doc, continuedTitle, MARGIN, doc.y) + 6;
      drawHeader();
    }
    const y = doc.y;
    if (index % 2 === 1) doc.rect(MARGIN, y - 3, contentWidth(doc), ROW_HEIGHT).fill(STRIPE).fillColor(INK);
    drawCells(doc, columns, y, (column) => column.cell(row), cachedWidth);
    doc.y = y + ROW_HEIGHT;
  });
  doc.x = MARGIN;
  doc.y += 6;
}

function drawCells<Row>(
  doc: Pdf,
  columns: ReadonlyArray<Column<Row>>,
  y: number,
  text: (column: Column<Row>) => string,
  measureWidth: (text: string) => number,
): void {
  let left = MARGIN;
  for (const column of columns) {
    const value = text(column);
    const x = column.align === 'right' ? left + column.width - CELL_PADDING - measureWidth(value) : left + CELL_PADDING;
    drawLine(doc, value, x, y);
    left += column.width;
  }
}
