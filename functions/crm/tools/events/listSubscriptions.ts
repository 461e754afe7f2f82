import { crmEventTools } from '../../events/tools';

export const listSubscriptions = crmEventTools.listSubscriptions;
