import { crmEventTools } from '../../events/tools';

export const listEvents = crmEventTools.listEvents;
