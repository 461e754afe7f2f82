import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { fileboxTool } from '../../tool';
import { userIdInput } from '../../params';
import { toUser, userDetail, type User } from '../../users/render';

export const updateUser = fileboxTool({
  name: 'updateUser',
  description:
    'Change a user\'s first name, last name or company, or disable (is_disabled true: cannot sign in, keeps files and shares) or enable them again. ' +
    'Pass at least one field. Returns the user with IsDisabled.',
  input: z.strictObject({
    user_id: userIdInput('The user id (a GUID, from listUsers).'),
    first_name: z.string().trim().max(100).optional().describe('New first name.'),
    last_name: z.string().trim().max(100).optional().describe('New last name.'),
    company: z.string().trim().max(200).optional().describe('New company.'),
    is_disabled: z.boolean().optional().describe('true disables the user, false enables them again.'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async run({ user_id, first_name, last_name, company, is_disabled }, { client }): Promise<User> {
    if (first_name === undefined && last_name === undefined && company === undefined && is_disabled === undefined) {
      throw invalidParameter('first_name', 'at least one of first_name, last_name, company, is_disabled', 'Nothing to change: pass first_name, last_name, company or is_disabled.');
    }
    return toUser(
      await client.updateUser(user_id, {
        ...(first_name !== undefined ? { FirstName: first_name } : {}),
        ...(last_name !== undefined ? { LastName: last_name } : {}),
        ...(company !== undefined ? { Company: company } : {}),
        ...(is_disabled !== undefined ? { Security: { IsDisabled: is_disabled } } : {}),
      }),
    );
  },
  text: (u: User) => `updated ${userDetail(u)}`,
  example: {
    input: { user_id: '00000005-7a1e-4c2b-8d3f-000000000005', is_disabled: true },
    result: { Id: '00000005-7a1e-4c2b-8d3f-000000000005', FullName: 'Sofia Rossi', Email: 'sofia.rossi@rossi-design.example', IsEmployee: false, IsConfirmed: false, IsDisabled: true },
  },
});
