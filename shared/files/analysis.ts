import { byteSize } from '../core/render';
import { plainTextOf, type ConvertedDoc } from './document';

/** analyzeFile's structural summary of a converted file: counts, outline, tables, language, first lines. No model involved. */

export interface FileAnalysis {
  name: string;
  kind: ConvertedDoc['kind'];
  mimetype: string;
  size: number;
  size_human: string;
  pages?: number;
  sheets?: { name: string; rows: number; columns: number }[];
  slides?: number;
  image?: { width: number; height: number; format: string };
  /** True when the text was read by OCR (images). */
  ocr?: boolean;
  word_count: number;
  /** ISO 639-3 code of the likely language (e.g. "eng", "deu"); null under ten words (too short to tell). */
  language: string | null;
  headings: { level: number; text: string }[];
  tables: { index: number; rows: number; columns: number; where?: string }[];
  first_lines: string[];
  truncated?: string;
}

const FIRST_LINES = 5;
const MAX_HEADINGS = 50;
const MIN_WORDS_FOR_LANGUAGE = 10;

export async function analyze(doc: ConvertedDoc, meta: { name: string; mimetype: string; size: number }): Promise<FileAnalysis> {
  const text = plainTextOf(doc);
  const words = text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  let language: string | null = null;
  // Trigram guesses on a few words are noise ("INVOICE 4711 Total due" reads as French): ten words at least.
  if (words.length >= MIN_WORDS_FOR_LANGUAGE) {
    const { franc } = await import('franc-min');
    const code = franc(text.slice(0, 5000), { minLength: 30 });
    language = code === 'und' ? null : code;
  }
  const headings: FileAnalysis['headings'] = [];
  const tables: FileAnalysis['tables'] = [];
  const sheets: NonNullable<FileAnalysis['sheets']> = [];
  let where: string | undefined;
  for (const b of doc.blocks) {
    if (b.type === 'part') {
      where = b.part === 'sheet' ? `sheet "${b.name ?? b.number}"` : `${b.part} ${b.number}`;
      if (b.part === 'sheet') sheets.push({ name: b.name ?? String(b.number), rows: 0, columns: 0 });
    } else if (b.type === 'heading' && headings.length < MAX_HEADINGS) headings.push({ level: b.level, text: b.text });
    else if (b.type === 'table') {
      const columns = Math.max(...b.rows.map((r) => r.length));
      tables.push({ index: tables.length + 1, rows: b.rows.length, columns, ...(where ? { where } : {}) });
      const sheet = doc.kind === 'xlsx' ? sheets.at(-1) : undefined;
      if (sheet) Object.assign(sheet, { rows: b.rows.length, columns });
    }
  }
  const firstLines = text.split('\n').map((l) => l.trim()).filter(Boolean).slice(0, FIRST_LINES).map((l) => (l.length > 160 ? `${l.slice(0, 157)}...` : l));
  return {
    name: meta.name,
    kind: doc.kind,
    mimetype: meta.mimetype,
    size: meta.size,
    size_human: byteSize(meta.size),
    ...(doc.kind === 'pdf' ? { pages: doc.parts } : {}),
    ...(doc.kind === 'xlsx' ? { sheets } : {}),
    ...(doc.kind === 'pptx' ? { slides: doc.parts } : {}),
    ...(doc.image ? { image: doc.image } : {}),
    ...(doc.ocr ? { ocr: true } : {}),
    word_count: words.length,
    language,
    headings,
    tables,
    first_lines: firstLines,
    ...(doc.truncated ? { truncated: doc.truncated } : {}),
  };
}

/** The analysis in a few lines; `label` names the file as its platform prints ids ("#60015", "fi0003ec-…"). */
export function analysisText(a: FileAnalysis, label: string): string {
  const shape = a.pages !== undefined ? `${a.pages} pages` : a.sheets ? `${a.sheets.length} sheets (${a.sheets.map((s) => `${s.name}: ${s.rows}×${s.columns}`).join(', ')})` : a.slides !== undefined ? `${a.slides} slides` : a.image ? `${a.image.width}×${a.image.height} px ${a.image.format}${a.ocr ? ', text by OCR' : ''}` : '';
  const lines = [`${label} ${a.name}: ${a.kind.toUpperCase()}, ${a.size_human}${shape ? `, ${shape}` : ''}; ${a.word_count} words${a.language ? `, language ${a.language}` : ''}`];
  if (a.headings.length) lines.push(`outline: ${a.headings.map((h) => `${'#'.repeat(h.level)} ${h.text}`).join(' | ')}`);
  if (a.tables.length) lines.push(`tables: ${a.tables.map((t) => `${t.rows}×${t.columns}${t.where ? ` (${t.where})` : ''}`).join(', ')}`);
  if (a.first_lines.length) lines.push(`starts: ${a.first_lines.join(' / ')}`);
  if (a.truncated) lines.push(a.truncated);
  return lines.join('\n');
}
