import { EVENTS_TOOLSET, eventToolGroup } from '../../shared/events/group';
import { definePlatform } from '../../shared/core/tool';
import { createTapeClient, TAPE_BASE_URL } from './client';
import { appTools } from './tools/apps';
import { automationTools } from './tools/automations';
import { fileTools } from './tools/files';
import { recordTools } from './tools/records';
import { viewTools } from './tools/views';
import { webhookTools } from './tools/webhooks';
import { workspaceTools } from './tools/workspaces';

/** The platform's part of the event inbox, loaded on first use (by the receiver and the event tools). */
const eventsAdapter = () => import('./events/adapter').then((m) => m.tapeEvents);

/** The dbapp platform (Tape): the explicit list of its tools, group by group. */
export const dbapp = definePlatform({
  name: 'dbapp',
  vendor: 'Tape',
  defaultBaseUrl: TAPE_BASE_URL,
  rateLimit: { max: 200, windowSeconds: 60 }, // Tape: 2,000 credits per minute, 10 per call for most
  client: createTapeClient,
  outputSchemas: () => import('../../shared/catalog/output/dbapp.json').then((m) => m.default.tools),
  mainGroup: 'records',
  auth: {
    kinds: ['api_key'],
    keyLabel: 'Tape API key (user_key_…)',
    // https://developers.tapeapp.com/docs/api/authentication
    keyWhere: 'In Tape, click your avatar (top right), open Preferences, then API: copy your user API key there.',
    // Who the key is: its organization and, among the organization's users, the key's own.
    checkKey: async (client) => {
      const org = await client.getOrganization();
      const me = (await client.listOrganizationUsers()).users.find((u) => u.user_id === org.active_user_id);
      return { ...(me ? { name: me.name, email: me.email } : {}), portal: org.name };
    },
  },
  toolsets: {
    workspaces: { description: 'Workspaces and their members: list, create, change, delete', writes: true },
    apps: { description: 'The organization, its users and the apps (tables) of a workspace', writes: false },
    records: { description: 'Records: read, filter, create, update, delete and restore, in batches; relations, revisions and comments', writes: true },
    automations: { description: 'Automations: read, validate, create, change, run, pause and their runs and usage', writes: true },
    views: { description: 'Views of an app: read, create, change, make default, delete', writes: true },
    webhooks: { description: "The vendor's webhooks on an app: list, create, verify, delete", writes: true },
    ...EVENTS_TOOLSET,
    files: { description: 'Files: upload, convert to Markdown, analyze', writes: true },
  },
  search: {
    // Tape's links.
    cues: [/\btapeapp\.com\b/i],
    examples: () => import('./search-examples.json').then((m) => m.default),
  },
  events: eventsAdapter,
  tools: {
    ...workspaceTools,
    ...appTools,
    ...recordTools,
    ...automationTools,
    ...viewTools,
    ...webhookTools,
    ...eventToolGroup(eventsAdapter),
    ...fileTools,
  },
});
