import { eventToolGroup } from '../../shared/events/group';
import { definePlatform } from '../../shared/core/tool';
import { createShareFileClient, SHAREFILE_BASE_URL } from './client';
import { accessTools } from './tools/access';
import { groupTools } from './tools/groups';
import { itemTools } from './tools/items';
import { shareTools } from './tools/shares';
import { userTools } from './tools/users';

/** The platform's part of the event inbox, loaded on first use (by the receiver and the event tools). */
const eventsAdapter = () => import('./events/adapter').then((m) => m.shareFileEvents);

/** The filebox platform (ShareFile): the explicit list of its tools, group by group. */
export const filebox = definePlatform({
  name: 'filebox',
  vendor: 'ShareFile',
  defaultBaseUrl: SHAREFILE_BASE_URL,
  rateLimit: { max: 600, windowSeconds: 60 }, // ShareFile publishes no limit: the service's default
  client: createShareFileClient,
  outputSchemas: () => import('../../shared/catalog/output/filebox.json').then((m) => m.default.tools),
  mainGroup: 'items',
  search: {
    // ShareFile's links and item ids (fo… for a folder, fi… for a file).
    cues: [/\bsharefile\.(?:com|eu)\b/i, /\bf[oi](?=[0-9a-f-]*\d)[0-9a-f-]{6,}\b/i],
    examples: () => import('./search-examples.json').then((m) => m.default),
  },
  events: eventsAdapter,
  tools: {
    ...itemTools,
    ...shareTools,
    ...userTools,
    ...groupTools,
    ...accessTools,
    ...eventToolGroup(eventsAdapter),
  },
});
