import { crmEventTools } from '../../events/tools';

export const getSubscription = crmEventTools.getSubscription;
