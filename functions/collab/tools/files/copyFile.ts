import * as z from 'zod';
import { collabTool } from '../../tool';
import { fileIdInput } from '../../files/inputs';

interface Copied {
  file_id: number;
  source_file_id: number;
}

export const copyFile = collabTool({
  name: 'copyFile',
  description:
    'Copy a file: returns the file_id of a new, unattached copy (same bytes and name; its external_id is "file_" + the original id); the original stays where ' +
    'it is. Use it to put a file that is already attached somewhere on another object, then attachFile the copy within a few hours.',
  input: z.strictObject({ file_id: fileIdInput }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run({ file_id }, { client }): Promise<Copied> {
    const copy = await client.copyFile(file_id);
    return { file_id: copy.file_id, source_file_id: file_id };
  },
  text: (r: Copied) => `copied file #${r.source_file_id} → new unattached file #${r.file_id} — attach it with attachFile within a few hours`,
  example: { input: { file_id: 60015 }, result: { file_id: 60020, source_file_id: 60015 } },
});
