import { eventToolGroup } from '../../shared/events/group';
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
