import { definePlatform } from '../../shared/tool';
import { createHubSpotClient, HUBSPOT_BASE_URL } from './client';
import { associationTools } from './tools/associations';
import { companiesTools } from './tools/companies';
import { contactsTools } from './tools/contacts';
import { dealsTools } from './tools/deals';
import { propertyTools } from './tools/properties';
import { ticketsTools } from './tools/tickets';

/** The crm platform (HubSpot CRM v3): the explicit list of its tools, group by group. */
export const crm = definePlatform({
  name: 'crm',
  vendor: 'HubSpot CRM',
  defaultBaseUrl: HUBSPOT_BASE_URL,
  client: createHubSpotClient,
  tools: {
    ...dealsTools,
    ...contactsTools,
    ...propertyTools,
    ...associationTools,
    ...companiesTools,
    ...ticketsTools,
  },
});
