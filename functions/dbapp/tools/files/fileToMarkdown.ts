import { fileToMarkdownDescription, markdownOf, markdownText, readDocument, type MarkdownOf } from '../../../../shared/files/read';
import { documentSource, recordFileSchema } from '../../files/document';
import { dbappTool } from '../../tool';

type Markdown = { record_id: number; file_id: number } & MarkdownOf;

export const fileToMarkdown = dbappTool({
  name: 'fileToMarkdown',
  description: fileToMarkdownDescription('a file attached to a Tape record (record_id plus the file_id of its attachment or image field value, from getRecord)'),
  input: recordFileSchema,
  annotations: { readOnly: true, destructive: false, idempotent: true },
  task: 'optional',
  async run({ record_id, file_id }, ctx): Promise<Markdown> {
    return { record_id, file_id, ...markdownOf(await readDocument(await documentSource(record_id, file_id, ctx))) };
  },
  text: (r: Markdown) => markdownText(r),
  example: {
    input: { record_id: 1, file_id: 101 },
    result: { record_id: 1, file_id: 101, name: 'contract.docx', kind: 'docx', markdown: '# Service Agreement\n\nThe supplier delivers the services described below.' },
  },
});
