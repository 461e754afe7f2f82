import { collabEventTools } from '../../events/tools';

export const deleteSubscription = collabEventTools.deleteSubscription;
