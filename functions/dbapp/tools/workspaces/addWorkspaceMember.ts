import * as z from 'zod';
import { dbappTool } from '../../tool';
import { memberRole, userId, workspaceId } from '../../params';
import { toMember } from '../../workspaces/render';

export const addWorkspaceMember = dbappTool({
  name: 'addWorkspaceMember',
  description:
    'Add an organization user to a workspace with a role, or change the role of an existing member (calling it again with another role updates it). ' +
    'The user must already be in the organization (see listOrganizationUsers). Needs admin rights on the workspace.',
  input: z.strictObject({ workspace_id: workspaceId, user_id: userId, role: memberRole }),
  annotations: { readOnly: false, destructive: false, idempotent: true },
  async run({ workspace_id, user_id, role }, { client }) {
    return toMember(await client.addWorkspaceMember(workspace_id, { user_id, role }));
  },
  text: (m) => `user #${m.user_id} is ${m.role} of workspace #${m.workspace_id}`,
  example: { input: { workspace_id: 1, user_id: 10001, role: 'admin' }, result: { user_id: 10001, workspace_id: 1, role: 'admin' } },
});
