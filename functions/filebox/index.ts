import { definePlatform } from '../../shared/tool';
import { createShareFileClient, SHAREFILE_BASE_URL } from './client';
import { accessTools } from './tools/access';
import { eventTools } from './tools/events';
import { groupTools } from './tools/groups';
import { itemTools } from './tools/items';
import { shareTools } from './tools/shares';
import { userTools } from './tools/users';

/** The filebox platform (ShareFile): the explicit list of its tools, group by group. */
export const filebox = definePlatform({
  name: 'filebox',
  vendor: 'ShareFile',
  defaultBaseUrl: SHAREFILE_BASE_URL,
  rateLimit: { max: 600, windowSeconds: 60 }, // ShareFile publishes no limit: the service's default
  client: createShareFileClient,
  outputSchemas: () => import('../../shared/schemas/output/filebox.json').then((m) => m.default.tools),
  mainGroup: 'items',
  events: () => import('./events/adapter').then((m) => m.shareFileEvents),
  tools: {
    ...itemTools,
    ...shareTools,
    ...userTools,
    ...groupTools,
    ...accessTools,
    ...eventTools,
  },
});
