import { crmEventTools } from '../../events/tools';

export const subscribeEvents = crmEventTools.subscribeEvents;
