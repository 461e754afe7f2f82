import * as z from 'zod';
import { collabTool } from '../../tool';
import { fileIdInput } from '../../files/inputs';
import { documentSource } from '../../files/source';
import { fileToMarkdownDescription, markdownOf, markdownText, readDocument, type MarkdownOf } from '../../../../shared/files/read';

type Markdown = { file_id: number } & MarkdownOf;

export const fileToMarkdown = collabTool({
  name: 'fileToMarkdown',
  description: fileToMarkdownDescription('a Podio file (by its numeric file_id)'),
  input: z.strictObject({ file_id: fileIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  task: 'optional',
  async run({ file_id }, ctx): Promise<Markdown> {
    return { file_id, ...markdownOf(await readDocument(await documentSource(file_id, ctx))) };
  },
  text: (r: Markdown) => markdownText(r),
  example: {
    input: { file_id: 60015 },
    result: { file_id: 60015, name: 'report.docx', kind: 'docx', markdown: '# Quarterly Report\n\nRevenue grew in the north.\n\n| Region | Revenue |\n| --- | --- |\n| North | 1200 |' },
  },
});
