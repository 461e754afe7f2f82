import * as z from 'zod';
import { ToolError } from '../../../../shared/core/errors';
import { dbappTool } from '../../tool';
import { workspaceId } from '../../params';
import { toWorkspace, workspaceLine } from '../../workspaces/render';

export const getWorkspace = dbappTool({
  name: 'getWorkspace',
  description:
    'Get one workspace by id: name, type (private/open/default/closed), slug, description, org id and icon. ' +
    'Needs workspace_id (see listWorkspaces). Read-only.',
  input: z.strictObject({ workspace_id: workspaceId }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ workspace_id }, { client }) {
    // Tape documents no single-workspace read: the organization listing is the source.
    const { workspaces } = await client.listWorkspaces();
    const found = workspaces.find((w) => w.workspace_id === workspace_id);
    if (!found) {
      throw new ToolError('NOT_FOUND', `Workspace ${workspace_id} does not exist or is not visible to this key. listWorkspaces shows the ones it can see.`, {
        workspace_id,
      });
    }
    return toWorkspace(found);
  },
  text: (w) => `${workspaceLine(w)} · org ${w.org_id}${w.icon?.id ? ` · icon ${w.icon.id}` : ''}`,
  example: {
    input: { workspace_id: 1 },
    result: { workspace_id: 1, org_id: 1337, name: 'Task management', description: 'Manage all tasks and projects inside this workspace.', slug: 'task-management', type: 'closed' },
  },
});
