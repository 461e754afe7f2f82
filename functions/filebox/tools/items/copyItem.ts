import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { concreteItemIdInput, folderIdInput } from '../../params';
import { itemDetail, toItem, type Item } from '../../render';
import { followAsync, isAsyncOperation, type Pending } from '../../items/async';
import { checkClash, checkTarget, findByName } from '../../items/targets';

/** The copy itself (its Id is the new id), with the source beside; or, while ShareFile still copies, the operation. */
type Copied = (Item & { source_id: string }) | { source_id: string; pending: Pending };
const isCopy = (r: Copied): r is Item & { source_id: string } => !('pending' in r);

export const copyItem = fileboxTool({
  name: 'copyItem',
  description:
    'Copy a file or folder (with its contents) into a folder; the copy gets a new id. With overwrite false (default) an item of the same name in the target ' +
    'is an error naming it; overwrite true replaces it (the old one goes to the recycle bin). Large copies run in the background: the tool follows the ' +
    'operation and returns the copy, or reports the operation id and state if it is still running. Returns the copy (an item: its Id is the new id) with source_id beside; ' +
    'a copy still running returns {source_id, pending: {operation_id, state}}.',
  input: z.strictObject({
    item_id: concreteItemIdInput('Id of the file (fi…) or folder (fo…) to copy.'),
    target_folder_id: folderIdInput('Folder to copy into: a folder id (fo…), "home" or "box".'),
    overwrite: z.boolean().default(false).describe('Replace an item of the same name in the target (default false: refuse).'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ item_id, target_folder_id, overwrite }, { client, deadline }): Promise<Copied> {
    checkTarget('target_folder_id', target_folder_id, { allowShared: false });
    const source = await client.getItem(item_id);
    await checkClash(client, target_folder_id, source.Name ?? '', { overwrite, parameter: 'target_folder_id', what: 'replace it' });
    const answer = await client.copyItem(item_id, target_folder_id, overwrite);
    if (!isAsyncOperation(answer)) return { ...toItem(answer), source_id: item_id };
    const done = await followAsync(client, answer, deadline);
    if ('operation_id' in done) return { source_id: item_id, pending: done };
    // A finished AsyncOperation names the target, not the copy: find it there by name.
    const copy = await findByName(client, target_folder_id, source.Name ?? '');
    if (!copy) return { source_id: item_id, pending: { operation_id: done.Id, state: `${done.State}, but the copy is not in the target yet` } };
    return { ...copy, source_id: item_id };
  },
  text: (r: Copied) =>
    isCopy(r)
      ? `copied ${r.source_id} → new ${itemDetail(r)}`
      : `copy of ${r.source_id} still running in ShareFile: operation ${r.pending.operation_id}, state ${r.pending.state} — check the target folder later with listChildren`,
  example: {
    input: { item_id: 'fi00002a-5f1e-4b0c-9a7d-00000000002a', target_folder_id: 'fo000016-5f1e-4b0c-9a7d-000000000016' },
    result: { Id: 'fi0003eb-5f1e-4b0c-9a7d-0000000003eb', Name: 'offer.pdf', 'odata.type': 'ShareFile.Api.Models.File', FileSizeBytes: 667, CreationDate: '2026-03-10T09:00:00Z', Parent: { Id: 'fo000016-5f1e-4b0c-9a7d-000000000016' }, source_id: 'fi00002a-5f1e-4b0c-9a7d-00000000002a' },
  },
});
