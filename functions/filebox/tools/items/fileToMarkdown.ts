import * as z from 'zod';
import { fileToMarkdownDescription, markdownOf, markdownText, readDocument, type MarkdownOf } from '../../../../shared/files/read';
import { documentSource } from '../../items/document';
import { fileboxTool } from '../../tool';
import { concreteItemIdInput } from '../../params';

type Markdown = { item_id: string } & MarkdownOf;

export const fileToMarkdown = fileboxTool({
  name: 'fileToMarkdown',
  description: fileToMarkdownDescription('a file stored in ShareFile (a contract, an offer, a scan; by its item id, fi…, from searchItems or listChildren)'),
  input: z.strictObject({ item_id: concreteItemIdInput('Id of the file (fi…) to read; needs download rights on it.', 'file') }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  task: 'optional',
  async run({ item_id }, ctx): Promise<Markdown> {
    return { item_id, ...markdownOf(await readDocument(await documentSource(item_id, ctx))) };
  },
  text: (r: Markdown) => markdownText(r),
  example: {
    input: { item_id: 'fi00002a-5f1e-4b0c-9a7d-00000000002a' },
    result: { item_id: 'fi00002a-5f1e-4b0c-9a7d-00000000002a', name: 'contract.docx', kind: 'docx', markdown: '# Service Agreement\n\nThe supplier delivers the services described below.' },
  },
});
