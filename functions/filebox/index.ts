import { EVENTS_TOOLSET, eventToolGroup } from '../../shared/events/group';
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
  // ShareFile connects through OAuth only: https://api.sharefile.com/docs/resource?name=Authentication (tokens 8 h;
  // each account has its own API host, named by the callback's subdomain and apicp).
  auth: {
    kinds: ['oauth'],
    oauth: {
      authorizeUrl: 'https://secure.sharefile.com/oauth/authorize',
      tokenUrl: 'https://{subdomain}.{appcp}/oauth/token',
      scopes: [],
      scopeSeparator: ' ',
      pkce: false,
      callbackParams: { subdomain: /^[a-z0-9][a-z0-9-]{0,62}$/i, apicp: /^sf-api\.(com|eu)$/, appcp: /^sharefile\.(com|eu)$/ },
      apiBase: (p) => (p.subdomain && p.apicp ? `https://${p.subdomain}.${p.apicp}` : undefined),
      // https://api.sharefile.com/docs/resource?name=Users: the signed-in user, on the account's host.
      account: { url: (_t, base) => (base ? `${base}/sf/v3/Users` : undefined), scheme: 'Bearer', read: (b) => ({ name: b?.FullName, email: b?.Email, portal: b?.Company }) },
    },
  },
  toolsets: {
    items: { description: 'Files and folders: browse, search, create, change, copy, move, delete, upload, download, convert, analyze', writes: true },
    shares: { description: 'Shares (links to send and request files): read, create, change, delete, notify', writes: true },
    users: { description: 'Users of the account: read, create, change, delete', writes: true },
    groups: { description: 'Groups of users and their members: read, create, change, delete', writes: true },
    access: { description: 'Who may do what on a folder: read, grant, change, revoke', writes: true },
    ...EVENTS_TOOLSET,
  },
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
