import * as z from 'zod';
import { dbappTool } from '../../tool';
import { workspaceId } from '../../params';
import { plural } from '../../../../shared/core/render';
import { toMember, type WorkspaceMember } from '../../workspaces/render';

export const listWorkspaceMembers = dbappTool({
  name: 'listWorkspaceMembers',
  description:
    'List the members of a workspace with their role (admin or member; guest where Tape reports it). ' +
    'Names and emails of the users come from listOrganizationUsers. Read-only.',
  input: z.strictObject({ workspace_id: workspaceId }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ workspace_id }, { client }) {
    const { workspace_members } = await client.listWorkspaceMembers(workspace_id);
    return { workspace_members: workspace_members.map(toMember) };
  },
  text: (r: { workspace_members: WorkspaceMember[] }, input) =>
    [`workspace #${input.workspace_id}: ${plural(r.workspace_members.length, 'member')}`, ...r.workspace_members.map((m) => `user #${m.user_id} ${m.role}`)].join('\n'),
  example: {
    input: { workspace_id: 1 },
    result: { workspace_members: [{ user_id: 10000, workspace_id: 1, role: 'admin' }, { user_id: 10001, workspace_id: 1, role: 'member' }] },
  },
});
