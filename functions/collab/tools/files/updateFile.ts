import * as z from 'zod';
import { collabTool } from '../../tool';
import { fileIdInput } from '../../files/inputs';

interface Updated {
  updated: true;
  file_id: number;
}

export const updateFile = collabTool({
  name: 'updateFile',
  description:
    'Change a file\'s name and description. Both are required and both are written: send the current value of the one you keep (getFile shows it); an empty ' +
    'description clears it. The bytes do not change — to put new content in a file\'s place use replaceFile. Returns {updated, file_id}.',
  input: z.strictObject({
    file_id: fileIdInput,
    name: z.string().trim().min(1).max(255).describe('The file name, with its extension (e.g. "offer-v2.pdf"); send the current name to keep it.'),
    description: z.string().max(10_000).describe('The description; "" clears it. Send the current one to keep it.'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async run({ file_id, name, description }, { client }): Promise<Updated> {
    await client.updateFile(file_id, { name, description: description === '' ? null : description });
    return { updated: true, file_id };
  },
  text: (r: Updated) => `updated file #${r.file_id}`,
  example: { input: { file_id: 60015, name: 'offer-signed.pdf', description: 'Signed by the customer on 4 March' }, result: { updated: true, file_id: 60015 } },
});
