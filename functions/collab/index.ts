import { eventToolGroup } from '../../shared/events/group';
import { definePlatform } from '../../shared/core/tool';
import { createPodioClient, PODIO_BASE_URL } from './client';
import { appTools } from './tools/apps';
import { commentTools } from './tools/comments';
import { conversationTools } from './tools/conversations';
import { fileTools } from './tools/files';
import { hookTools } from './tools/hooks';
import { searchTools } from './tools/search';
import { itemTools } from './tools/items';
import { taskTools } from './tools/tasks';
import { sharingTools } from './tools/sharing';
import { viewTools } from './tools/views';

/** The platform's part of the event inbox, loaded on first use (by the receiver and the event tools). */
const eventsAdapter = () => import('./events/adapter').then((m) => m.podioEvents);

/** The collab platform (Podio): the explicit list of its tools, group by group. */
export const collab = definePlatform({
  name: 'collab',
  vendor: 'Podio',
  defaultBaseUrl: PODIO_BASE_URL,
  rateLimit: { max: 1000, windowSeconds: 3600 }, // Podio: 1,000 calls per hour per key
  client: createPodioClient,
  outputSchemas: () => import('../../shared/catalog/output/collab.json').then((m) => m.default.tools),
  mainGroup: 'items',
  search: {
    // Podio's links and its workflow add-on.
    cues: [/\bpodio\.com\b/i, /\bglobiflow\b/i],
    examples: () => import('./search-examples.json').then((m) => m.default),
  },
  events: eventsAdapter,
  tools: {
    ...appTools,
    ...itemTools,
    ...commentTools,
    ...conversationTools,
    ...taskTools,
    ...viewTools,
    ...sharingTools,
    ...fileTools,
    ...hookTools,
    ...eventToolGroup(eventsAdapter),
    ...searchTools,
  },
});
