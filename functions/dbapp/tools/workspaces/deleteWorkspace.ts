import * as z from 'zod';
import { dbappTool } from '../../tool';
import { workspaceId } from '../../params';
import { toWorkspace, workspaceLine } from '../../workspaces/render';

export const deleteWorkspace = dbappTool({
  name: 'deleteWorkspace',
  description:
    'Permanently delete a workspace with all its apps and records. Cannot be undone; confirm with the user first. ' +
    'Needs admin rights on the workspace. Returns the deleted workspace.',
  input: z.strictObject({ workspace_id: workspaceId }),
  annotations: { readOnly: false, destructive: true, idempotent: false },
  async run({ workspace_id }, { client }) {
    return toWorkspace(await client.deleteWorkspace(workspace_id));
  },
  text: (w) => `deleted workspace ${workspaceLine(w)} with all its apps and records (cannot be undone)`,
  example: {
    input: { workspace_id: 3 },
    result: { workspace_id: 3, org_id: 1337, name: 'Sales pipeline', description: 'Leads and deals.', slug: 'sales-pipeline', type: 'open' },
  },
});
