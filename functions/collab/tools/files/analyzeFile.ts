import * as z from 'zod';
import { collabTool } from '../../tool';
import { fileIdInput } from '../../files/inputs';
import { documentSource } from '../../files/source';
import { analysisOf, analysisText, analyzeFileDescription, readDocument, type FileAnalysis } from '../../../../shared/files/read';

type Analysis = { file_id: number } & FileAnalysis;

export const analyzeFile = collabTool({
  name: 'analyzeFile',
  description: analyzeFileDescription('a Podio file (by its numeric file_id)'),
  input: z.strictObject({ file_id: fileIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  task: 'optional',
  async run({ file_id }, ctx): Promise<Analysis> {
    return { file_id, ...(await analysisOf(await readDocument(await documentSource(file_id, ctx)))) };
  },
  text: (a: Analysis) => analysisText(a, `#${a.file_id}`),
  example: {
    input: { file_id: 60015 },
    result: {
      file_id: 60015, name: 'pricing.xlsx', kind: 'xlsx', mimetype: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', size: 9120, size_human: '8.9 KB',
      sheets: [{ name: 'Region 1', rows: 6, columns: 3 }], word_count: 33, language: null, headings: [], tables: [{ index: 1, rows: 6, columns: 3, where: 'sheet "Region 1"' }],
      first_lines: ['Product Units Price', 'Widget 1-1 10 2.5'],
    },
  },
});
