import { collabEventTools } from '../../events/tools';

export const listSubscriptions = collabEventTools.listSubscriptions;
