import { eventTools } from '../../../shared/events/tools';
import { hubspotEvents } from './adapter';

/** The six event tools of crm (shared/events/tools.ts) over its adapter. */
export const crmEventTools = eventTools(hubspotEvents);
