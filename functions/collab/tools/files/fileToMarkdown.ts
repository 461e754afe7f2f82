import * as z from 'zod';
import { collabTool } from '../../tool';
import { fileIdInput } from '../../files/inputs';
import { toMarkdown } from '../../files/document';
import { convertedFile } from '../../files/source';

interface Markdown {
  file_id: number;
  name: string;
  kind: string;
  markdown: string;
  truncated?: string;
}

export const fileToMarkdown = collabTool({
  name: 'fileToMarkdown',
  description:
    'Convert a file to markdown so its content can be read: PDF, DOCX, XLSX, PPTX, and images (JPG, PNG, GIF, WEBP) by OCR (English). Headings, paragraphs, ' +
    'lists and tables are kept; each spreadsheet sheet becomes a "## Sheet: name" heading with a markdown table, each slide a "## Slide n" heading. Large files ' +
    'are capped (20 MB; first 50 PDF pages; 500 rows per sheet) with a note saying what was left out. Another file type, or a corrupt file, is refused naming ' +
    'the type found. For the structure only (page count, outline, tables, language) use analyzeFile, which returns far less text. Read-only.',
  input: z.strictObject({ file_id: fileIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ file_id }, ctx): Promise<Markdown> {
    const { doc, meta } = await convertedFile(file_id, ctx);
    return { file_id, name: meta.name, kind: doc.kind, markdown: toMarkdown(doc), ...(doc.truncated ? { truncated: doc.truncated } : {}) };
  },
  text: (r: Markdown) => r.markdown || `(no text found in ${r.name})`,
  example: {
    input: { file_id: 60015 },
    result: { file_id: 60015, name: 'report.docx', kind: 'docx', markdown: '# Quarterly Report\n\nRevenue grew in the north.\n\n| Region | Revenue |\n| --- | --- |\n| North | 1200 |' },
  },
});
