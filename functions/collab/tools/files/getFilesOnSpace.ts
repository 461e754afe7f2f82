import * as z from 'zod';
import { id } from '../../../../shared/params';
import { collabTool } from '../../tool';
import { fileListInput } from '../../files/inputs';
import { fileListQuery, filePage, filePageText, type FilePage } from '../../files/listing';
import { toFile } from '../../files/render';

export const getFilesOnSpace = collabTool({
  name: 'getFilesOnSpace',
  description:
    'List the files of a space (workspace): on its items, on comments on them and on the space itself, with what each is attached to (context), newest first by default. ' +
    'Filter by attached_to and filetype, sort by name or created_on, page with limit (default 20) and offset. For one app use getFilesOnApp. Read-only.',
  input: z.strictObject({ space_id: id('Numeric id of the space (getOrganizations lists the spaces).'), ...fileListInput }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { client }): Promise<FilePage & { space_id: number }> {
    const files = await client.listFilesOnSpace(input.space_id, fileListQuery(input));
    return { space_id: input.space_id, ...filePage(files.map(toFile), input) };
  },
  text: (p, input) => filePageText(p, `space #${input.space_id}`, `with space_id ${input.space_id}`),
  example: {
    input: { space_id: 7101, sort_by: 'name' },
    result: {
      space_id: 7101,
      offset: 0,
      files: [{ file_id: 60001, name: 'northwindtraders-logo.png', mimetype: 'image/png', size: 68, description: null, created_on: '2025-01-02 10:00:00', thumbnail_link: null, context: { type: 'item', id: 30001, title: 'Northwind Traders' } }],
    },
  },
});
