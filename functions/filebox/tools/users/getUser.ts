import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { fileboxTool } from '../../tool';
import { emailInput, summaryOnlyInput, userIdInput } from '../../params';
import { expandOf, toUser, userDetail, type User } from '../../users/render';

export const getUser = fileboxTool({
  name: 'getUser',
  description:
    'Get one user (employee or client) by user_id or by email — exactly one of the two. include_security adds the disabled flag, include_preferences the ' +
    'preferences, include_disk_space the storage use of an employee. Client keys can read only themselves. Read-only.',
  input: z.strictObject({
    user_id: userIdInput('The user id (a GUID, from listUsers).').optional(),
    email: emailInput('The user\'s email address (instead of user_id).').optional(),
    include_security: z.boolean().default(false).describe('Add the security settings (IsDisabled…).'),
    include_preferences: z.boolean().default(false).describe('Add the user preferences.'),
    include_disk_space: z.boolean().default(false).describe('Add the disk space used (employees).'),
    summary_only: summaryOnlyInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { client }): Promise<User> {
    if ((input.user_id === undefined) === (input.email === undefined)) {
      throw invalidParameter('user_id', 'exactly one of user_id, email', 'Give exactly one of user_id or email.');
    }
    const expand = expandOf(input);
    const w = input.user_id ? await client.getUser(input.user_id, expand) : await client.findUserByEmail(input.email!, expand);
    return toUser(w, input.summary_only);
  },
  text: (u: User) => userDetail(u),
  example: {
    input: { email: 'daniel@ortizbuilders.example' },
    result: { Id: '00000004-7a1e-4c2b-8d3f-000000000004', FullName: 'Daniel Ortiz', Email: 'daniel@ortizbuilders.example', Company: 'Ortiz Builders', IsEmployee: false, IsConfirmed: true, Roles: ['Client'] },
  },
});
