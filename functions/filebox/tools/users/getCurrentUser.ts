import * as z from 'zod';
import { fileboxTool } from '../../tool';
import { summaryOnlyInput } from '../../params';
import { expandOf, toUser, userDetail, type User } from '../../users/render';

export const getCurrentUser = fileboxTool({
  name: 'getCurrentUser',
  description: 'Who the key belongs to: id, name, email, employee or client, administrator, roles and capabilities. include_security adds the disabled flag; include_preferences the preferences. Read-only.',
  input: z.strictObject({
    include_security: z.boolean().default(false).describe('Add the security settings (IsDisabled…).'),
    include_preferences: z.boolean().default(false).describe('Add the user preferences.'),
    summary_only: summaryOnlyInput,
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { client }): Promise<User> {
    return toUser(await client.currentUser(expandOf(input)), input.summary_only);
  },
  text: (u: User) => userDetail(u),
  example: {
    input: {},
    result: { Id: '00000001-7a1e-4c2b-8d3f-000000000001', FullName: 'Olivia Bennett', Email: 'olivia.bennett@acmelegal.example', Company: 'Acme Legal', IsEmployee: true, IsAdministrator: true, IsConfirmed: true, Roles: ['Employee', 'AdminManageEmployees'] },
  },
});
