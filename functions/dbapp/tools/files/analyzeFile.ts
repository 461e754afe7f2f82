import { analysisOf, analysisText, analyzeFileDescription, readDocument, type FileAnalysis } from '../../../../shared/files/read';
import { documentSource, recordFileSchema } from '../../files/document';
import { dbappTool } from '../../tool';

type Analysis = { record_id: number; file_id: number } & FileAnalysis;

export const analyzeFile = dbappTool({
  name: 'analyzeFile',
  description: analyzeFileDescription('a file attached to a Tape record (record_id plus the file_id from getRecord)'),
  input: recordFileSchema,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  task: 'optional',
  async run({ record_id, file_id }, ctx): Promise<Analysis> {
    return { record_id, file_id, ...(await analysisOf(await readDocument(await documentSource(record_id, file_id, ctx)))) };
  },
  text: (a: Analysis) => analysisText(a, `#${a.file_id}`),
  example: {
    input: { record_id: 1, file_id: 101 },
    result: {
      record_id: 1, file_id: 101, name: 'offer.pdf', kind: 'pdf', mimetype: 'application/pdf', size: 48213, size_human: '47.1 KB', pages: 2,
      word_count: 412, language: 'eng', headings: [{ level: 1, text: 'Offer' }], tables: [], first_lines: ['Offer', 'Prepared for Acme'],
    },
  },
});
