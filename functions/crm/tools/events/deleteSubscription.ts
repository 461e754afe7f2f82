import { crmEventTools } from '../../events/tools';

export const deleteSubscription = crmEventTools.deleteSubscription;
