import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { userIdInput } from '../../params';

interface Deleted {
  message: string;
}

export const deleteUser = fileboxTool({
  name: 'deleteUser',
  description:
    'Disable a user (default) or delete them for good (completely true). Disabled, the user cannot sign in; files, shares and group memberships stay; updateUser is_disabled false undoes it. ' +
    'completely true deletes the user for good: memberships and access controls go, their files pass to you. Returns {message}.',
  input: z.strictObject({
    user_id: userIdInput('The user id (a GUID, from listUsers).'),
    completely: z.boolean().default(false).describe('Delete permanently instead of disabling (default false).'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ user_id, completely }, { client }): Promise<Deleted> {
    await client.deleteUser(user_id, completely);
    return { message: completely ? `Deleted user ${user_id} permanently.` : `Disabled user ${user_id}; updateUser with is_disabled false enables them again.` };
  },
  text: (r: Deleted) => r.message,
  example: { input: { user_id: '00000005-7a1e-4c2b-8d3f-000000000005' }, result: { message: 'Disabled user 00000005-7a1e-4c2b-8d3f-000000000005; updateUser with is_disabled false enables them again.' } },
});
