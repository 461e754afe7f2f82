/**
 * A converted document in one shape for every format: the blocks fileToMarkdown renders and
 * analyzeFile measures. Built from officeparser's AST (DOCX, XLSX, PPTX, PDF) or from OCR text
 * (images); nothing here parses a file format.
 */

export type DocKind = 'pdf' | 'docx' | 'xlsx' | 'pptx' | 'image';

export type Block =
  | { type: 'heading'; level: number; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'list'; ordered: boolean; depth: number; index: number; text: string }
  | { type: 'table'; rows: string[][] }
  /** A sheet, slide or page starts: markdown gets a heading or a separator for it. */
  | { type: 'part'; part: 'sheet' | 'slide' | 'page'; number: number; name?: string };

export interface ConvertedDoc {
  kind: DocKind;
  blocks: Block[];
  /** Pages (PDF), sheets (XLSX) or slides (PPTX) in the file, as far as read. */
  parts: number;
  /** Set when only part of the file was converted, saying what was left out. */
  truncated?: string;
  /** Image size in pixels (images). */
  image?: { width: number; height: number; format: string };
  /** Set when the text came from OCR. */
  ocr?: boolean;
}

const cell = (s: string) => s.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();

function tableMarkdown(rows: string[][]): string {
  const width = Math.max(...rows.map((r) => r.length));
  const pad = (r: string[]) => Array.from({ length: width }, (_, i) => cell(r[i] ?? ''));
  const [head, ...body] = rows;
  return [`| ${pad(head!).join(' | ')} |`, `| ${Array(width).fill('---').join(' | ')} |`, ...body.map((r) => `| ${pad(r).join(' | ')} |`)].join('\n');
}

/** Markdown of the blocks: headings, paragraphs, lists and tables kept; sheets and slides as level-2 headings. */
export function toMarkdown(doc: ConvertedDoc): string {
  const out: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (list.length) out.push(list.join('\n'));
    list = [];
  };
  for (const b of doc.blocks) {
    if (b.type === 'list') {
      list.push(`${'  '.repeat(b.depth)}${b.ordered ? `${b.index + 1}.` : '-'} ${b.text}`);
      continue;
    }
    flush();
    if (b.type === 'heading') out.push(`${'#'.repeat(Math.min(6, Math.max(1, b.level)))} ${b.text}`);
    else if (b.type === 'paragraph') out.push(b.text);
    else if (b.type === 'table') out.push(tableMarkdown(b.rows));
    else if (b.part === 'sheet') out.push(`## Sheet: ${b.name ?? b.number}`);
    else if (b.part === 'slide') out.push(`## Slide ${b.number}`);
    else if (b.number > 1) out.push('---');
  }
  flush();
  const md = out.join('\n\n');
  return doc.truncated ? `${md}\n\n> ${doc.truncated}` : md;
}

/** The text alone (no markup): what the markdown carries, for word counts and token comparisons. */
export function plainTextOf(doc: ConvertedDoc): string {
  return doc.blocks
    .map((b) => (b.type === 'table' ? b.rows.map((r) => r.join(' ')).join('\n') : b.type === 'part' ? '' : b.text))
    .filter(Boolean)
    .join('\n');
}
