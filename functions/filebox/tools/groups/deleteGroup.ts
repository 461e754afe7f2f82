import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { groupIdInput } from '../../params';

interface Deleted {
  message: string;
}

export const deleteGroup = fileboxTool({
  name: 'deleteGroup',
  description: 'Delete a distribution group and the access it granted as a group; its members stay users with their own access. Returns {message}.',
  input: z.strictObject({ group_id: groupIdInput('The group id (g…, from listGroups).') }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ group_id }, { client }): Promise<Deleted> {
    await client.deleteGroup(group_id);
    return { message: `Deleted group ${group_id}; its members were not deleted.` };
  },
  text: (r: Deleted) => r.message,
  example: { input: { group_id: 'g0000048-5f1e-4b0c-9a7d-000000000048' }, result: { message: 'Deleted group g0000048-5f1e-4b0c-9a7d-000000000048; its members were not deleted.' } },
});
