import { EVENTS_TOOLSET, eventToolGroup } from '../../shared/events/group';
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
  // Podio connects through OAuth only: https://developers.podio.com/authentication/server_side (tokens 8 h, refresh tokens single-use).
  auth: {
    kinds: ['oauth'],
    oauth: {
      authorizeUrl: 'https://podio.com/oauth/authorize',
      tokenUrl: 'https://api.podio.com/oauth/token/v2',
      scopes: [],
      scopeSeparator: ' ',
      pkce: false,
      callbackParams: {},
      // https://developers.podio.com/doc/users/get-user-status-20490: the user and their profile.
      account: { url: () => 'https://api.podio.com/user/status', scheme: 'OAuth2', read: (b) => ({ name: b?.profile?.name, email: b?.user?.mail }) },
    },
  },
  toolsets: {
    apps: { description: 'Organizations, spaces, members, contacts and apps', writes: false },
    items: { description: 'Items: read, filter, aggregate, create, update, clone and delete, in batches; references and revisions', writes: true },
    comments: { description: 'Comments on any object: read, add, change, delete', writes: true },
    conversations: { description: 'Conversations: start, read, search, reply, add participants, leave', writes: true },
    tasks: { description: 'Tasks and their labels: read, create, change, delete', writes: true },
    views: { description: 'Views of an app: read, create, change, make default, delete', writes: true },
    sharing: { description: 'Sharing items with people: read, share, change, stop', writes: true },
    files: { description: 'Files: upload, attach, read, copy, replace, delete, download, convert to Markdown, analyze', writes: true },
    hooks: { description: "The vendor's hooks: list, create, verify, delete", writes: true },
    ...EVENTS_TOOLSET,
    search: { description: 'Search across the organization', writes: false },
  },
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
