import * as z from 'zod';
import { collabTool } from '../../tool';
import { fileIdInput } from '../../files/inputs';
import { fileLine, toFile, type FileMeta } from '../../files/render';

export const getFile = collabTool({
  name: 'getFile',
  description:
    'Read one file\'s metadata: name, mimetype, size, description, who uploaded it and when, and what it is attached to (context; null when unattached). ' +
    'link is Podio\'s own link, which needs a Podio login; for a link that opens without any key, call downloadFile. ' +
    'No content: fileToMarkdown gives its text, analyzeFile its structure. Read-only.',
  input: z.strictObject({ file_id: fileIdInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  // Metadata only: a keyless link means copying the bytes to the service's storage, which only downloadFile does.
  run: async ({ file_id }, { client }): Promise<FileMeta> => toFile(await client.getFile(file_id)),
  text: (f: FileMeta) => fileLine(f),
  example: {
    input: { file_id: 60015 },
    result: {
      file_id: 60015, name: 'offer.pdf', mimetype: 'application/pdf', size: 48213, link: 'https://files.podio.com/60015', hosted_by: 'podio', description: 'Signed offer',
      created_on: '2025-03-04 08:00:00', created_by: { type: 'user', id: 1001 }, thumbnail_link: null, rights: ['download', 'view', 'delete', 'update'], context: { type: 'item', id: 30061 },
    },
  },
});
