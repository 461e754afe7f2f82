import * as z from 'zod';
import { id } from '../../../../shared/core/params';
import { collabTool } from '../../tool';
import { fileListInput } from '../../files/inputs';
import { fileListQuery, filePage, filePageText } from '../../files/listing';
import { toFile, type FileMeta } from '../../files/render';

export const getFilesOnSpace = collabTool({
  name: 'getFilesOnSpace',
  description:
    'List the files of a space (workspace): on its items, on comments on them and on the space itself, an array of files, each with what it is attached to (context: {type, id, title}), newest first by default. ' +
    'Filter by attached_to and filetype, sort by name or created_on, page with limit (default 20) and offset: a full page means there may be more (ask again with offset + limit). For one app use getFilesOnApp. Read-only.',
  input: z.strictObject({ space_id: id('Numeric id of the space (getOrganizations lists the spaces).'), ...fileListInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { client }): Promise<FileMeta[]> {
    return (await client.listFilesOnSpace(input.space_id, fileListQuery(input))).map(toFile);
  },
  // A full page means there may be more: the text names the next offset.
  text: (files: FileMeta[], input) => filePageText(filePage(files, input), `space #${input.space_id}`, `with space_id ${input.space_id}`),
  example: {
    input: { space_id: 7101, sort_by: 'name' },
    result: [{ file_id: 60001, name: 'northwindtraders-logo.png', mimetype: 'image/png', size: 68, link: 'https://files.podio.com/60001', hosted_by: 'podio', description: null, created_on: '2025-01-02 10:00:00', created_by: { type: 'user', id: 1001, name: 'Ann Becker' }, thumbnail_link: 'https://files.podio.com/60001/small', rights: ['download', 'view', 'delete', 'update'], context: { type: 'item', id: 30001, title: 'Northwind Traders' } }],
  },
});
