import { loadOnce } from '../../../shared/load-once';
import { toWinAnsi } from './format-offer-letter';

/**
 * Layout primitives for letters drawn with pdfkit's built-in Helvetica (no embedded fonts, so
 * rendering stays fast and offline). Every string passes through `toWinAnsi` before it is drawn.
 */
export type Pdf = PDFKit.PDFDocument;

const MARGIN = 50;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
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

/**
 * Creates an A4 document, lets `draw` fill it, stamps the footer on every page and resolves with
 * the bytes. `CreationDate` comes from the caller, and pdfkit derives the file ID from the info
 * dictionary, so the same input gives the same bytes.
 */
export async function renderLetterPdf(options: LetterPdfOptions, draw: (doc: Pdf) => void): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  return new Promise<Buffer>((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
      bufferPages: true,
      info: {
        Title: toWinAnsi(options.title),
        Author: toWinAnsi(options.author),
        Subject: toWinAnsi(options.subject),
        CreationDate: options.createdAt,
      },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      doc.font(FONT).fontSize(10).fillColor(INK);
      draw(doc);
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
    const text = toWinAnsi(footer(index - start + 1, count));
    doc.font(FONT).fontSize(8).fillColor(MUTED);
    // One line whatever the reference's length: shrink rather than run past the margin.
    const width = doc.widthOfString(text);
    if (width > contentWidth(doc)) doc.fontSize((8 * contentWidth(doc)) / width);
    doc.text(text, MARGIN, doc.page.height - MARGIN + 18, { lineBreak: false });
  }
}

const contentWidth = (doc: Pdf) => doc.page.width - doc.page.margins.left - doc.page.margins.right;
const bottomOf = (doc: Pdf) => doc.page.height - doc.page.margins.bottom;

/** Starts a new page unless `height` points still fit on this one. */
export function ensureSpace(doc: Pdf, height: number): void {
  if (doc.y + height > bottomOf(doc)) doc.addPage();
}

/**
 * pdfkit's line wrapper dominates render time, so text that fits on one line is drawn without it
 * (`lineBreak: false`, which also leaves `doc.y` alone) and only longer text is wrapped.
 */
function singleLine(doc: Pdf, text: string, x: number, y: number): number {
  doc.text(text, x, y, { lineBreak: false });
  return doc.currentLineHeight(true);
}

interface Measured {
  text: string;
  oneLine: boolean;
  height: number;
}

/** Measures once, so drawing need not measure again (each measurement walks every glyph). */
function measure(doc: Pdf, text: string, width: number): Measured {
  const oneLine = doc.widthOfString(text) <= width;
  return { text, oneLine, height: oneLine ? doc.currentLineHeight(true) : doc.heightOfString(text, { width }) };
}

function draw(doc: Pdf, { text, oneLine }: Measured, x: number, y: number, width: number): void {
  if (oneLine) doc.text(text, x, y, { lineBreak: false });
  else doc.text(text, x, y, { width });
}

export function title(doc: Pdf, text: string, subtitle: string[]): void {
  let y = doc.y;
  doc.font(BOLD).fontSize(17).fillColor(INK);
  y += singleLine(doc, toWinAnsi(text), MARGIN, y) + 4;
  doc.font(FONT).fontSize(9).fillColor(MUTED);
  for (const line of subtitle) y += singleLine(doc, toWinAnsi(line), MARGIN, y) + 1;
  doc.fillColor(INK);
  doc.y = y + 12;
}

/** A section heading, moved to a new page unless `keepWithNext` points of what follows fit under it. */
export function heading(doc: Pdf, text: string, keepWithNext = 30): void {
  ensureSpace(doc, 30 + keepWithNext);
  const top = doc.y + 8;
  doc.font(BOLD).fontSize(12).fillColor(INK);
  const y = top + singleLine(doc, toWinAnsi(text), MARGIN, top) + 1;
  doc.moveTo(MARGIN, y).lineTo(MARGIN + contentWidth(doc), y).lineWidth(0.5).strokeColor(RULE).stroke();
  doc.y = y + 7;
  doc.font(FONT).fontSize(10);
}

