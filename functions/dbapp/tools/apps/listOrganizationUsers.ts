import * as z from 'zod';
import { dbappTool } from '../../tool';
import { plural } from '../../../../shared/core/render';
import { orgUserLine, toOrgUser, type OrgUser } from '../../apps/render';

export const listOrganizationUsers = dbappTool({
  name: 'listOrganizationUsers',
  description:
    'List the users of the organization: user_id, name, email, organization role (owner, admin, member, guest) and status (active, or invited and not yet ' +
    'joined). Use it to find the user ids that user fields, checklist assignees and addWorkspaceMember take. Read-only.',
  input: z.strictObject({}),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(_input, { client }) {
    const r = await client.listOrganizationUsers();
    return { users: r.users.map(toOrgUser), total: r.total };
  },
  text: (r: { users: OrgUser[]; total: number }) => [...r.users.map(orgUserLine), plural(r.total, 'user')].join('\n'),
  example: {
    input: {},
    result: {
      users: [
        { user_id: 10000, name: 'John Doe', email: 'john@doe.com', role: 'owner', status: 'active' },
        { user_id: 10001, name: 'Zoe Maxwell', email: 'zoemaxwell10001@me.com', role: 'member', status: 'active' },
      ],
      total: 2,
    },
  },
});
