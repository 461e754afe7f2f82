import * as z from 'zod';
import { analysisOf, analysisText, analyzeFileDescription, readDocument, type FileAnalysis } from '../../../../shared/files/read';
import { documentSource } from '../../items/document';
import { fileboxTool } from '../../tool';
import { concreteItemIdInput } from '../../params';

type Analysis = { item_id: string } & FileAnalysis;

export const analyzeFile = fileboxTool({
  name: 'analyzeFile',
  description: analyzeFileDescription('a file stored in ShareFile (by its item id, fi…)'),
  input: z.strictObject({ item_id: concreteItemIdInput('Id of the file (fi…) to describe; needs download rights on it.', 'file') }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  task: 'optional',
  async run({ item_id }, ctx): Promise<Analysis> {
    return { item_id, ...(await analysisOf(await readDocument(await documentSource(item_id, ctx)))) };
  },
  text: (a: Analysis) => analysisText(a, a.item_id),
  example: {
    input: { item_id: 'fi00002a-5f1e-4b0c-9a7d-00000000002a' },
    result: {
      item_id: 'fi00002a-5f1e-4b0c-9a7d-00000000002a', name: 'offer.pdf', kind: 'pdf', mimetype: 'application/pdf', size: 48213, size_human: '47.1 KB', pages: 2,
      word_count: 412, language: 'eng', headings: [{ level: 1, text: 'Offer' }], tables: [], first_lines: ['Offer', 'Prepared for Ortiz Builders'],
    },
  },
});
