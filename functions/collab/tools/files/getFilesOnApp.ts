import * as z from 'zod';
import { collabTool } from '../../tool';
import { appIdInput } from '../../params';
import { fileListInput } from '../../files/inputs';
import { fileListQuery, filePage, filePageText } from '../../files/listing';
import { toFile, type FileMeta } from '../../files/render';

export const getFilesOnApp = collabTool({
  name: 'getFilesOnApp',
  description:
    'List the files on the items of an app (and on comments on those items), an array of files, each with what it is attached to (context: {type, id, title}), newest first by default. ' +
    'Filter by attached_to and filetype, sort by name or created_on, page with limit (default 20) and offset: a full page means there may be more (ask again with offset + limit). For a whole workspace use getFilesOnSpace. Read-only.',
  input: z.strictObject({ app_id: appIdInput, ...fileListInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { client }): Promise<FileMeta[]> {
    return (await client.listFilesOnApp(input.app_id, fileListQuery(input))).map(toFile);
  },
  // A full page means there may be more: the text names the next offset.
  text: (files: FileMeta[], input) => filePageText(filePage(files, input), `app #${input.app_id}`, `with app_id ${input.app_id}`),
  example: {
    input: { app_id: 8102, filetype: 'application', limit: 2 },
    result: [
      { file_id: 60015, name: 'offer.pdf', mimetype: 'application/pdf', size: 48213, description: null, created_on: '2025-03-04 08:00:00', thumbnail_link: null, context: { type: 'item', id: 30061, title: 'Renewal — Northwind' } },
      { file_id: 60012, name: 'proposal-41.pdf', mimetype: 'application/pdf', size: 39, description: null, created_on: '2025-02-11 09:00:00', thumbnail_link: null, context: { type: 'item', id: 30101, title: 'Upsell — Contoso' } },
    ],
  },
});
