import * as z from 'zod';
import { id } from '../../../../shared/core/params';
import { collabTool } from '../../tool';
import { hookInput, silentInput } from '../../params';
import { explainAttachError } from '../../files/attach';
import { fileRefTypes, looseFileIdInput, numericFileId } from '../../files/inputs';

interface Attached {
  attached: true;
  file_id: number;
  ref_type: string;
  ref_id: number;
}

export const attachFile = collabTool({
  name: 'attachFile',
  description:
    'Attach an unattached file (from uploadFile, or a copy from copyFile) to an item, comment, status, space or task. A file lives on one object only: ' +
    'attaching a file that is already attached fails — copyFile makes an unattached copy to attach instead. file_id is the numeric Podio id; a UUID or ' +
    'other text is refused before Podio is called. Runs file.change hooks on items unless hook is false. Returns {attached, file_id, ref_type, ref_id}.',
  input: z.strictObject({
    file_id: looseFileIdInput,
    ref_type: z.enum(fileRefTypes).describe('What to attach the file to: item, comment, status, space or task.'),
    ref_id: id('Numeric id of that object (for an item the global item_id, not the number in its URL).'),
    silent: silentInput,
    hook: hookInput,
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ file_id, ref_type, ref_id, silent, hook }, { client }): Promise<Attached> {
    const fileId = numericFileId(file_id, 'file_id');
    await client.attachFile(fileId, { ref_type, ref_id }, { silent, hook }).catch((err: unknown) => {
      throw explainAttachError(err, fileId, 'file_id');
    });
    return { attached: true, file_id: fileId, ref_type, ref_id };
  },
  text: (r: Attached) => `attached file #${r.file_id} to ${r.ref_type} #${r.ref_id}`,
  example: { input: { file_id: 60015, ref_type: 'item', ref_id: 30061 }, result: { attached: true, file_id: 60015, ref_type: 'item', ref_id: 30061 } },
});
