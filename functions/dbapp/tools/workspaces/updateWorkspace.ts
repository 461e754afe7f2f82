import * as z from 'zod';
import { invalidParameter } from '../../../../shared/core/errors';
import { dbappTool } from '../../tool';
import { workspaceId } from '../../params';
import { toWorkspace, workspaceLine } from '../../workspaces/render';

export const updateWorkspace = dbappTool({
  name: 'updateWorkspace',
  description:
    'Rename a workspace or change its description; omitted keys stay as they are (a new name also changes the slug). ' +
    'The workspace type cannot be changed through the API. Needs admin rights on the workspace. Returns the updated workspace.',
  input: z.strictObject({
    workspace_id: workspaceId,
    name: z.string().trim().min(1).max(255).optional().describe('New name.'),
    description: z.string().max(10_000).optional().describe('New description ("" clears it).'),
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true },
  async run({ workspace_id, ...changes }, { client }) {
    if (changes.name === undefined && changes.description === undefined) {
      throw invalidParameter('name', 'name and/or description', 'Nothing to update: pass "name", "description" or both.');
    }
    return toWorkspace(await client.updateWorkspace(workspace_id, changes));
  },
  text: (w, input) => {
    const changed = [input.name !== undefined && 'name', input.description !== undefined && 'description'].filter(Boolean).join(' and ');
    return `updated ${changed} of workspace ${workspaceLine(w)}`;
  },
  example: {
    input: { workspace_id: 1, name: 'Task management (NEW)' },
    result: { workspace_id: 1, org_id: 1337, name: 'Task management (NEW)', description: 'Manage all tasks and projects inside this workspace.', slug: 'task-management-new', type: 'closed' },
  },
});
