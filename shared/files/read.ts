import { analysisText, analyze, type FileAnalysis } from './analysis';
import { checkConvertSize, convertFile, CONVERT_LIMITS, type ConvertTarget } from './convert';
import { toMarkdown, type ConvertedDoc } from './document';
import { byteSize } from '../core/render';

/**
 * What every platform's fileToMarkdown and analyzeFile share: the pipeline (size known → checked
 * before the download; bytes → converted), the result shapes, their text and their descriptions.
 * A platform's tool supplies how to find the file (name, type, size) and how to fetch its bytes.
 */

/** The file as its platform describes it, and how to fetch its bytes. */
export interface DocumentSource extends ConvertTarget {
  /** The size the platform reports, when it does: a file over the cap is refused without a download. */
  size?: number;
  bytes(): Promise<Uint8Array>;
}

export interface ReadDocument {
  doc: ConvertedDoc;
  name: string;
  mimetype: string;
  size: number;
}

export async function readDocument(source: DocumentSource): Promise<ReadDocument> {
  if (source.size !== undefined) checkConvertSize(source.size, source);
  const bytes = await source.bytes();
  return { doc: await convertFile(bytes, source), name: source.name, mimetype: source.mimetype, size: bytes.byteLength };
}

/** fileToMarkdown's answer, beside the platform's id key. */
export interface MarkdownOf {
  name: string;
  kind: string;
  markdown: string;
  truncated?: string;
}

export const markdownOf = ({ doc, name }: ReadDocument): MarkdownOf => ({ name, kind: doc.kind, markdown: toMarkdown(doc), ...(doc.truncated ? { truncated: doc.truncated } : {}) });

export const markdownText = (r: MarkdownOf): string => r.markdown || `(no text found in ${r.name})`;

export const analysisOf = (r: ReadDocument): Promise<FileAnalysis> => analyze(r.doc, r);

export { analysisText, type FileAnalysis };

const MEDIA_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  txt: 'text/plain',
  csv: 'text/csv',
};

/** The media type of a file name, for platforms whose files carry none (ShareFile's items). */
export const mediaTypeOf = (name: string): string => MEDIA_TYPES[name.toLowerCase().split('.').pop() ?? ''] ?? 'application/octet-stream';

const FORMATS = 'PDF, DOCX, XLSX, PPTX, and images (JPG, PNG, GIF, WEBP) by OCR (English)';

/** fileToMarkdown's description; `which` says which file the tool reads and by what id. */
export function fileToMarkdownDescription(which: string): string {
  return (
    `Convert ${which} to markdown so its content can be read: ${FORMATS}. Headings, paragraphs, lists and tables are kept; each spreadsheet sheet ` +
    'becomes a "## Sheet: name" heading with a markdown table, each slide a "## Slide n" heading. Large files are capped ' +
    `(${byteSize(CONVERT_LIMITS.bytes)}; first ${CONVERT_LIMITS.pages} PDF pages; ${CONVERT_LIMITS.rowsPerSheet} rows per sheet) with a note saying what was left out. ` +
    'Another file type, or a corrupt file, is refused naming the type found. For the structure only (page count, outline, tables, language) use ' +
    'analyzeFile, which returns far less text. Read-only.'
  );
}

/** analyzeFile's description. */
export function analyzeFileDescription(which: string): string {
  return (
    `Describe the structure of ${which} without returning its content (no model involved): kind, size, pages/sheets (with rows×columns)/slides or image ` +
    'dimensions, word count, likely language (ISO 639-3), headings outline, tables found with their sizes, and the first lines of text. Same formats ' +
    'as fileToMarkdown (PDF, DOCX, XLSX, PPTX, images by OCR). Prefer it to decide whether and how to read a file (is it the right one, how long, ' +
    'which sheet): it costs a few lines instead of the whole text; then use fileToMarkdown for the content. Read-only.'
  );
}
