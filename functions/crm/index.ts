import { eventToolGroup } from '../../shared/events/group';
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
