import { EVENTS_TOOLSET, eventToolGroup } from '../../shared/events/group';
import { definePlatform } from '../../shared/core/tool';
import { createHubSpotClient, HUBSPOT_BASE_URL } from './client';
import { associationTools } from './tools/associations';
import { companiesTools } from './tools/companies';
import { contactsTools } from './tools/contacts';
import { dealsTools } from './tools/deals';
import { propertyTools } from './tools/properties';
import { ticketsTools } from './tools/tickets';

/** The platform's part of the event inbox, loaded on first use (by the receiver and the event tools). */
const eventsAdapter = () => import('./events/adapter').then((m) => m.hubspotEvents);

/** The crm platform (HubSpot CRM v3): the explicit list of its tools, group by group. */
export const crm = definePlatform({
  name: 'crm',
  vendor: 'HubSpot CRM',
  defaultBaseUrl: HUBSPOT_BASE_URL,
  rateLimit: { max: 100, windowSeconds: 10 }, // HubSpot: 100 per 10 s (Free/Starter; Pro/Enterprise private apps 190)
  client: createHubSpotClient,
  outputSchemas: () => import('../../shared/catalog/output/crm.json').then((m) => m.default.tools),
  mainGroup: 'deals',
  // HubSpot: a private app's token, or OAuth (https://developers.hubspot.com/docs/api/oauth-quickstart-guide, tokens 30 min).
  auth: {
    kinds: ['oauth', 'api_key'],
    keyLabel: 'HubSpot private app access token (pat-…)',
    // https://developers.hubspot.com/docs/api/private-apps: a private app's token is on its Auth tab.
    keyWhere: 'In HubSpot, open Settings › Integrations › Private Apps, open your app (or create one with the CRM scopes), then on its Auth tab click Show token and copy it.',
    // The portal the token belongs to (a private app's token names no user).
    checkKey: async (client) => ({ portal: `portal ${(await client.accountDetails()).portalId}` }),
    oauth: {
      authorizeUrl: 'https://app.hubspot.com/oauth/authorize',
      tokenUrl: 'https://api.hubapi.com/oauth/v1/token',
      scopes: ['oauth', 'crm.objects.contacts.read', 'crm.objects.contacts.write', 'crm.objects.companies.read', 'crm.objects.companies.write', 'crm.objects.deals.read', 'crm.objects.deals.write', 'tickets', 'crm.schemas.contacts.read'],
      scopeSeparator: ' ',
      pkce: false,
      callbackParams: {},
      revoke: { method: 'DELETE', url: (t) => `https://api.hubapi.com/oauth/v1/refresh-tokens/${encodeURIComponent(t)}` },
      // https://developers.hubspot.com/docs/api/oauth/tokens: the installing user and the portal.
      account: { url: (t) => `https://api.hubapi.com/oauth/v1/access-tokens/${encodeURIComponent(t)}`, read: (b) => ({ email: b?.user, portal: b?.hub_domain ?? (b?.hub_id !== undefined ? `portal ${b.hub_id}` : undefined) }) },
    },
  },
  toolsets: {
    deals: { description: 'Deals and their pipelines: read, search, create, change, delete', writes: true },
    contacts: { description: 'Contacts: read, search, create, change, delete', writes: true },
    properties: { description: 'The properties of an object type: read, create', writes: true },
    associations: { description: 'Associations between records: read, create', writes: true },
    companies: { description: 'Companies: read, search, create, change, delete', writes: true },
    tickets: { description: 'Tickets: read, search, create, change, delete', writes: true },
    ...EVENTS_TOOLSET,
  },
  search: {
    // HubSpot's links, its property names (hs_…) and object type ids (0-1 contacts … 0-5 tickets).
    cues: [/\bhubspot\.com\b/i, /\bhs_[a-z_]+\b/i, /\b0-[1-5]\b/],
    examples: () => import('./search-examples.json').then((m) => m.default),
  },
  events: eventsAdapter,
  tools: {
    ...dealsTools,
    ...contactsTools,
    ...propertyTools,
    ...associationTools,
    ...companiesTools,
    ...ticketsTools,
    ...eventToolGroup(eventsAdapter),
  },
});
