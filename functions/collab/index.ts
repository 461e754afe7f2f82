import { definePlatform } from '../../shared/tool';
import { createPodioClient, PODIO_BASE_URL } from './client';
import { appTools } from './tools/apps';
import { commentTools } from './tools/comments';
import { itemTools } from './tools/items';

/** The collab platform (Podio): the explicit list of its tools, group by group. */
export const collab = definePlatform({
  name: 'collab',
  vendor: 'Podio',
  defaultBaseUrl: PODIO_BASE_URL,
  client: createPodioClient,
  tools: {
    ...appTools,
    ...itemTools,
    ...commentTools,
  },
});
