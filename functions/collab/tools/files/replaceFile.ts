import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { fileBlobKey } from '../../../../shared/core/blob';
import { id } from '../../../../shared/core/params';
import { collabTool } from '../../tool';
import { alreadyAttached } from '../../files/attach';
import { contextText, toFile } from '../../files/render';

interface Replaced {
  replaced: true;
  old_file_id: number;
  new_file_id: number;
}

export const replaceFile = collabTool({
  name: 'replaceFile',
  description:
    'Put a new file in the place of an attached one: the new file takes the old file\'s place on its item, comment or space and the old one is removed. ' +
    'Only attachments can be replaced (not a file that is the value of an image field), and the new file must be unattached (from uploadFile or copyFile). ' +
    'Both are checked before anything changes. Returns {replaced, old_file_id, new_file_id}.',
  input: z.strictObject({
    old_file_id: id('Numeric id of the attached file to replace.'),
    new_file_id: id('Numeric id of the new, unattached file (uploadFile).'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ old_file_id, new_file_id }, { client, blob }): Promise<Replaced> {
    if (old_file_id === new_file_id) throw invalidParameter('new_file_id', 'another file than old_file_id', 'Parameter "new_file_id": a file cannot replace itself; upload the new version with uploadFile first.');
    const [old, fresh] = await Promise.all([client.getFile(old_file_id), client.getFile(new_file_id)]);
    if (!old.context) throw invalidParameter('old_file_id', 'an attached file', `File #${old_file_id} is not attached to anything: only attachments can be replaced. Attach the new file with attachFile instead.`);
    if (fresh.context) throw alreadyAttached(new_file_id, 'new_file_id', contextText(toFile(fresh).context));
    await client.replaceFile(new_file_id, old_file_id);
    // The old file is gone, and with it any downloadFile link to it.
    await blob?.remove(fileBlobKey('collab', old_file_id));
    return { replaced: true, old_file_id, new_file_id };
  },
  text: (r: Replaced) => `replaced file #${r.old_file_id} with #${r.new_file_id} (the old file is gone)`,
  example: { input: { old_file_id: 60015, new_file_id: 60021 }, result: { replaced: true, old_file_id: 60015, new_file_id: 60021 } },
});
