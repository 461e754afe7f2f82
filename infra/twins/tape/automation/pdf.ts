/**
 * create_pdf (docs/vendors/tape.md#automation-actions): renders the action's HTML templates to a real PDF
 * with pdf-lib. The twin has no HTML layout engine, so markup becomes text: block tags break lines,
 * other tags are dropped, entities decoded; page size, orientation, margins, header, footer and page
 * numbers follow the config.
 */
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';

/** Page sizes in points (1/72 in). */
const SIZES: Record<string, [number, number]> = {
  letter: [612, 792],
  tabloid: [792, 1224],
  legal: [612, 1008],
  a3: [842, 1191],
  a4: [595, 842],
  a5: [420, 595],
  envelope_10: [297, 684],
};
/** Margin presets in points: normal 1 in, narrow 0.5 in, moderate 1 in × 0.75 in, wide 1 in × 2 in. */
const MARGINS: Record<string, { top: number; right: number; bottom: number; left: number }> = {
  normal: { top: 72, right: 72, bottom: 72, left: 72 },
  narrow: { top: 36, right: 36, bottom: 36, left: 36 },
  moderate: { top: 72, right: 54, bottom: 72, left: 54 },
  wide: { top: 72, right: 144, bottom: 72, left: 144 },
};

export interface PdfInput {
  body: string;
  header: string;
  headerFollowing: string | null;
  footer: string;
  footerFollowing: string | null;
  pageSize: string;
  customSize: [number, number] | null;
  orientation: string;
  margins: string;
  customMargins: { top: number; right: number; bottom: number; left: number } | null;
  pageNumbers: boolean;
  pageNumberStyle: string;
  pageNumberStart: number;
  title: string;
}

/** HTML to lines of text: block elements and <br> end lines, the rest of the markup is dropped. */
export function htmlText(html: string): string[] {
  const text = html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li[^>]*>/gi, '\n• ')
    .replace(/<\/(p|div|h[1-6]|li|tr|table|ul|ol|section|header|footer)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  return text.split('\n').map((l) => l.replace(/\s+/g, ' ').trim()).filter((l, i, all) => l !== '' || (i > 0 && all[i - 1] !== ''));
}

/** The standard fonts encode WinAnsi only: anything else becomes '?'. */
function printable(s: string): string {
  return s.replace(/[^\x20-\x7e\u00a0-\u00ff•€]/g, '?');
}

function wrap(line: string, font: PDFFont, size: number, width: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const word of line.split(' ')) {
    const next = cur ? `${cur} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width || !cur) cur = next;
    else {
      out.push(cur);
      cur = word;
    }
  }
  out.push(cur);
  return out;
}

function roman(n: number): string {
  const table: [number, string][] = [[1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i']];
  let s = '';
  for (const [v, r] of table) while (n >= v) (s += r), (n -= v);
  return s;
}

function latin(n: number): string {
  let s = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(97 + ((k - 1) % 26)) + s;
  return s;
}

/** The page_number_style tokens of docs/vendors/tape.md#automation-actions. */
export function pageNumber(n: number, style: string): string {
  switch (style) {
    case 'decimal_leading_zero': return n < 10 ? `0${n}` : String(n);
    case 'lower_latin': return latin(n);
    case 'upper_latin': return latin(n).toUpperCase();
    case 'lower_roman': return roman(n);
    case 'upper_roman': return roman(n).toUpperCase();
    default: return String(n);
  }
}

export async function renderPdf(input: PdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(input.title);
  doc.setProducer('Tape twin');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  let [w, h] = input.pageSize === 'custom_size' && input.customSize ? input.customSize : (SIZES[input.pageSize] ?? SIZES.a4!);
  if (input.orientation === 'landscape') [w, h] = [Math.max(w, h), Math.min(w, h)];
  const m = input.margins === 'custom_margins' && input.customMargins ? input.customMargins : (MARGINS[input.margins] ?? MARGINS.normal!);
  const size = 11;
  const lead = size * 1.4;
  const width = Math.max(w - m.left - m.right, 50);
  const lines = htmlText(input.body).flatMap((l) => (l === '' ? [''] : wrap(printable(l), font, size, width)));
  const perPage = Math.max(1, Math.floor((h - m.top - m.bottom) / lead));
  const pages = Math.max(1, Math.ceil(lines.length / perPage));
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([w, h]);
    lines.slice(p * perPage, (p + 1) * perPage).forEach((line, i) => page.drawText(line, { x: m.left, y: h - m.top - size - i * lead, size, font }));
    const header = p > 0 && input.headerFollowing !== null ? input.headerFollowing : input.header;
    const footer = p > 0 && input.footerFollowing !== null ? input.footerFollowing : input.footer;
    const small = 9;
    if (header) page.drawText(printable(htmlText(header).join(' ')), { x: m.left, y: h - m.top / 2, size: small, font });
    const foot = [footer ? printable(htmlText(footer).join(' ')) : '', input.pageNumbers ? pageNumber(input.pageNumberStart + p, input.pageNumberStyle) : ''].filter(Boolean).join('   ');
    if (foot) page.drawText(foot, { x: m.left, y: m.bottom / 2, size: small, font });
  }
  return doc.save();
}
