import { dirname, join } from 'node:path';
import { invalidParameter, ToolError } from '../core/errors';
import { byteSize } from '../core/render';
import type { Block, ConvertedDoc, DocKind } from './document';

/**
 * File bytes → ConvertedDoc, offline. DOCX, XLSX, PPTX and PDF go through officeparser (one
 * maintained library: its AST keeps headings, lists, tables, sheets and slides; PDFs through
 * pdf.js); images (PNG, JPEG, GIF, WEBP) through tesseract.js with the English model of
 * @tesseract.js-data/eng read from node_modules — nothing is downloaded at run time. The
 * libraries are loaded here on first use only: no other tool pays for them. Every platform's
 * fileToMarkdown and analyzeFile convert through here; each supplies only the bytes and the name.
 */

export const CONVERT_LIMITS = {
  /** Bytes of a file converted at all. */
  bytes: 20 * 1024 * 1024,
  /** PDF pages converted; the rest is left out with a note. */
  pages: 50,
  /** Rows per sheet converted. */
  rowsPerSheet: 500,
  /** Slides converted. */
  slides: 200,
} as const;


const ZIP_KINDS: Record<string, DocKind> = { docx: 'docx', xlsx: 'xlsx', pptx: 'pptx' };
const ZIP_MIME: Record<string, DocKind> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
};

/** What the bytes are, by their first bytes (then the name or type for the ZIP-based formats). */
export function sniff(bytes: Uint8Array, name: string, mimetype: string): { kind: DocKind; format: string } | { kind: null; found: string } {
  const head = Buffer.from(bytes.subarray(0, 16));
  const ascii = head.toString('latin1');
  if (ascii.startsWith('%PDF')) return { kind: 'pdf', format: 'pdf' };
  if (head[0] === 0x89 && ascii.slice(1, 4) === 'PNG') return { kind: 'image', format: 'png' };
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { kind: 'image', format: 'jpeg' };
  if (ascii.startsWith('GIF8')) return { kind: 'image', format: 'gif' };
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return { kind: 'image', format: 'webp' };
  const ext = name.split('.').pop()?.toLowerCase() ?? '';
  if (ascii.startsWith('PK\x03\x04')) {
    const kind = ZIP_KINDS[ext] ?? ZIP_MIME[mimetype];
    return kind ? { kind, format: kind } : { kind: null, found: `a ZIP archive (${ext ? `.${ext}` : mimetype}) that is not DOCX, XLSX or PPTX` };
  }
  if (bytes.byteLength === 0) return { kind: null, found: 'an empty file' };
  const printable = [...bytes.subarray(0, 512)].every((c) => c === 9 || c === 10 || c === 13 || (c >= 32 && c !== 127));
  return { kind: null, found: `${mimetype || 'unknown type'}${ext ? ` (.${ext})` : ''}${printable ? ', plain text' : ''}` };
}

const SUPPORTED = 'PDF, DOCX, XLSX, PPTX, or an image (PNG, JPEG, GIF, WEBP)';

interface AstNode {
  type: string;
  text?: string;
  children?: AstNode[];
  metadata?: Record<string, any>;
}

const textOf = (n: AstNode): string => (n.text ?? (n.children ?? []).map(textOf).join('')).replace(/\s+/g, ' ').trim();

function rowsOf(n: AstNode, limit = Infinity): string[][] {
  const rows: string[][] = [];
  for (const r of n.children ?? []) {
    if (r.type !== 'row') continue;
    if (rows.length >= limit) break;
    const cells: string[] = [];
    for (const c of r.children ?? []) if (c.type === 'cell') cells[typeof c.metadata?.col === 'number' ? c.metadata.col : cells.length] = textOf(c);
    rows.push(Array.from(cells, (x) => x ?? ''));
  }
  return rows;
}

