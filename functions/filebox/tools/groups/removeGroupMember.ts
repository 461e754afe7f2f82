import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { groupIdInput, userIdInput } from '../../params';

interface Removed {
  message: string;
}

export const removeGroupMember = fileboxTool({
  name: 'removeGroupMember',
  description: 'Remove one user from a group (the user is not deleted). A user who is not a member answers NOT_FOUND. Returns {message}.',
  input: z.strictObject({
    group_id: groupIdInput('The group id (g…, from listGroups).'),
    user_id: userIdInput('The member\'s user id (GUID; getGroup with include_contacts lists them).'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ group_id, user_id }, { client }): Promise<Removed> {
    await client.removeGroupContacts(group_id, [{ Id: user_id }]);
    return { message: `Removed ${user_id} from group ${group_id}.` };
  },
  text: (r: Removed) => r.message,
  example: { input: { group_id: 'g0000047-5f1e-4b0c-9a7d-000000000047', user_id: '00000003-7a1e-4c2b-8d3f-000000000003' }, result: { message: 'Removed 00000003-7a1e-4c2b-8d3f-000000000003 from group g0000047-5f1e-4b0c-9a7d-000000000047.' } },
});
