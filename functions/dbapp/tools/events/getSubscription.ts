import { dbappEventTools } from '../../events/tools';

export const getSubscription = dbappEventTools.getSubscription;