export function paragraph(doc: Pdf, text: string, options: { bold?: boolean } = {}): void {
  doc.font(options.bold ? BOLD : FONT).fontSize(10).fillColor(INK);
  const width = contentWidth(doc);
  const value = measure(doc, toWinAnsi(text), width);
  ensureSpace(doc, value.height);
  const top = doc.y;
  draw(doc, value, MARGIN, top, width);
  doc.x = MARGIN;
  doc.y = top + value.height + 5;
}

export type FactRows = ReadonlyArray<readonly [label: string, value: string]>;

const LABEL_WIDTH = 165;
const LABEL_GAP = 10;
const FACT_SPACING = 5;

function measureFacts(doc: Pdf, rows: FactRows) {
  const valueWidth = contentWidth(doc) - LABEL_WIDTH - LABEL_GAP;
  doc.font(FONT).fontSize(10);
  return rows.map(([label, value]) => {
    const measured = { label: measure(doc, toWinAnsi(label), LABEL_WIDTH), value: measure(doc, toWinAnsi(value), valueWidth) };
    return { ...measured, valueWidth, height: Math.max(measured.label.height, measured.value.height) };
  });
}

/** The height `facts(doc, rows)` will take, to keep a block together. */
export function factsHeight(doc: Pdf, rows: FactRows): number {
  return measureFacts(doc, rows).reduce((sum, row) => sum + row.height + FACT_SPACING, 0);
}

/** Label / value pairs in two columns; a pair never splits across pages. */
export function facts(doc: Pdf, rows: FactRows): void {
  for (const { label, value, valueWidth, height } of measureFacts(doc, rows)) {
    ensureSpace(doc, height + FACT_SPACING);
    const top = doc.y;
    doc.fillColor(MUTED);
    draw(doc, label, MARGIN, top, LABEL_WIDTH);
    doc.fillColor(INK);
    draw(doc, value, MARGIN + LABEL_WIDTH + LABEL_GAP, top, valueWidth);
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
    doc.font(BOLD).fontSize(8.5).fillColor(INK);
    drawCells(doc, columns, doc.y, (column) => column.header, (text) => doc.widthOfString(text));
    const y = doc.y + ROW_HEIGHT;
    doc.moveTo(MARGIN, y - 2).lineTo(MARGIN + contentWidth(doc), y - 2).lineWidth(0.75).strokeColor(INK).stroke();
    doc.y = y;
    doc.font(FONT);
  };
  // Schedules repeat the same amounts row after row; measure each distinct one once.
  const widths = new Map<string, number>();
  const widthOf = (text: string) => {
    let width = widths.get(text);
    if (width === undefined) widths.set(text, (width = doc.widthOfString(text)));
    return width;
  };
  ensureSpace(doc, ROW_HEIGHT * 3);
  drawHeader();
  rows.forEach((row, index) => {
    if (doc.y + ROW_HEIGHT > bottomOf(doc)) {
      doc.addPage();
      doc.font(BOLD).fontSize(10).fillColor(MUTED);
      doc.y += singleLine(doc, toWinAnsi(continuedTitle), MARGIN, doc.y) + 6;
      drawHeader();
    }
    const y = doc.y;
    if (index % 2 === 1) doc.rect(MARGIN, y - 3, contentWidth(doc), ROW_HEIGHT).fill(STRIPE).fillColor(INK);
    drawCells(doc, columns, y, (column) => toWinAnsi(column.cell(row)), widthOf);
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
  widthOf: (text: string) => number,
): void {
  let left = MARGIN;
  for (const column of columns) {
    const value = text(column);
    const x = column.align === 'right' ? left + column.width - CELL_PADDING - widthOf(value) : left + CELL_PADDING;
    doc.text(value, x, y, { lineBreak: false });
    left += column.width;
  }
}
