import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { concreteItemIdInput, folderIdInput } from '../../params';
import { itemDetail, toItem, type Item } from '../../render';
import { checkClash, checkTarget } from '../../items/targets';

interface Moved {
  moved: true;
  from_folder_id: string;
  item: Item;
  /** The item of the same name that overwrite sent to the recycle bin. */
  replaced_id?: string;
}

export const moveItem = fileboxTool({
  name: 'moveItem',
  description:
    'Move a file or folder into another folder (or into allshared, for a folder): it keeps its id, links and access controls of its own. With overwrite ' +
    'false (default) an item of the same name in the target is an error naming it; overwrite true moves that item to the recycle bin first. ' +
    'Returns {moved, from_folder_id, item, replaced_id?}.',
  input: z.strictObject({
    item_id: concreteItemIdInput('Id of the file (fi…) or folder (fo…) to move.'),
    target_folder_id: folderIdInput('Destination: a folder id (fo…), "home", "box", or "allshared" (a folder becomes a shared folder).'),
    overwrite: z.boolean().default(false).describe('Replace an item of the same name in the target (it goes to the recycle bin); default false: refuse.'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ item_id, target_folder_id, overwrite }, { client }): Promise<Moved> {
    checkTarget('target_folder_id', target_folder_id, { allowShared: true });
    const source = await client.getItem(item_id);
    const existing = await checkClash(client, target_folder_id, source.Name ?? '', { overwrite, parameter: 'target_folder_id', what: 'replace it (it goes to the recycle bin)', self: item_id });
    const replaced = existing?.Id;
    if (replaced) await client.deleteItem(replaced, { singleVersion: false, forceSync: true });
    const item = toItem(await client.updateItem(item_id, { Parent: { Id: target_folder_id } }));
    return { moved: true, from_folder_id: source.Parent?.Id ?? '', item, ...(replaced ? { replaced_id: replaced } : {}) };
  },
  text: (r: Moved) => `moved from ${r.from_folder_id} (same id)${r.replaced_id ? `, replacing ${r.replaced_id} (now in the recycle bin)` : ''}: ${itemDetail(r.item)}`,
  example: {
    input: { item_id: 'fi00002c-5f1e-4b0c-9a7d-00000000002c', target_folder_id: 'fo000016-5f1e-4b0c-9a7d-000000000016' },
    result: {
      moved: true,
      from_folder_id: 'fo000015-5f1e-4b0c-9a7d-000000000015',
      item: { Id: 'fi00002c-5f1e-4b0c-9a7d-00000000002c', Name: 'site-plan.png', 'odata.type': 'ShareFile.Api.Models.File', FileSizeBytes: 845, CreationDate: '2026-02-02T13:00:00Z', Parent: { Id: 'fo000016-5f1e-4b0c-9a7d-000000000016' } },
    },
  },
});
