import * as z from 'zod';
import { fileBlobKey } from '../../../../shared/core/blob';
import { collabTool } from '../../tool';
import { hookInput } from '../../params';
import { fileIdInput } from '../../files/inputs';

interface Deleted {
  deleted: true;
  file_id: number;
}

export const deleteFile = collabTool({
  name: 'deleteFile',
  description:
    'Delete a file permanently: it disappears from the item, comment or space it is on and cannot be restored. Runs file.change hooks on items unless ' +
    'hook is false. To put another file in its place keep it and use replaceFile. Returns {deleted, file_id}.',
  input: z.strictObject({ file_id: fileIdInput, hook: hookInput }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ file_id, hook }, { client, blob }): Promise<Deleted> {
    await client.deleteFile(file_id, { hook });
    // A downloadFile link to the deleted file stops working with it.
    await blob?.remove(fileBlobKey('collab', file_id));
    return { deleted: true, file_id };
  },
  text: (r: Deleted) => `deleted file #${r.file_id} (permanent)`,
  example: { input: { file_id: 60015 }, result: { deleted: true, file_id: 60015 } },
});
