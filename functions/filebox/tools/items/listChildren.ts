import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { checkQuery, filterInput, folderIdInput, orderbyInput, skipInput, summaryOnlyInput, topInput } from '../../params';
import { ITEM_SUMMARY_FIELDS, itemLine, pageFooter, paged, toItem, type Item, type Paged } from '../../render';
import { ITEM_FILTER_EXAMPLES, ITEM_PROPERTIES } from '../../items/properties';

interface Children extends Paged {
  folder_id: string;
  summary_only?: true;
  items: Item[];
}

export const listChildren = fileboxTool({
  name: 'listChildren',
  description:
    'List the files and folders inside a folder (default: your home folder), one page at a time: top (default 100) and skip. filter and orderby are OData ' +
    `expressions checked before the call (e.g. ${ITEM_FILTER_EXAMPLES.filter}; orderby ${ITEM_FILTER_EXAMPLES.orderby}). include_deleted adds items in the recycle bin. ` +
    'To find an item by name anywhere use searchItems. Read-only.',
  input: z.strictObject({
    folder_id: folderIdInput('Folder id (fo…) or alias: home (default), allshared, favorites, top, box, connectors.').default('home'),
    top: topInput('Items per page'),
    skip: skipInput,
    include_deleted: z.boolean().default(false).describe('Also list items in the recycle bin (default false).'),
    filter: filterInput(ITEM_FILTER_EXAMPLES.filter),
    orderby: orderbyInput(ITEM_FILTER_EXAMPLES.orderby),
    summary_only: summaryOnlyInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { client }): Promise<Children> {
    checkQuery(input, ITEM_PROPERTIES, ITEM_FILTER_EXAMPLES);
    const feed = await client.listChildren(input.folder_id, {
      includeDeleted: input.include_deleted,
      $top: input.top,
      $skip: input.skip,
      $filter: input.filter,
      $orderby: input.orderby,
      // The summary fields only: less to transfer; the folder line still needs FileCount.
      $select: input.summary_only ? [...ITEM_SUMMARY_FIELDS.filter((f) => f !== 'odata.type' && f !== 'Id'), 'HasPendingDeletion'].join(',') : undefined,
    });
    return {
      folder_id: input.folder_id,
      ...paged(feed, input.skip),
      ...(input.summary_only ? { summary_only: true as const } : {}),
      items: feed.value.map((w) => toItem(w, input.summary_only)),
    };
  },
  text: (r: Children, input) =>
    [...r.items.map(itemLine), pageFooter(r, input.skip, 'item', `no items in ${r.folder_id}${input.filter ? ' matching the filter' : ''}`)].join('\n'),
  example: {
    input: { folder_id: 'fo000015-5f1e-4b0c-9a7d-000000000015', top: 2 },
    result: {
      folder_id: 'fo000015-5f1e-4b0c-9a7d-000000000015',
      total_count: 3,
      returned_count: 2,
      has_more: true,
      items: [
        { Id: 'fo000099-5f1e-4b0c-9a7d-000000000099', Name: 'Signed', 'odata.type': 'ShareFile.Api.Models.Folder', FileSizeBytes: 3_407_872, FileCount: 12, CreationDate: '2026-01-05T10:00:00Z' },
        { Id: 'fi00002a-5f1e-4b0c-9a7d-00000000002a', Name: 'offer.pdf', 'odata.type': 'ShareFile.Api.Models.File', FileSizeBytes: 245_760, CreationDate: '2026-03-02T09:15:00Z' },
      ],
    },
  },
});
