import * as z from 'zod';
import { dbappTool } from '../../tool';
import { workspaceType } from '../../params';

export const createWorkspace = dbappTool({
  name: 'createWorkspace',
  description:
    'Create a workspace in the organization; the key\'s user becomes its admin. The type cannot be changed later through the API, so choose it now: ' +
    'private (invite-only), open (any org member may join), default (org default visibility) or closed (read-only for non-members). ' +
    'At most 500 workspaces per organization. Returns the new workspace_id and slug.',
  input: z.strictObject({
    name: z.string().trim().min(1).max(255).describe('Workspace name, e.g. "Sales pipeline".'),
    type: workspaceType,
    description: z.string().max(10_000).optional().describe('What the workspace is for.'),
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false },
  async run(input, { client }) {
    const w = await client.createWorkspace(input);
    return { workspace_id: w.workspace_id, org_id: w.org_id, name: w.name, slug: w.slug, type: w.type };
  },
  text: (w) => `created workspace #${w.workspace_id} ${w.name} (${w.type}, slug ${w.slug}) in org ${w.org_id}`,
  example: {
    input: { name: 'Sales pipeline', type: 'open', description: 'Leads and deals.' },
    result: { workspace_id: 3, org_id: 1337, name: 'Sales pipeline', slug: 'sales-pipeline', type: 'open' },
  },
});
