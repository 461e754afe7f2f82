import { crmEventTools } from '../../events/tools';

export const ackEvents = crmEventTools.ackEvents;
