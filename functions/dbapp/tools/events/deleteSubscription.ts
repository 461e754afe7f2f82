import { dbappEventTools } from '../../events/tools';

export const deleteSubscription = dbappEventTools.deleteSubscription;
