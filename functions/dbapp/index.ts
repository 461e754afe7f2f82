import { definePlatform } from '../../shared/tool';
import { createTapeClient, TAPE_BASE_URL } from './client';
import { workspaceTools } from './tools/workspaces';

/** The dbapp platform (Tape): the explicit list of its tools, group by group. */
export const dbapp = definePlatform({
  name: 'dbapp',
  vendor: 'Tape',
  defaultBaseUrl: TAPE_BASE_URL,
  client: createTapeClient,
  tools: [
    ...workspaceTools,
  ],
});