/** officeparser's nodes → blocks (recursing into pages, slides and sheets). */
function blocksOf(nodes: AstNode[], out: Block[], counts: { rowsCut: number }): void {
  for (const n of nodes) {
    switch (n.type) {
      case 'heading':
        if (textOf(n)) out.push({ type: 'heading', level: Number(n.metadata?.level) || 1, text: textOf(n) });
        break;
      case 'list':
        out.push({ type: 'list', ordered: n.metadata?.listType === 'ordered', depth: Number(n.metadata?.indentation) || 0, index: Number(n.metadata?.itemIndex) || 0, text: textOf(n) });
        break;
      case 'table': {
        const rows = rowsOf(n);
        if (rows.length) out.push({ type: 'table', rows });
        break;
      }
      case 'sheet': {
        const all = (n.children ?? []).filter((r) => r.type === 'row').length;
        const rows = rowsOf(n, CONVERT_LIMITS.rowsPerSheet);
        counts.rowsCut += all - rows.length;
        if (rows.length) out.push({ type: 'table', rows });
        break;
      }
      case 'page':
      case 'slide':
        blocksOf(n.children ?? [], out, counts);
        break;
      case 'image':
      case 'chart':
      case 'comment':
      case 'note':
        break;
      default:
        if (n.children?.some((c) => ['heading', 'table', 'list', 'paragraph'].includes(c.type))) blocksOf(n.children, out, counts);
        else if (textOf(n)) out.push({ type: 'paragraph', text: textOf(n) });
    }
  }
}

/** DOCX, XLSX, PPTX, PDF through officeparser. */
async function convertOffice(bytes: Uint8Array, kind: Exclude<DocKind, 'image'>, target: ConvertTarget, signal?: AbortSignal): Promise<ConvertedDoc> {
  const { OfficeParser } = await import('officeparser');
  // One page more than the limit: seeing it tells that the PDF is longer.
  const config = {
    fileType: kind,
    ignoreNotes: true,
    extractAttachments: false,
    ocr: false,
    ...(kind === 'pdf' ? { pdfParserConfig: { pages: `1-${CONVERT_LIMITS.pages + 1}` } } : {}),
    ...(signal ? { abortSignal: signal } : {}),
  };
  let ast: { content: AstNode[] };
  try {
    ast = (await OfficeParser.parseOffice(Buffer.from(bytes), config as never)) as unknown as { content: AstNode[] };
  } catch (err) {
    const code = (err as { officeIssue?: { code?: string } }).officeIssue?.code;
    throw corrupt(target, kind, code ?? (err instanceof Error ? err.message : String(err)));
  }
  let content = ast.content;
  let truncated: string | undefined;
  const partType = kind === 'pdf' ? 'page' : kind === 'xlsx' ? 'sheet' : kind === 'pptx' ? 'slide' : null;
  const parts = partType ? content.filter((n) => n.type === partType) : [];
  if (kind === 'pdf' && parts.length > CONVERT_LIMITS.pages) {
    content = content.filter((n) => n.type !== 'page' || parts.indexOf(n) < CONVERT_LIMITS.pages);
    truncated = `Only the first ${CONVERT_LIMITS.pages} pages were converted; the PDF has more.`;
  }
  if (kind === 'pptx' && parts.length > CONVERT_LIMITS.slides) {
    content = content.filter((n) => n.type !== 'slide' || parts.indexOf(n) < CONVERT_LIMITS.slides);
    truncated = `Only the first ${CONVERT_LIMITS.slides} of ${parts.length} slides were converted.`;
  }
  const blocks: Block[] = [];
  const counts = { rowsCut: 0 };
  let number = 0;
  for (const n of content) {
    if (n.type === partType) {
      number++;
      blocks.push({ type: 'part', part: partType as 'sheet' | 'slide' | 'page', number, ...(n.metadata?.sheetName ? { name: String(n.metadata.sheetName) } : {}) });
    }
    blocksOf([n], blocks, counts);
  }
  if (counts.rowsCut) truncated = `${truncated ? `${truncated} ` : ''}Sheets were cut to their first ${CONVERT_LIMITS.rowsPerSheet} rows (${counts.rowsCut} rows left out).`;
  return { kind, blocks, parts: Math.min(parts.length, kind === 'pdf' ? CONVERT_LIMITS.pages : Infinity), ...(truncated ? { truncated } : {}) };
}

