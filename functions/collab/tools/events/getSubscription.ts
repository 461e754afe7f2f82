import { collabEventTools } from '../../events/tools';

export const getSubscription = collabEventTools.getSubscription;
