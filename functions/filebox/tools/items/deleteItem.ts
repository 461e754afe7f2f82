import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { fileboxTool } from '../../tool';
import { concreteItemIdInput } from '../../params';

interface Deleted {
  message: string;
  single_version: boolean;
}

export const deleteItem = fileboxTool({
  name: 'deleteItem',
  description:
    'Delete a file or folder: it moves to the recycle bin (listChildren or getItem with include_deleted still show it). single_version true deletes only the ' +
    'current version of a file (the previous version becomes current); folders have no versions. force_sync waits until ShareFile has finished the deletion. ' +
    'Returns {message, single_version}.',
  input: z.strictObject({
    item_id: concreteItemIdInput('Id of the file (fi…) or folder (fo…) to delete.'),
    single_version: z.boolean().default(false).describe('Files only: delete just the current version (default false: the file with all its versions).'),
    force_sync: z.boolean().default(false).describe('Wait for ShareFile to finish the deletion instead of letting it run in the background (default false).'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ item_id, single_version, force_sync }, { client }): Promise<Deleted> {
    if (single_version && item_id.toLowerCase().startsWith('fo')) {
      throw invalidParameter('single_version', 'false for a folder (fo…)', 'Invalid parameter "single_version": folders have no versions; omit it to move the folder to the recycle bin.');
    }
    await client.deleteItem(item_id, { singleVersion: single_version, forceSync: force_sync });
    return {
      message: single_version ? `Deleted the current version of ${item_id}; the previous version, if any, is current again.` : `Moved ${item_id} to the recycle bin.`,
      single_version,
    };
  },
  text: (r: Deleted) => r.message,
  example: { input: { item_id: 'fi00002d-5f1e-4b0c-9a7d-00000000002d' }, result: { message: 'Moved fi00002d-5f1e-4b0c-9a7d-00000000002d to the recycle bin.', single_version: false } },
});
