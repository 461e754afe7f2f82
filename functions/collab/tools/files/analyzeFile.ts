import * as z from 'zod';
import { collabTool } from '../../tool';
import { fileIdInput } from '../../files/inputs';
import { analysisText, analyze, type FileAnalysis } from '../../files/analysis';
import { convertedFile } from '../../files/source';

export const analyzeFile = collabTool({
  name: 'analyzeFile',
  description:
    'Describe a file\'s structure without returning its content (no model involved): kind, size, pages/sheets (with rows×columns)/slides or image dimensions, ' +
    'word count, likely language (ISO 639-3), headings outline, tables found with their sizes, and the first lines of text. Same formats as fileToMarkdown ' +
    '(PDF, DOCX, XLSX, PPTX, images by OCR). Prefer it to decide whether and how to read a file (is it the right one, how long, which sheet): it costs a few ' +
    'lines instead of the whole text; then use fileToMarkdown for the content. Read-only.',
  input: z.strictObject({ file_id: fileIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ file_id }, ctx): Promise<FileAnalysis> {
    const { doc, meta } = await convertedFile(file_id, ctx);
    return analyze(doc, meta);
  },
  text: (a: FileAnalysis) => analysisText(a),
  example: {
    input: { file_id: 60015 },
    result: {
      file_id: 60015, name: 'pricing.xlsx', kind: 'xlsx', mimetype: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', size: 9120, size_human: '8.9 KB',
      sheets: [{ name: 'Region 1', rows: 6, columns: 3 }], word_count: 33, language: null, headings: [], tables: [{ index: 1, rows: 6, columns: 3, where: 'sheet "Region 1"' }],
      first_lines: ['Product Units Price', 'Widget 1-1 10 2.5'],
    },
  },
});
