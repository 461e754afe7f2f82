import * as z from 'zod';
import { dbappTool } from '../../tool';
import { plural } from '../../../../shared/core/render';
import { toWorkspace, workspaceLine, type Workspace } from '../../workspaces/render';

export const listWorkspaces = dbappTool({
  name: 'listWorkspaces',
  description:
    'List every workspace of the organization that the API key can see (private workspaces only if the key\'s user is a member or org admin). ' +
    'Returns id, name, type, slug and description of each. Use it to find a workspace_id before getWorkspace, listWorkspaceMembers or creating apps.',
  input: z.strictObject({}),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run(_input, { client }) {
    const page = await client.listWorkspaces();
    return { workspaces: page.workspaces.map(toWorkspace), total: page.total };
  },
  text: (r: { workspaces: Workspace[]; total: number }) =>
    [...r.workspaces.map(workspaceLine), plural(r.total, 'workspace')].join('\n'),
  example: {
    input: {},
    result: {
      workspaces: [
        { workspace_id: 1, org_id: 1337, name: 'Task management', description: 'Manage all tasks and projects inside this workspace.', slug: 'task-management', type: 'closed' },
        { workspace_id: 2, org_id: 1337, name: 'Contact directory', description: 'Keep track of our contacts here.', slug: 'contact-directory', type: 'default' },
      ],
      total: 2,
    },
  },
});
