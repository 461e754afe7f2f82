import * as z from 'zod';
import { dbappTool } from '../../tool';
import { workspaceId } from '../../params';
import { plural } from '../../../../shared/core/render';
import { appLine, toAppSummary, type AppSummary } from '../../apps/render';

export const listApps = dbappTool({
  name: 'listApps',
  description:
    'List the apps (databases) the API key can see: id, name, what a record is called, workspace and description. Without workspace_id it lists every ' +
    'app of the organization (with workspace names); with workspace_id only that workspace\'s apps. Use it to find an app_id, then getApp for the ' +
    'fields before creating, filtering or updating records. Read-only.',
  input: z.strictObject({
    workspace_id: workspaceId.optional().describe('Only the apps of this workspace (from listWorkspaces). Omit for all apps of the organization.'),
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true },
  async run({ workspace_id }, { client }) {
    const page = workspace_id === undefined ? await client.listApps() : await client.listWorkspaceApps(workspace_id);
    return { apps: page.apps.map(toAppSummary), total: page.total };
  },
  text: (r: { apps: AppSummary[]; total: number }, { workspace_id }) => {
    if (r.total === 0) return workspace_id === undefined ? 'no apps in the organization' : `no apps in workspace #${workspace_id}`;
    return [...r.apps.map(appLine), `${plural(r.total, 'app')} — getApp shows the fields of one`].join('\n');
  },
  example: {
    input: {},
    result: {
      apps: [
        { app_id: 901, workspace_id: 2, workspace_name: 'Contact directory', name: 'Leads', item_name: 'Lead', slug: 'leads', type: 'database', description: 'Prospects before they become deals.' },
        { app_id: 902, workspace_id: 2, workspace_name: 'Contact directory', name: 'Deals', item_name: 'Deal', slug: 'deals', type: 'database', description: 'Opportunities in the sales pipeline.' },
      ],
      total: 2,
    },
  },
});
