import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { itemIdInput, summaryOnlyInput } from '../../params';
import { itemDetail, itemLine, toItem, type Item } from '../../render';

export const getItem = fileboxTool({
  name: 'getItem',
  description:
    'Get one file or folder by id (fo… folder, fi… file) or alias (home, allshared, favorites, top, box, connectors): name, type, size, dates, path, creator, ' +
    'parent and your rights on it (Info). include_children adds the folder\'s children (for paging or filters use listChildren); include_deleted finds an item in the ' +
    'recycle bin. To find an item by name use searchItems. Read-only.',
  input: z.strictObject({
    item_id: itemIdInput('Item id (fo… or fi…) or alias: home (your folder), allshared, favorites, top, box, connectors.'),
    include_children: z.boolean().default(false).describe('Also return the children of a folder (default false).'),
    include_deleted: z.boolean().default(false).describe('Find the item even if it is in the recycle bin (default false).'),
    summary_only: summaryOnlyInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ item_id, include_children, include_deleted, summary_only }, { client }): Promise<Item> {
    const w = await client.getItem(item_id, { includeDeleted: include_deleted, expandChildren: include_children });
    const item = toItem(w, summary_only);
    if (include_children) item.Children = (w.Children ?? []).map((c) => toItem(c, summary_only));
    return item;
  },
  text: (i: Item) => {
    const children = i.Children ? [`children (${i.Children.length}):`, ...i.Children.map((c) => `  ${itemLine(c)}`)] : [];
    return [itemDetail(i), ...children].join('\n');
  },
  example: {
    input: { item_id: 'fo000015-5f1e-4b0c-9a7d-000000000015' },
    result: {
      Id: 'fo000015-5f1e-4b0c-9a7d-000000000015',
      Name: 'Contracts',
      FileName: 'Contracts',
      'odata.type': 'ShareFile.Api.Models.Folder',
      url: 'https://acme.sf-api.com/sf/v3/Items(fo000015-5f1e-4b0c-9a7d-000000000015)',
      Parent: { 'odata.type': 'ShareFile.Api.Models.Folder', Id: 'fo00000b-5f1e-4b0c-9a7d-00000000000b' },
      CreationDate: '2025-11-03T10:00:00Z',
      ProgenyEditDate: '2026-03-02T09:15:00Z',
      Description: 'Signed and draft contracts',
      Path: '/Personal Folders/Olivia Bennett/Contracts',
      CreatorFirstName: 'Olivia',
      CreatorLastName: 'Bennett',
      FileSizeBytes: 2041,
      FileCount: 2,
      State: 0,
      StreamID: 'st000015-5f1e-4b0c-9a7d-000000000015',
      Info: { IsAHomeFolder: false, IsMyHomeFolder: false, IsSharedFolder: false, CanUpload: true, CanDownload: true, CanView: true, CanDeleteCurrentItem: true, CanManagePermissions: true },
    },
  },
});
