import * as z from 'zod';
import { collabTool } from '../../tool';
import { appIdInput } from '../../params';
import { fileListInput } from '../../files/inputs';
import { fileListQuery, filePage, filePageText, type FilePage } from '../../files/listing';
import { toFile } from '../../files/render';

export const getFilesOnApp = collabTool({
  name: 'getFilesOnApp',
  description:
    'List the files on the items of an app (and on comments on those items), with what each is attached to (context), newest first by default. ' +
    'Filter by attached_to and filetype, sort by name or created_on, page with limit (default 20) and offset. For a whole workspace use getFilesOnSpace. Read-only.',
  input: z.strictObject({ app_id: appIdInput, ...fileListInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { client }): Promise<FilePage & { app_id: number }> {
    const files = await client.listFilesOnApp(input.app_id, fileListQuery(input));
    return { app_id: input.app_id, ...filePage(files.map(toFile), input) };
  },
  text: (p, input) => filePageText(p, `app #${input.app_id}`, `with app_id ${input.app_id}`),
  example: {
    input: { app_id: 8102, filetype: 'application', limit: 2 },
    result: {
      app_id: 8102,
      offset: 0,
      next_offset: 2,
      files: [
        { file_id: 60015, name: 'offer.pdf', mimetype: 'application/pdf', size: 48213, description: null, created_on: '2025-03-04 08:00:00', thumbnail_link: null, context: { type: 'item', id: 30061, title: 'Renewal — Northwind' } },
        { file_id: 60012, name: 'proposal-41.pdf', mimetype: 'application/pdf', size: 39, description: null, created_on: '2025-02-11 09:00:00', thumbnail_link: null, context: { type: 'item', id: 30101, title: 'Upsell — Contoso' } },
      ],
    },
  },
});
