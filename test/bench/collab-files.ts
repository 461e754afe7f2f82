import { encode } from 'gpt-tokenizer';
import { buildAll } from '../../infra/build';
import { convertFile } from '../../shared/files/convert';
import { plainTextOf, toMarkdown } from '../../shared/files/document';
import { docxFile, imageFile, pdfFile, xlsxFile } from '../collab/files-fixtures';
import type { BenchRow } from './rows';

/**
 * collab's file converters (fileToMarkdown/analyzeFile): conversion time of a 10-page PDF and of a
 * 3-sheet XLSX, OCR time of a one-page PNG (each the median of 3 runs, in process, converter loaded
 * by the first run), markdown tokens against the plain text the markdown carries, and the collab
 * bundle with the file tools in place (the converters are external: the "converters" layer, infra/build.ts).
 */

const meta = (name: string) => ({ parameter: 'file_id', label: 'File #1', name, mimetype: 'application/octet-stream', instead: '' });

async function median(runs: number, f: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    times.push(performance.now() - t0);
  }
  return Math.round(times.sort((a, b) => a - b)[Math.floor(runs / 2)]!);
}

export async function benchRows(): Promise<BenchRow[]> {
  const pdf = await pdfFile(10);
  const xlsx = await xlsxFile(3, 50);
  const png = await imageFile('png');
  await convertFile(pdf, meta('warm.pdf'));
  const pdfMs = await median(3, () => convertFile(pdf, meta('a.pdf')));
  const xlsxMs = await median(3, () => convertFile(xlsx, meta('a.xlsx')));
  const ocrMs = await median(3, () => convertFile(png, meta('a.png')));

  // Markdown against the text it carries, over a document of headings, lists, a table, and a spreadsheet.
  let mdTokens = 0;
  let textTokens = 0;
  for (const [bytes, name] of [[await docxFile(), 'a.docx'], [pdf, 'a.pdf'], [xlsx, 'a.xlsx']] as const) {
    const doc = await convertFile(bytes, meta(name));
    mdTokens += encode(toMarkdown(doc)).length;
    textTokens += encode(plainTextOf(doc)).length;
  }
  const collab = (await buildAll()).find((b) => b.name === 'collab')!;
  return [
    { figure: 'fileToMarkdown: 10-page PDF conversion', value: pdfMs, unit: 'ms', goal: 3000, better: 'lower' },
    { figure: 'fileToMarkdown: 3-sheet XLSX (50 rows each) conversion', value: xlsxMs, unit: 'ms', goal: 1000, better: 'lower' },
    { figure: 'fileToMarkdown: OCR of a one-page PNG', value: ocrMs, unit: 'ms', goal: 5000, better: 'lower', detail: 'tesseract.js worker started per call' },
    { figure: 'fileToMarkdown: markdown tokens / plain-text tokens (DOCX + PDF + XLSX)', value: Math.round((mdTokens / textTokens) * 100) / 100, unit: '×', goal: 1.5, better: 'lower', detail: `${mdTokens} vs ${textTokens} tokens` },
    { figure: 'collab bundle with the file tools (converters external)', value: Math.round(collab.bytes / 1024), unit: 'KB', goal: 700, better: 'lower', detail: `${collab.gzipBytes} B gzip` },
  ];
}