/** The English model shipped in @tesseract.js-data/eng: the package names its folder; the smaller "best_int" build lies beside it. */
async function langPath(): Promise<string> {
  const data = (await import('@tesseract.js-data/eng')) as { langPath?: string; default?: { langPath: string } };
  return join(dirname(data.langPath ?? data.default!.langPath), '4.0.0_best_int');
}

/** Images through tesseract.js, offline: the model from node_modules, nothing cached to disk. */
async function convertImage(bytes: Uint8Array, format: string, target: ConvertTarget): Promise<ConvertedDoc> {
  const [{ createWorker }, { imageSize }] = await Promise.all([import('tesseract.js'), import('image-size')]);
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    throw corrupt(target, 'image', `not a readable ${format.toUpperCase()} image`);
  }
  const worker = await createWorker('eng', 1, { langPath: await langPath(), gzip: true, cacheMethod: 'none' } as never);
  try {
    const { data } = await worker.recognize(Buffer.from(bytes));
    const blocks: Block[] = data.text
      .split(/\n\s*\n/)
      .map((p) => p.replace(/\s*\n\s*/g, ' ').trim())
      .filter(Boolean)
      .map((text) => ({ type: 'paragraph' as const, text }));
    return { kind: 'image', blocks, parts: 1, ocr: true, image: { width: size.width ?? 0, height: size.height ?? 0, format } };
  } catch (err) {
    throw corrupt(target, 'image', err instanceof Error ? err.message : String(err));
  } finally {
    await worker.terminate();
  }
}

/** The file being converted, as the tool's caller knows it. */
export interface ConvertTarget {
  /** The tool parameter that named the file (errors name it): `file_id`, `item_id`. */
  parameter: string;
  /** How messages name the file: "File #60015", "File fi0003ec-…". */
  label: string;
  name: string;
  mimetype: string;
  /** What to do with a file too large to convert ("Use downloadFile for a link instead."). */
  instead: string;
}

/** A file over the conversion cap is refused before its bytes are fetched, when its size is known. */
export function checkConvertSize(size: number, target: ConvertTarget): void {
  if (size > CONVERT_LIMITS.bytes) {
    throw invalidParameter(target.parameter, `a file of at most ${byteSize(CONVERT_LIMITS.bytes)}`, `${target.label} is ${byteSize(size)}; files of at most ${byteSize(CONVERT_LIMITS.bytes)} are converted. ${target.instead}`);
  }
}

function corrupt(target: ConvertTarget, kind: string, why: string): ToolError {
  return invalidParameter(target.parameter, SUPPORTED, `The file looks like ${kind === 'image' ? 'an image' : `a ${kind.toUpperCase()}`} but could not be read (${why}): it may be corrupt or encrypted.`, { type_found: kind });
}

/** Converts a file's bytes; unsupported, corrupt or too large files are INVALID_PARAMETER naming the parameter and the type found. */
export async function convertFile(bytes: Uint8Array, target: ConvertTarget, signal?: AbortSignal): Promise<ConvertedDoc> {
  checkConvertSize(bytes.byteLength, target);
  const s = sniff(bytes, target.name, target.mimetype);
  if (s.kind === null) {
    throw invalidParameter(target.parameter, SUPPORTED, `${target.label} (${target.name}) is ${s.found}; only ${SUPPORTED} files are converted.`, { type_found: s.found });
  }
  return s.kind === 'image' ? convertImage(bytes, s.format, target) : convertOffice(bytes, s.kind, target, signal);
}
